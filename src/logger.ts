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
        url: safeUrl(req.url ?? ''),
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

/** The path with numbers scrubbed; of the query string only the names (values may be anything). */
function safeUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return scrubText(url);
  const names = url
    .slice(q + 1)
    .split('&')
    .map((pair) => pair.split('=')[0])
    .join('&');
  return `${scrubText(url.slice(0, q))}?${scrubText(names)}`;
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
  return pino(options, bufferedStdout());
}

/**
 * Standard output written in blocks of up to 4 KiB instead of one system call
 * per line: the access log was a tenth of the server's CPU per DNI request
 * (bench/README.md). Lines still leave within 100 ms when the service is
 * quiet, and what is buffered is written when the process exits; a SIGKILL
 * loses at most the last 100 ms of lines.
 */
function bufferedStdout(): pino.DestinationStream {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => {
    try {
      destination.flush(); // nothing happens while a write is under way
    } catch {
      // destroyed: the process is ending
    }
  }, 100).unref();
  process.on('exit', () => {
    try {
      destination.flushSync();
    } catch {
      // stdout already closed: nothing left to write to.
    }
  });
  return destination;
}
