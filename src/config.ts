import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as util from 'node:util';
import { parseSecretsKey } from './domain/conversions/secrets.js';

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
  /** How long a rate-limit count may wait for Redis before it is counted in process. */
  redisTimeoutMs: number;
  /** During a Redis outage, how often Redis is asked again. */
  redisRetryMs: number;
  /** How long each /readyz check may take before its dependency is reported down. */
  readinessTimeoutMs: number;
  /** How long a new PostgreSQL connection may take before the request fails with 503. */
  databaseConnectTimeoutMs: number;
  adminToken: string | undefined;
  logLevel: string;
  /** How often other processes' key and org changes are picked up. */
  authRefreshMs: number;
  databasePoolSize: number;
  /** DNI batches in flight at once on PostgreSQL (PGlite: always 1). */
  dniBatchConnections: number;
  /** DNI requests per batch at most. */
  dniBatchMax: number;
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
  /** Bearer token for /metrics; absent: the admin token. */
  metricsToken: string | undefined;
  /** `json` (one object a line, for collectors) or `pretty` (pino-pretty, for a terminal). */
  logFormat: 'json' | 'pretty';
  retention: RetentionConfig;
  /** The request line and headers must arrive within this, else 408 request_timeout. */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this, else 408 request_timeout. */
  requestTimeoutMs: number;
  /** On SIGTERM, how long open sockets are still answered (503) before idle ones are closed. */
  shutdownDrainMs: number;
  /**
   * Reassigned Numbers Database checks: `off` (default: nothing is checked, so Maine marketing
   * touches stay blocked), `simulated`, or `fcc` (needs RND_BASE_URL and RND_TOKEN).
   */
  rnd: {
    checker: 'off' | 'simulated' | 'fcc';
    baseUrl?: string;
    token?: string;
    refreshDays: number;
    intervalMs: number;
  };
  webhooks: WebhookSettings;
  conversions: ConversionConfig;
  console: ConsoleSettings;
}

/** Conversion uploads to ad platforms (docs/conversions.md). */
export interface ConversionConfig {
  /** SECRETS_KEY, 32 bytes; absent: destinations cannot be created and nothing is uploaded. */
  secretsKey: Buffer | undefined;
  /** SECRETS_KEY_PREVIOUS: older keys that still open rows until start-up rewraps them. */
  previousKeys: Buffer[];
  retryBaseMs: number;
  timeoutMs: number;
  urls: AdPlatformUrls;
}

/** Where each ad platform is reached: the public addresses, or local fakes in tests. */
export interface AdPlatformUrls {
  googleAdsApiBase: string;
  /** Google's Data Manager API (`events:ingest`), the default way into Google Ads. */
  googleDataManagerApiBase: string;
  googleOauthTokenUrl: string;
  metaGraphApiBase: string;
  microsoftAdsApiBase: string;
  microsoftOauthTokenUrl: string;
  ga4MpBase: string;
}

/** The web console (docs/console.md). */
export interface ConsoleSettings {
  /** 0: no console listener. */
  port: number;
  host: string;
  /** Where people open it; invitation and reset links start with it. */
  publicUrl: string;
  /** `Secure` on the cookies; CONSOLE_SECURE_COOKIES=0 for plain-HTTP use on one machine. */
  secureCookies: boolean;
  idleMinutes: number;
  maxHours: number;
  linkHours: number;
}

