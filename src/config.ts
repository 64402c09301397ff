import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface Config {
  port: number;
  host: string;
  adminPort: number;
  adminHost: string;
  /** Where the CLI finds the admin API: ADMIN_URL, else this process's admin listener. */
  adminUrl: string;
  /** Absent: the embedded PGlite store in `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** Absent: rate-limit counters live in this process. */
  redisUrl: string | undefined;
  adminToken: string | undefined;
  logLevel: string;
  /** How often other processes' key and org changes are picked up. */
  authRefreshMs: number;
  databasePoolSize: number;
  /** PGlite's shared_buffers; the default keeps the embedded store's RSS small. */
  pgliteSharedBuffers: string;
  trustProxy: boolean;
  /** Absent: the Twilio webhooks answer 503 (nothing can verify their signature). */
  twilioAuthToken: string | undefined;
  /** The public origin Twilio calls (https://calls.example.com): signatures cover the full URL. */
  publicBaseUrl: string | undefined;
  /** Who places outbound touches: `simulated` records them, `twilio` calls the REST API. */
  carrier: 'simulated' | 'twilio';
  twilio: { accountSid: string; authToken: string; apiBaseUrl: string } | undefined;
  /** Pretend network time of the simulated carrier, for load and crash tests. */
  simulatedLatencyMs: number;
  /** The dispatch worker in the server process; `WORKER=0` leaves it to `npm run worker`. */
  worker: boolean;
  workerPollMs: number;
  /** The visibility timeout: a claimed job another worker may take once this has passed. */
  workerLeaseSeconds: number;
  dispatchMaxAttempts: number;
  webhooks: WebhookSettings;
}

/** Outgoing webhooks (docs/webhooks.md). */
export interface WebhookSettings {
  /** Accept loopback/private targets and plain http:// (tests, local receivers). */
  allowPrivateTargets: boolean;
  timeoutMs: number;
  maxAttempts: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  perEndpointConcurrency: number;
  concurrency: number;
  /** An endpoint is disabled after this many failures in a row… */
  disableAfterFailures: number;
  /** …spanning at least this long. */
  disableAfterMs: number;
  /** At most one pool.exhausted per campaign per interval. */
  poolAlertIntervalMs: number;
  /** Bytes of a receiver's answer read and kept with the attempt. */
  responseBytes: number;
}

export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = {
  allowPrivateTargets: false,
  timeoutMs: 10_000,
  maxAttempts: 16,
  backoffBaseMs: 10_000,
  backoffMaxMs: 6 * 3_600_000,
  perEndpointConcurrency: 4,
  concurrency: 64,
  disableAfterFailures: 50,
  disableAfterMs: 24 * 3_600_000,
  poolAlertIntervalMs: 3_600_000,
  responseBytes: 1024,
};

function webhookConfig(env: Env): WebhookSettings {
  const d = DEFAULT_WEBHOOK_SETTINGS;
  return {
    allowPrivateTargets: ['1', 'true'].includes(env.WEBHOOK_ALLOW_PRIVATE_TARGETS ?? ''),
    timeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', d.timeoutMs, 100, 60_000),
    maxAttempts: int(env, 'WEBHOOK_MAX_ATTEMPTS', d.maxAttempts, 1, 100),
    backoffBaseMs: int(env, 'WEBHOOK_BACKOFF_BASE_MS', d.backoffBaseMs, 10, 3_600_000),
    backoffMaxMs: int(env, 'WEBHOOK_BACKOFF_MAX_MS', d.backoffMaxMs, 10, 7 * 86_400_000),
    perEndpointConcurrency: int(env, 'WEBHOOK_PER_ENDPOINT_CONCURRENCY', 4, 1, 100),
    concurrency: int(env, 'WEBHOOK_CONCURRENCY', d.concurrency, 1, 1000),
    disableAfterFailures: int(env, 'WEBHOOK_DISABLE_AFTER_FAILURES', 50, 1, 1_000_000),
    disableAfterMs: int(env, 'WEBHOOK_DISABLE_AFTER_HOURS', 24, 0, 24 * 365) * 3_600_000,
    poolAlertIntervalMs:
      int(env, 'WEBHOOK_POOL_ALERT_INTERVAL_SECONDS', 3600, 0, 30 * 86_400) * 1000,
    responseBytes: int(env, 'WEBHOOK_RESPONSE_BYTES', d.responseBytes, 0, 65_536),
  };
}

type Env = Record<string, string | undefined>;

class ConfigError extends Error {}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return n;
}

