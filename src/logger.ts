import pino, { type Logger, type LoggerOptions } from 'pino';

/** Credentials never reach the log: headers, and any field that carries a key or token. */
export function logOptions(level: string): LoggerOptions {
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-twilio-signature"]',
        'headers.authorization',
        'api_key',
        '*.api_key',
        'token',
        '*.token',
      ],
      censor: '[redacted]',
    },
  };
}

export function createLogger(level: string): Logger {
  return pino(logOptions(level));
}
