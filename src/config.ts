import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as util from 'node:util';
import Type, { type Static } from 'typebox';
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
  databaseQueueTimeoutMs: number;
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

type Env = Record<string, string | undefined>;

class ConfigError extends Error {}

/** A whole number in [minimum, maximum]. */
const int = (fallback: number, minimum: number, maximum: number, description: string) =>
  Type.Integer({ default: fallback, minimum, maximum, description });
/** 1/0, true/false, on/off, yes/no; anything else is refused. */
const flag = (fallback: boolean, description: string) =>
  Type.Boolean({ default: fallback, description });
/** On only when `1` or `true` (anything else is off). */
const onWhenOne = (description: string) =>
  Type.Boolean({ default: false, description, 'x-on': ['1', 'true'] });
const text = (fallback: string, description: string) =>
  Type.String({ default: fallback, description });
/** Unset or empty: absent. */
const optionalText = (description: string, shownDefault = '–') =>
  Type.Optional(Type.String({ description, 'x-default': shownDefault }));
/** A URL with one of these schemes; unset or empty: absent (or `shownDefault`'s rule). */
const optionalUrl = (schemes: string[], description: string, shownDefault = '–') =>
  Type.Optional(
    Type.String({ format: 'uri', 'x-schemes': schemes, description, 'x-default': shownDefault }),
  );
const urlWithDefault = (fallback: string, description: string) =>
  Type.String({ format: 'uri', 'x-schemes': ['https', 'http'], default: fallback, description });
const choice = <const T extends string>(values: readonly T[], fallback: T, description: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { default: fallback, description },
  );

const PLATFORM_URL = "an ad platform's address (tests point it at a local fake)";

/**
 * Every setting the service reads from its environment: name, type, default and meaning.
 * `loadConfig` reads each one as this says, once; nothing else reads process.env. The
 * README's settings table is generated from it (`npm run settings:table`), and
 * test/unit/config-settings.test.ts fails when the two differ.
 */