function url(env: Env, name: string, schemes: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let scheme: string;
  try {
    scheme = new URL(raw).protocol.replace(/:$/, '');
  } catch {
    throw new ConfigError(`${name} is not a URL`);
  }
  if (!schemes.includes(scheme)) {
    throw new ConfigError(`${name} must start with ${schemes.map((s) => `${s}://`).join(' or ')}`);
  }
  return raw;
}

/** A wildcard listen address is not somewhere a client can connect to. */
function localUrl(host: string, port: number): string {
  const h = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${h.includes(':') ? `[${h}]` : h}:${port}`;
}

/** Reads the environment once; nothing else in the service looks at process.env. */
export function loadConfig(env: Env = process.env): Config {
  const adminPort = int(env, 'ADMIN_PORT', 3001, 0, 65535);
  const adminHost = env.ADMIN_HOST || '127.0.0.1';
  return {
    port: int(env, 'PORT', 3000, 0, 65535),
    host: env.HOST || '0.0.0.0',
    adminPort,
    adminHost,
    adminUrl: url(env, 'ADMIN_URL', ['http', 'https']) ?? localUrl(adminHost, adminPort),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres', 'postgresql']),
    dataDir: resolve(env.DATA_DIR || './data'),
    redisUrl: url(env, 'REDIS_URL', ['redis', 'rediss']),
    adminToken: env.ADMIN_TOKEN || undefined,
    logLevel: env.LOG_LEVEL || 'info',
    authRefreshMs: int(env, 'AUTH_REFRESH_MS', 1000, 100, 5000),
    databasePoolSize: int(env, 'DATABASE_POOL_SIZE', 16, 1, 200),
    pgliteSharedBuffers: env.PGLITE_SHARED_BUFFERS || '16MB',
    trustProxy: env.TRUST_PROXY === '1' || env.TRUST_PROXY === 'true',
    twilioAuthToken: env.TWILIO_AUTH_TOKEN || undefined,
    publicBaseUrl: url(env, 'PUBLIC_BASE_URL', ['http', 'https'])?.replace(/\/+$/, ''),
    ...carrierConfig(env),
    simulatedLatencyMs: int(env, 'SIMULATED_CARRIER_LATENCY_MS', 0, 0, 60_000),
    worker: !['0', 'false', 'off', 'no'].includes((env.WORKER ?? '1').toLowerCase()),
    workerPollMs: int(env, 'WORKER_POLL_MS', 500, 10, 60_000),
    workerLeaseSeconds: int(env, 'WORKER_LEASE_SECONDS', 60, 1, 3600),
    dispatchMaxAttempts: int(env, 'DISPATCH_MAX_ATTEMPTS', 8, 1, 100),
    webhooks: webhookConfig(env),
  };
}

function carrierConfig(env: Env): Pick<Config, 'carrier' | 'twilio'> {
  const carrier = env.CARRIER || 'simulated';
  if (carrier !== 'simulated' && carrier !== 'twilio') {
    throw new ConfigError(`CARRIER must be simulated or twilio, got "${carrier}"`);
  }
  const apiBaseUrl = url(env, 'TWILIO_API_BASE_URL', ['https', 'http']) ?? 'https://api.twilio.com';
  const accountSid = env.TWILIO_ACCOUNT_SID || '';
  const authToken = env.TWILIO_AUTH_TOKEN || '';
  if (carrier === 'twilio' && (!accountSid || !authToken)) {
    throw new ConfigError('CARRIER=twilio needs TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN');
  }
  return {
    carrier,
    twilio: accountSid && authToken ? { accountSid, authToken, apiBaseUrl } : undefined,
  };
}

export { ConfigError };

/**
 * The admin token: ADMIN_TOKEN, else the one kept in DATA_DIR/admin-token,
 * created (mode 0600) on first use. The CLI resolves it the same way.
 */
export function resolveAdminToken(
  config: Pick<Config, 'adminToken' | 'dataDir'>,
  create: boolean,
): string | undefined {
  if (config.adminToken) return config.adminToken;
  const file = join(config.dataDir, 'admin-token');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  if (!create) return undefined;
  mkdirSync(config.dataDir, { recursive: true });
  const token = `adm_${randomBytes(24).toString('hex')}`;
  writeFileSync(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return token;
}

/** For process entries: the configuration, or a one-line message and exit code 2. */
export function loadConfigOrExit(env: Env = process.env): Config {
  try {
    return loadConfig(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`configuration error: ${err.message}\n`);
    process.exit(2);
  }
}