/** Bounded growth (docs/operations.md): what the retention job deletes, and how gently. */
export interface RetentionConfig {
  /** RETENTION=0 turns the job off in this process (another may still run it). */
  enabled: boolean;
  intervalMs: number;
  /** Rows per DELETE statement: short transactions, short locks. */
  batchSize: number;
  /** Upper bound on batches per table per round, so one round never monopolises the store. */
  maxBatches: number;
  /** DNI sessions no recorded call points at, after this many days. */
  sessionDays: number;
  /** Dispatch jobs in a final state (done, failed), after this many days. */
  dispatchJobDays: number;
  /**
   * Outgoing-webhook history: deliveries in a final state (delivered, failed) and their
   * attempts, this many days after they became final; then events no delivery is left for.
   */
  webhookDays: number;
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
    redisTimeoutMs: int(env, 'REDIS_TIMEOUT_MS', 50, 5, 5000),
    redisRetryMs: int(env, 'REDIS_RETRY_MS', 1000, 100, 60_000),
    readinessTimeoutMs: int(env, 'READINESS_TIMEOUT_MS', 1000, 50, 30_000),
    databaseConnectTimeoutMs: int(env, 'DATABASE_CONNECT_TIMEOUT_MS', 3000, 100, 60_000),
    adminToken: env.ADMIN_TOKEN || undefined,
    authRefreshMs: int(env, 'AUTH_REFRESH_MS', 1000, 100, 5000),
    databasePoolSize: int(env, 'DATABASE_POOL_SIZE', 16, 1, 200),
    dniBatchConnections: int(env, 'DNI_BATCH_CONNECTIONS', 2, 1, 16),
    dniBatchMax: int(env, 'DNI_BATCH_MAX', 64, 1, 1_000),
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
    metricsToken: env.METRICS_TOKEN || undefined,
    logFormat: oneOf(env, 'LOG_FORMAT', ['json', 'pretty'] as const, 'json'),
    logLevel: oneOf(
      env,
      'LOG_LEVEL',
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const,
      'info',
    ),
    retention: {
      enabled: flag(env, 'RETENTION', true),
      intervalMs: int(env, 'RETENTION_INTERVAL_SECONDS', 60, 1, 86_400) * 1000,
      batchSize: int(env, 'RETENTION_BATCH_SIZE', 1000, 10, 100_000),
      maxBatches: int(env, 'RETENTION_MAX_BATCHES', 1000, 1, 100_000),
      sessionDays: int(env, 'SESSION_RETENTION_DAYS', 90, 1, 3650),
      dispatchJobDays: int(env, 'DISPATCH_JOB_RETENTION_DAYS', 30, 1, 3650),
      webhookDays: int(env, 'WEBHOOK_RETENTION_DAYS', 30, 1, 3650),
    },
    ...timeouts(env),
    rnd: rndConfig(env),
    webhooks: webhookConfig(env),
    conversions: conversionConfig(env),
    console: consoleConfig(env),
  };
}

function secretsKey(name: string, raw: string): Buffer {
  const key = parseSecretsKey(raw);
  if (!key) throw new ConfigError(`${name} must be 32 bytes as 64 hex digits or base64`);
  return key;
}

function conversionConfig(env: Env): ConversionConfig {
  const base = (e: Env, name: string, fallback: string) =>
    (url(e, name, ['https', 'http']) ?? fallback).replace(/\/+$/, '');
  return {
    secretsKey: env.SECRETS_KEY ? secretsKey('SECRETS_KEY', env.SECRETS_KEY) : undefined,
    previousKeys: (env.SECRETS_KEY_PREVIOUS ?? '')
      .split(',')
      .filter((k) => k.trim() !== '')
      .map((k) => secretsKey('SECRETS_KEY_PREVIOUS', k)),
    retryBaseMs: int(env, 'UPLOAD_RETRY_BASE_SECONDS', 30, 1, 3600) * 1000,
    timeoutMs: int(env, 'UPLOAD_TIMEOUT_MS', 30_000, 100, 120_000),
    urls: {
      googleAdsApiBase: base(env, 'GOOGLE_ADS_API_BASE', 'https://googleads.googleapis.com'),
      googleDataManagerApiBase: base(
        env,
        'GOOGLE_DATA_MANAGER_API_BASE',
        'https://datamanager.googleapis.com',
      ),
      googleOauthTokenUrl: base(
        env,
        'GOOGLE_OAUTH_TOKEN_URL',
        'https://oauth2.googleapis.com/token',
      ),
      metaGraphApiBase: base(env, 'META_GRAPH_API_BASE', 'https://graph.facebook.com'),
      microsoftAdsApiBase: base(
        env,
        'MICROSOFT_ADS_API_BASE',
        'https://campaign.api.bingads.microsoft.com',
      ),
      microsoftOauthTokenUrl: base(
        env,
        'MICROSOFT_OAUTH_TOKEN_URL',
        'https://login.microsoftonline.com/common/oauth2/v2.0/token',
      ),
      ga4MpBase: base(env, 'GA4_MP_BASE', 'https://www.google-analytics.com'),
    },
  };
}

/** The console's settings when nothing is configured (the admin API's link answers use them too). */
export const DEFAULT_CONSOLE_SETTINGS: ConsoleSettings = {
  port: 3002,
  host: '127.0.0.1',
  publicUrl: 'http://127.0.0.1:3002',
  secureCookies: true,
  idleMinutes: 30,
  maxHours: 12,
  linkHours: 72,
};

