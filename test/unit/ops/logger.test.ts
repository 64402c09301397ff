import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { logOptions } from '../../../src/logger.js';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { log: pino(logOptions('info'), stream), lines };
}

describe('logger', () => {
  it('never writes an Authorization header, an API key or a token', () => {
    const { log, lines } = capture();
    const key = 'svc_live_0123456789abcdef0123456789abcdef01234567';
    log.info(
      { req: { headers: { authorization: `Bearer ${key}`, 'x-twilio-signature': 'sig' } } },
      'request',
    );
    log.info({ api_key: key, token: 'adm_secret', body: { api_key: key } }, 'issued');
    const text = lines.join('');
    expect(text).not.toContain(key);
    expect(text).not.toContain('adm_secret');
    expect(text).not.toContain('"sig"');
    expect(text).toContain('[redacted]');
  });
});