export const Settings = Type.Object({
  PORT: int(3000, 0, 65535, 'public API listener port'),
  HOST: text('0.0.0.0', 'public API listener address'),
  ADMIN_PORT: int(3001, 0, 65535, 'admin API and `/metrics` port; keep it private'),
  ADMIN_HOST: text('127.0.0.1', 'admin API listener address'),
  ADMIN_URL: optionalUrl(
    ['http', 'https'],
    'where the CLI finds the admin API',
    '`http://ADMIN_HOST:ADMIN_PORT`',
  ),
  TRUST_PROXY: onWhenOne('`1` behind a load balancer that sets `X-Forwarded-For`'),
  HEADERS_TIMEOUT_MS: int(
    10_000,
    100,
    300_000,
    'request line and headers must arrive within this, else `408 request_timeout` and close',
  ),
  REQUEST_TIMEOUT_MS: int(
    30_000,
    100,
    600_000,
    'the whole request (body included) must arrive within this; not less than `HEADERS_TIMEOUT_MS`',
  ),
  SHUTDOWN_DRAIN_MS: int(
    1_000,
    0,
    8_000,
    'on `SIGTERM`, how long open sockets are still answered (`503`) before idle ones close',
  ),
  CONSOLE_PORT: int(
    3002,
    0,
    65535,
    'the web console ([docs/console.md](docs/console.md)); `0` turns it off',
  ),
  CONSOLE_HOST: text('127.0.0.1', 'web console listener address'),
  CONSOLE_PUBLIC_URL: optionalUrl(
    ['http', 'https'],
    'where people open the console; invitation and reset links start with it',
    '`http://CONSOLE_HOST:CONSOLE_PORT`',
  ),
  CONSOLE_SECURE_COOKIES: flag(
    true,
    '`Secure` cookies (HTTPS only); `0` for plain HTTP on one machine',
  ),
  CONSOLE_SESSION_IDLE_MINUTES: int(
    30,
    1,
    7 * 24 * 60,
    'a console session ends after this long unused',
  ),
  CONSOLE_SESSION_MAX_HOURS: int(12, 1, 30 * 24, 'a console session ends this long after sign-in'),
  CONSOLE_LINK_HOURS: int(72, 1, 30 * 24, 'invitation and password-reset links expire after this'),
  DATABASE_URL: optionalUrl(
    ['postgres', 'postgresql'],
    '`postgres://…`: use PostgreSQL instead of the embedded store',
  ),
  DATA_DIR: text('./data', 'embedded store and the generated admin token'),
  DATABASE_POOL_SIZE: int(16, 1, 200, 'PostgreSQL connections per process'),
  DNI_BATCH_CONNECTIONS: int(
    2,
    1,
    16,
    'DNI batches in flight at once on PostgreSQL (PGlite: 1); requests arriving meanwhile wait for the next batch',
  ),
  DNI_BATCH_MAX: int(
    64,
    1,
    1_000,
    'DNI requests per batch (one statement, one transaction) at most',
  ),
  DATABASE_CONNECT_TIMEOUT_MS: int(
    3000,
    100,
    60_000,
    'how long a new PostgreSQL connection may take before the request answers 503',
  ),
  DATABASE_QUEUE_TIMEOUT_MS: int(
    10_000,
    100,
    60_000,
    'how long a request waits for a free PostgreSQL connection, all busy, before it answers 503',
  ),
  PGLITE_SHARED_BUFFERS: text('16MB', "embedded store's buffer cache"),
  REDIS_URL: optionalUrl(['redis', 'rediss'], '`redis://…`: shared rate-limit counters'),
  REDIS_TIMEOUT_MS: int(
    50,
    5,
    5000,
    'how long a rate-limit count waits for Redis before it counts in process',
  ),
  REDIS_RETRY_MS: int(1000, 100, 60_000, 'during a Redis outage, how often Redis is asked again'),
  READINESS_TIMEOUT_MS: int(
    1000,
    50,
    30_000,
    'how long each `/readyz` check may take before its dependency is reported `down`',
  ),
  ADMIN_TOKEN: optionalText(
    'admin API token; when unset, one is created in `DATA_DIR/admin-token` (mode 0600)',
    'generated',
  ),
  METRICS_TOKEN: optionalText('bearer token `/metrics` requires', 'the admin token'),
  AUTH_REFRESH_MS: int(
    1000,
    100,
    5000,
    'how often key and organization changes made by other processes are picked up',
  ),
  LOG_LEVEL: choice(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    'info',
    'pino level (`debug` also prints start-up stack traces); `Authorization` headers and keys are never logged',
  ),
  LOG_FORMAT: choice(
    ['json', 'pretty'],
    'json',
    '`pretty` for a terminal (pino-pretty, a dev dependency)',
  ),
  CARRIER: choice(
    ['simulated', 'twilio'],
    'simulated',
    'who places outbound touches: `simulated` records them, `twilio` calls the REST API',
  ),
  TWILIO_ACCOUNT_SID: optionalText('Twilio account, needed by `CARRIER=twilio`'),
  TWILIO_AUTH_TOKEN: optionalText(
    "Twilio's auth token: places calls, and verifies the Twilio webhooks' signatures (unset: they answer 503)",
  ),
  TWILIO_API_BASE_URL: urlWithDefault('https://api.twilio.com', "Twilio's REST API address"),
  PUBLIC_BASE_URL: optionalUrl(
    ['http', 'https'],
    'the public origin Twilio calls (`https://calls.example.com`); signatures cover the full URL',
  ),
  SIMULATED_CARRIER_LATENCY_MS: int(
    0,
    0,
    60_000,
    'pretend network time of the simulated carrier, for load and crash tests',
  ),
  RND_CHECKER: choice(
    ['off', 'simulated', 'fcc'],
    'off',
    'reassigned-numbers checks: `off` (Maine marketing touches stay blocked), `simulated` or `fcc` (with `RND_BASE_URL`, `RND_TOKEN`)',
  ),
  RND_BASE_URL: optionalUrl(['https', 'http'], 'the FCC Reassigned Numbers Database API address'),
  RND_TOKEN: optionalText('the Reassigned Numbers Database API token'),
  RND_REFRESH_DAYS: int(30, 1, 365, 're-ask reassigned-numbers answers older than this'),
  RND_INTERVAL_MS: int(
    3_600_000,
    1000,
    86_400_000,
    'pause between scheduled reassigned-numbers rounds',
  ),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: onWhenOne(
    '`1`: webhook URLs may be private addresses or `http://` (tests, local receivers)',
  ),
  WEBHOOK_TIMEOUT_MS: int(10_000, 100, 60_000, 'deadline of one webhook request'),
  WEBHOOK_MAX_ATTEMPTS: int(16, 1, 100, 'then the delivery is `failed`'),
  WEBHOOK_BACKOFF_BASE_MS: int(10_000, 10, 3_600_000, 'first webhook retry delay'),
  WEBHOOK_BACKOFF_MAX_MS: int(6 * 3_600_000, 10, 7 * 86_400_000, 'longest webhook retry delay'),
  WEBHOOK_PER_ENDPOINT_CONCURRENCY: int(
    4,
    1,
    100,
    'deliveries in flight per endpoint, across workers',
  ),
  WEBHOOK_CONCURRENCY: int(64, 1, 1000, 'deliveries in flight per worker'),
  WEBHOOK_DISABLE_AFTER_FAILURES: int(
    50,
    1,
    1_000_000,
    'failures in a row that disable an endpoint, when the run spans at least `WEBHOOK_DISABLE_AFTER_HOURS`',
  ),
  WEBHOOK_DISABLE_AFTER_HOURS: int(24, 0, 24 * 365, 'see `WEBHOOK_DISABLE_AFTER_FAILURES`'),
  WEBHOOK_POOL_ALERT_INTERVAL_SECONDS: int(
    3600,
    0,
    30 * 86_400,
    'at most one `pool.exhausted` event per campaign per interval',
  ),
  WEBHOOK_RESPONSE_BYTES: int(
    1024,
    0,
    65_536,
    "bytes of a receiver's answer kept with each attempt",
  ),
  WORKER: Type.Boolean({
    default: true,
    description:
      '`0`: no dispatch worker in the API process; run `npm run worker` (PostgreSQL only)',
    'x-off': ['0', 'false', 'off', 'no'],
  }),
  WORKER_POLL_MS: int(500, 10, 60_000, 'how often an idle worker looks for due jobs'),
  WORKER_LEASE_SECONDS: int(
    60,
    1,
    3600,
    'a claimed job another worker may take once this has passed',
  ),
  DISPATCH_MAX_ATTEMPTS: int(8, 1, 100, 'then a dispatch job is `failed`'),
  RETENTION: flag(true, '`0`: this process never runs the retention job'),
  RETENTION_INTERVAL_SECONDS: int(60, 1, 86_400, 'pause between retention rounds'),
  RETENTION_BATCH_SIZE: int(1000, 10, 100_000, 'rows per DELETE'),
  RETENTION_MAX_BATCHES: int(1000, 1, 100_000, 'batches per table per round'),
  SESSION_RETENTION_DAYS: int(
    90,
    1,
    3650,
    'DNI sessions no call points at are deleted this long after they expired',
  ),
  DISPATCH_JOB_RETENTION_DAYS: int(
    30,
    1,
    3650,
    'finished dispatch jobs are deleted this long after they finished',
  ),
  WEBHOOK_RETENTION_DAYS: int(
    30,
    1,
    3650,
    'webhook deliveries delivered or failed, and their attempts, are deleted this long after; then their events',
  ),
  SECRETS_KEY: optionalText(
    '32 bytes (64 hex or base64) encrypting conversion-destination secrets; a wrong one stops start-up with one line',
  ),
  SECRETS_KEY_PREVIOUS: optionalText(
    'older keys, comma-separated, during a rotation; start-up re-encrypts rows under `SECRETS_KEY`',
  ),
  UPLOAD_RETRY_BASE_SECONDS: int(
    30,
    1,
    3600,
    'first conversion-upload retry delay; doubling with jitter up to an hour',
  ),
  UPLOAD_TIMEOUT_MS: int(30_000, 100, 120_000, 'deadline of one request to an ad platform'),
  GOOGLE_ADS_API_BASE: urlWithDefault('https://googleads.googleapis.com', PLATFORM_URL),
  GOOGLE_DATA_MANAGER_API_BASE: urlWithDefault('https://datamanager.googleapis.com', PLATFORM_URL),
  GOOGLE_OAUTH_TOKEN_URL: urlWithDefault('https://oauth2.googleapis.com/token', PLATFORM_URL),
  META_GRAPH_API_BASE: urlWithDefault('https://graph.facebook.com', PLATFORM_URL),
  MICROSOFT_ADS_API_BASE: urlWithDefault(
    'https://campaign.api.bingads.microsoft.com',
    PLATFORM_URL,
  ),
  MICROSOFT_OAUTH_TOKEN_URL: urlWithDefault(
    'https://login.microsoftonline.com/common/oauth2/v2.0/token',
    PLATFORM_URL,
  ),
  GA4_MP_BASE: urlWithDefault('https://www.google-analytics.com', PLATFORM_URL),
});