function consoleConfig(env: Env): ConsoleSettings {
  const port = int(env, 'CONSOLE_PORT', 3002, 0, 65535);
  const host = env.CONSOLE_HOST || '127.0.0.1';
  return {
    port,
    host,
    publicUrl: (url(env, 'CONSOLE_PUBLIC_URL', ['http', 'https']) ?? localUrl(host, port)).replace(
      /\/+$/,
      '',
    ),
    secureCookies: flag(env, 'CONSOLE_SECURE_COOKIES', true),
    idleMinutes: int(env, 'CONSOLE_SESSION_IDLE_MINUTES', 30, 1, 7 * 24 * 60),
    maxHours: int(env, 'CONSOLE_SESSION_MAX_HOURS', 12, 1, 30 * 24),
    linkHours: int(env, 'CONSOLE_LINK_HOURS', 72, 1, 30 * 24),
  };
}

function timeouts(
  env: Env,
): Pick<Config, 'headersTimeoutMs' | 'requestTimeoutMs' | 'shutdownDrainMs'> {
  const headersTimeoutMs = int(env, 'HEADERS_TIMEOUT_MS', 10_000, 100, 300_000);
  const requestTimeoutMs = int(env, 'REQUEST_TIMEOUT_MS', 30_000, 100, 600_000);
  // Node refuses a headers timeout longer than the request timeout.
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError('HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS');
  }
  return {
    headersTimeoutMs,
    requestTimeoutMs,
    shutdownDrainMs: int(env, 'SHUTDOWN_DRAIN_MS', 1_000, 0, 8_000),
  };
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = (env[name] ?? '').toLowerCase();
  if (raw === '') return fallback;
  if (['1', 'true', 'on', 'yes'].includes(raw)) return true;
  if (['0', 'false', 'off', 'no'].includes(raw)) return false;
  throw new ConfigError(`${name} must be 1 or 0, got "${env[name]}"`);
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(values as readonly string[]).includes(raw)) {
    throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${raw}"`);
  }
  return raw as T;
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

function rndConfig(env: Env): Config['rnd'] {
  const checker = env.RND_CHECKER || 'off';
  if (checker !== 'off' && checker !== 'simulated' && checker !== 'fcc') {
    throw new ConfigError(`RND_CHECKER must be off, simulated or fcc, got "${checker}"`);
  }
  const baseUrl = url(env, 'RND_BASE_URL', ['https', 'http']);
  const token = env.RND_TOKEN || undefined;
  if (checker === 'fcc' && (!baseUrl || !token)) {
    throw new ConfigError('RND_CHECKER=fcc needs RND_BASE_URL and RND_TOKEN');
  }
  return {
    checker,
    ...(baseUrl ? { baseUrl } : {}),
    ...(token ? { token } : {}),
    refreshDays: int(env, 'RND_REFRESH_DAYS', 30, 1, 365),
    intervalMs: int(env, 'RND_INTERVAL_MS', 3_600_000, 1000, 86_400_000),
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

/**
 * Puts the working directory's `.env` under the environment, as `node --env-file-if-exists`
 * does (Node ≥ 22.9 only): a variable already set wins, and a missing file is no error. The
 * process entries call it once, before loadConfig reads the environment. `util.parseEnv` is
 * Node ≥ 20.12; an older Node says it cannot read the file instead of ignoring it silently.
 */
export function loadDotEnv(
  env: Env = process.env,
  file = resolve('.env'),
  warn: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): 'loaded' | 'absent' | 'unsupported' {
  if (!existsSync(file)) return 'absent';
  if (typeof util.parseEnv !== 'function') {
    warn(`${file} not read: Node ${process.versions.node} cannot parse it (20.12 or later can)`);
    return 'unsupported';
  }
  for (const [name, value] of Object.entries(util.parseEnv(readFileSync(file, 'utf8')))) {
    if (env[name] === undefined && value !== undefined) env[name] = value;
  }
  return 'loaded';
}

/** For process entries: `.env`, then the configuration, or a one-line message and exit code 2. */
export function loadConfigOrExit(env: Env = process.env): Config {
  loadDotEnv(env);
  try {
    return loadConfig(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`configuration error: ${err.message}\n`);
    process.exit(2);
  }
}
