import type { Config } from './config.js';
import { SecretsKeyMismatch } from './domain/conversions/secrets.js';
import { safeError } from './log-privacy.js';
import { DataDirLocked } from './store/data-dir-lock.js';
import { MigrationsOutOfOrder } from './store/migrate-journal.js';

type Bag = Record<string, unknown>;

/** DATABASE_URL without its password, for messages. */
function shownUrl(raw: string): string {
  try {
    const u = new URL(raw);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'DATABASE_URL';
  }
}

// ENOENT: a recursive mkdir on a read-only mount reports the missing parent, not EROFS.
const DISK_CODES = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EEXIST', 'EISDIR', 'ENOENT']);
const FULL_CODES = new Set(['ENOSPC', 'EDQUOT']);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
]);

/** Emscripten's file system (PGlite) throws objects with a numeric errno and no message. */
const EMSCRIPTEN_ERRNO: Record<number, string> = {
  2: 'EACCES',
  44: 'ENOENT',
  51: 'ENOSPC',
  63: 'EPERM',
  69: 'EROFS',
};

function errnoCode(e: Bag): string | undefined {
  if (typeof e.code === 'string') return e.code;
  if (typeof e.errno === 'number' && e.name === 'ErrnoError') return EMSCRIPTEN_ERRNO[e.errno];
  const text = typeof e.message === 'string' ? e.message : '';
  return /\b(ENOSPC|EROFS|EACCES|EPERM|EDQUOT)\b/.exec(text)?.[1] ?? undefined;
}

/** Which setting names a port, for an error that was not marked with it (src/port-check.ts). */
function portSetting(port: number, config: Config): string {
  if (port === config.adminPort) return 'ADMIN_PORT';
  if (port === config.console.port) return 'CONSOLE_PORT';
  return 'PORT';
}

/**
 * One line that says what failed and where, for an operator reading a
 * service manager's log; the stack is for LOG_LEVEL=debug only.
 */
export function describeStartupFailure(err: unknown, config: Config): string {
  if (
    err instanceof DataDirLocked ||
    err instanceof SecretsKeyMismatch ||
    err instanceof MigrationsOutOfOrder
  ) {
    return err.message;
  }
  const e = (err && typeof err === 'object' ? err : { message: String(err) }) as Bag;
  const code = errnoCode(e);
  if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
    if (typeof e.port === 'number' && e.syscall !== undefined) {
      const name = typeof e.setting === 'string' ? e.setting : portSetting(e.port, config);
      const what =
        code === 'EADDRINUSE'
          ? 'is in use by another process'
          : code === 'EACCES'
            ? 'needs privileges this process lacks (ports below 1024)'
            : 'is not an address of this machine';
      return `${name}=${e.port} on ${String(e.address)} ${what} (${code})`;
    }
  }
  if (config.databaseUrl) {
    const url = shownUrl(config.databaseUrl);
    if (code && NETWORK_CODES.has(code)) {
      return `DATABASE_URL ${url} cannot be reached: ${code} (is PostgreSQL running there?)`;
    }
    const safe = safeError(err);
    if (safe.type === 'DatabaseError') {
      return `DATABASE_URL ${url} refused the service: SQLSTATE ${String(safe.sqlstate)} ${String(safe.message ?? '')}`.trim();
    }
    return `DATABASE_URL ${url} did not answer as PostgreSQL: ${String(safe.message ?? code ?? 'unknown error')}`;
  }
  if (code && FULL_CODES.has(code)) {
    return `DATA_DIR ${config.dataDir} is full (${code}): free space there or point DATA_DIR at a larger disk`;
  }
  if (code && DISK_CODES.has(code) && (code !== 'ENOENT' || e.syscall === 'mkdir')) {
    const path = typeof e.path === 'string' ? ` (${String(e.syscall ?? 'open')} ${e.path})` : '';
    return `DATA_DIR ${config.dataDir} is not writable: ${code}${path}`;
  }
  const safe = safeError(err);
  return `${String(safe.type ?? 'Error')}: ${String(safe.message ?? 'unknown error')}`;
}

/** Writes the line (and the stack at LOG_LEVEL=debug) and exits non-zero. */
export function exitOnStartupFailure(prefix: string, err: unknown, config: Config): never {
  process.stderr.write(`${prefix}: ${describeStartupFailure(err, config)}\n`);
  if (config.logLevel === 'debug' || config.logLevel === 'trace') {
    // Scrubbed too: a driver's stack can carry the statement's parameters.
    const safe = safeError(err);
    process.stderr.write(`${typeof safe.stack === 'string' ? safe.stack : JSON.stringify(safe)}\n`);
  }
  process.exit(1);
}