export type SettingValues = Static<typeof Settings>;

interface SettingSchema {
  type?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  anyOf?: { const: string }[];
  'x-schemes'?: string[];
  'x-on'?: string[];
  'x-off'?: string[];
}

/** `a, b or c`. */
function either(values: readonly string[]): string {
  return values.length < 2
    ? values.join('')
    : `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
}

/** One setting's value from its text, as its schema says; throws a ConfigError naming it. */
function readSetting(name: string, schema: SettingSchema, raw: string | undefined): unknown {
  if (schema.type === 'boolean') {
    const lower = (raw ?? '').toLowerCase();
    if (schema['x-on']) return schema['x-on'].includes(lower);
    if (schema['x-off']) return lower === '' ? schema.default : !schema['x-off'].includes(lower);
    if (lower === '') return schema.default;
    if (['1', 'true', 'on', 'yes'].includes(lower)) return true;
    if (['0', 'false', 'off', 'no'].includes(lower)) return false;
    throw new ConfigError(`${name} must be 1 or 0, got "${raw}"`);
  }
  if (raw === undefined || raw === '') return schema.default;
  if (schema.type === 'integer') {
    const n = Number(raw);
    const { minimum = -Infinity, maximum = Infinity } = schema;
    if (!Number.isInteger(n) || n < minimum || n > maximum) {
      throw new ConfigError(
        `${name} must be an integer from ${minimum} to ${maximum}, got "${raw}"`,
      );
    }
    return n;
  }
  if (schema.anyOf) {
    const values = schema.anyOf.map((v) => v.const);
    if (!values.includes(raw))
      throw new ConfigError(`${name} must be ${either(values)}, got "${raw}"`);
    return raw;
  }
  const schemes = schema['x-schemes'];
  if (schemes) {
    let scheme: string;
    try {
      scheme = new URL(raw).protocol.replace(/:$/, '');
    } catch {
      throw new ConfigError(`${name} is not a URL`);
    }
    if (!schemes.includes(scheme)) {
      throw new ConfigError(
        `${name} must start with ${schemes.map((s) => `${s}://`).join(' or ')}`,
      );
    }
  }
  return raw;
}

/** Every setting read from the environment as the schema says; the first bad one throws. */
export function readSettings(env: Env): SettingValues {
  const values: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(Settings.properties)) {
    const value = readSetting(name, schema as SettingSchema, env[name]);
    if (value !== undefined) values[name] = value;
  }
  return values as SettingValues;
}

/** The default a reader sees: the schema's default, or the rule that stands for it. */
export function shownDefault(schema: { default?: unknown; 'x-default'?: string }): string {
  if (schema['x-default'] !== undefined) return schema['x-default'];
  if (typeof schema.default === 'boolean') return schema.default ? '`1`' : '`0`';
  return `\`${String(schema.default)}\``;
}

