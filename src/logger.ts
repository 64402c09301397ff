import pino, { type Logger, type LoggerOptions } from 'pino';
import { safeError, scrubText } from './log-privacy.js';

/**
 * Private by default: credentials, request bodies, phone numbers, visitor ids
 * and SQL parameters never reach the log. Errors go through safeError (a
 * database error keeps its SQLSTATE and statement, never its parameters), the
 * request through a serializer that keeps method, path and address only.
 */
export function logOptions(level: string): LoggerOptions {
  return {
    level,
    serializers: {
      err: safeError,
      error: (e: unknown) => (typeof e === 'string' ? scrubText(e) : safeError(e)),
      req: (req: { method?: string; url?: string; ip?: string; socket?: unknown }) => ({
        method: req.method,
        url: scrubText(req.url ?? ''),
        remoteAddress: req.ip,
      }),
    },
    redact: {
      paths: [
        'req.headers',
        'headers',
        'body',
        'req.body',
        'api_key',
        '*.api_key',
        'token',
        '*.token',
        'to',
        'from',
        'e164',
        'phone',
        'visitor_id',
        'visitorId',
        'params',
        'parameters',
      ],
      censor: '[redacted]',
    },
  };
}

/**
 * `pretty` renders lines for a terminal through pino-pretty (a development
 * dependency: production installs keep JSON lines, which collectors read).
 */
export function createLogger(level: string, format: 'json' | 'pretty' = 'json'): Logger {
  const options = logOptions(level);
  if (format === 'pretty') {
    return pino({
      ...options,
      transport: {
        target: 'pino-pretty',
        options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l' },
      },
    });
  }
  return pino(options);
}