/** The README's settings table, one row a setting, from the schema. */
export function settingsTable(): string {
  const rows = Object.entries(Settings.properties).map(([name, schema]) => {
    const s = schema as unknown as { description: string; default?: unknown; 'x-default'?: string };
    return `| \`${name}\` | ${shownDefault(s)} | ${s.description} |`;
  });
  return ['| Variable | Default | Meaning |', '| --- | --- | --- |', ...rows].join('\n');
}

const TABLE_START = '<!-- settings table: npm run settings:table writes it from src/config.ts -->';
const TABLE_END = '<!-- end of settings table -->';

/** The README's text with its settings table replaced by the one the schema gives. */
export function withSettingsTable(readme: string): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error('README.md has no settings table markers');
  return `${readme.slice(0, start + TABLE_START.length)}\n${settingsTable()}\n${readme.slice(end)}`;
}

/** A wildcard listen address is not somewhere a client can connect to. */
function localUrl(host: string, port: number): string {
  const h = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${h.includes(':') ? `[${h}]` : h}:${port}`;
}

const withoutTrailingSlash = (value: string) => value.replace(/\/+$/, '');

/** Reads the environment once; nothing else in the service looks at process.env. */
export function loadConfig(env: Env = process.env): Config {
  const s = readSettings(env);
  // Node refuses a headers timeout longer than the request timeout.
  if (s.HEADERS_TIMEOUT_MS > s.REQUEST_TIMEOUT_MS) {
    throw new ConfigError('HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS');
  }
  return {
    port: s.PORT,
    host: s.HOST,
    adminPort: s.ADMIN_PORT,
    adminHost: s.ADMIN_HOST,
    adminUrl: s.ADMIN_URL ?? localUrl(s.ADMIN_HOST, s.ADMIN_PORT),
    databaseUrl: s.DATABASE_URL,
    dataDir: resolve(s.DATA_DIR),
    redisUrl: s.REDIS_URL,
    redisTimeoutMs: s.REDIS_TIMEOUT_MS,
    redisRetryMs: s.REDIS_RETRY_MS,
    readinessTimeoutMs: s.READINESS_TIMEOUT_MS,
    databaseConnectTimeoutMs: s.DATABASE_CONNECT_TIMEOUT_MS,
    databaseQueueTimeoutMs: s.DATABASE_QUEUE_TIMEOUT_MS,
    adminToken: s.ADMIN_TOKEN,
    authRefreshMs: s.AUTH_REFRESH_MS,
    databasePoolSize: s.DATABASE_POOL_SIZE,
    dniBatchConnections: s.DNI_BATCH_CONNECTIONS,
    dniBatchMax: s.DNI_BATCH_MAX,
    pgliteSharedBuffers: s.PGLITE_SHARED_BUFFERS,
    trustProxy: s.TRUST_PROXY,
    twilioAuthToken: s.TWILIO_AUTH_TOKEN,
    publicBaseUrl:
      s.PUBLIC_BASE_URL === undefined ? undefined : withoutTrailingSlash(s.PUBLIC_BASE_URL),
    ...carrierConfig(s),
    simulatedLatencyMs: s.SIMULATED_CARRIER_LATENCY_MS,
    worker: s.WORKER,
    workerPollMs: s.WORKER_POLL_MS,
    workerLeaseSeconds: s.WORKER_LEASE_SECONDS,
    dispatchMaxAttempts: s.DISPATCH_MAX_ATTEMPTS,
    metricsToken: s.METRICS_TOKEN,
    logFormat: s.LOG_FORMAT,
    logLevel: s.LOG_LEVEL,
    retention: {
      enabled: s.RETENTION,
      intervalMs: s.RETENTION_INTERVAL_SECONDS * 1000,
      batchSize: s.RETENTION_BATCH_SIZE,
      maxBatches: s.RETENTION_MAX_BATCHES,
      sessionDays: s.SESSION_RETENTION_DAYS,
      dispatchJobDays: s.DISPATCH_JOB_RETENTION_DAYS,
      webhookDays: s.WEBHOOK_RETENTION_DAYS,
    },
    headersTimeoutMs: s.HEADERS_TIMEOUT_MS,
    requestTimeoutMs: s.REQUEST_TIMEOUT_MS,
    shutdownDrainMs: s.SHUTDOWN_DRAIN_MS,
    rnd: rndConfig(s),
    webhooks: {
      allowPrivateTargets: s.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      timeoutMs: s.WEBHOOK_TIMEOUT_MS,
      maxAttempts: s.WEBHOOK_MAX_ATTEMPTS,
      backoffBaseMs: s.WEBHOOK_BACKOFF_BASE_MS,
      backoffMaxMs: s.WEBHOOK_BACKOFF_MAX_MS,
      perEndpointConcurrency: s.WEBHOOK_PER_ENDPOINT_CONCURRENCY,
      concurrency: s.WEBHOOK_CONCURRENCY,
      disableAfterFailures: s.WEBHOOK_DISABLE_AFTER_FAILURES,
      disableAfterMs: s.WEBHOOK_DISABLE_AFTER_HOURS * 3_600_000,
      poolAlertIntervalMs: s.WEBHOOK_POOL_ALERT_INTERVAL_SECONDS * 1000,
      responseBytes: s.WEBHOOK_RESPONSE_BYTES,
    },
    conversions: conversionConfig(s),
    console: {
      port: s.CONSOLE_PORT,
      host: s.CONSOLE_HOST,
      publicUrl: withoutTrailingSlash(
        s.CONSOLE_PUBLIC_URL ?? localUrl(s.CONSOLE_HOST, s.CONSOLE_PORT),
      ),
      secureCookies: s.CONSOLE_SECURE_COOKIES,
      idleMinutes: s.CONSOLE_SESSION_IDLE_MINUTES,
      maxHours: s.CONSOLE_SESSION_MAX_HOURS,
      linkHours: s.CONSOLE_LINK_HOURS,
    },
  };
}

/** The defaults of the webhook settings (the webhook tests start from them). */
export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = loadConfig({}).webhooks;

/** The console's settings when nothing is configured (the admin API's link answers use them too). */
export const DEFAULT_CONSOLE_SETTINGS: ConsoleSettings = loadConfig({}).console;

function secretsKey(name: string, raw: string): Buffer {
  const key = parseSecretsKey(raw);
  if (!key) throw new ConfigError(`${name} must be 32 bytes as 64 hex digits or base64`);
  return key;
}

function conversionConfig(s: SettingValues): ConversionConfig {
  return {
    secretsKey: s.SECRETS_KEY ? secretsKey('SECRETS_KEY', s.SECRETS_KEY) : undefined,
    previousKeys: (s.SECRETS_KEY_PREVIOUS ?? '')
      .split(',')
      .filter((k) => k.trim() !== '')
      .map((k) => secretsKey('SECRETS_KEY_PREVIOUS', k)),
    retryBaseMs: s.UPLOAD_RETRY_BASE_SECONDS * 1000,
    timeoutMs: s.UPLOAD_TIMEOUT_MS,
    urls: {
      googleAdsApiBase: withoutTrailingSlash(s.GOOGLE_ADS_API_BASE),
      googleDataManagerApiBase: withoutTrailingSlash(s.GOOGLE_DATA_MANAGER_API_BASE),
      googleOauthTokenUrl: withoutTrailingSlash(s.GOOGLE_OAUTH_TOKEN_URL),
      metaGraphApiBase: withoutTrailingSlash(s.META_GRAPH_API_BASE),
      microsoftAdsApiBase: withoutTrailingSlash(s.MICROSOFT_ADS_API_BASE),
      microsoftOauthTokenUrl: withoutTrailingSlash(s.MICROSOFT_OAUTH_TOKEN_URL),
      ga4MpBase: withoutTrailingSlash(s.GA4_MP_BASE),
    },
  };
}

function carrierConfig(s: SettingValues): Pick<Config, 'carrier' | 'twilio'> {
  const accountSid = s.TWILIO_ACCOUNT_SID ?? '';
  const authToken = s.TWILIO_AUTH_TOKEN ?? '';
  if (s.CARRIER === 'twilio' && (!accountSid || !authToken)) {
    throw new ConfigError('CARRIER=twilio needs TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN');
  }
  return {
    carrier: s.CARRIER,
    twilio:
      accountSid && authToken
        ? { accountSid, authToken, apiBaseUrl: s.TWILIO_API_BASE_URL }
        : undefined,
  };
}

function rndConfig(s: SettingValues): Config['rnd'] {
  const { RND_CHECKER: checker, RND_BASE_URL: baseUrl, RND_TOKEN: token } = s;
  if (checker === 'fcc' && (!baseUrl || !token)) {
    throw new ConfigError('RND_CHECKER=fcc needs RND_BASE_URL and RND_TOKEN');
  }
  return {
    checker,
    ...(baseUrl ? { baseUrl } : {}),
    ...(token ? { token } : {}),
    refreshDays: s.RND_REFRESH_DAYS,
    intervalMs: s.RND_INTERVAL_MS,
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
