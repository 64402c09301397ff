import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { logOptions } from '../../../src/logger.js';
import { ROOT, runToEnd, tsxArgs } from '../../helpers/processes.js';

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

describe('LOG_FORMAT=pretty', () => {
  it('writes no colour codes when standard output is not a terminal', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pretty-'));
    const script = join(dir, 'log.mts');
    writeFileSync(
      script,
      `import { createLogger } from ${JSON.stringify(join(ROOT, 'src/logger.ts'))};\n` +
        "const log = createLogger('info', 'pretty');\n" +
        "log.info('plain words');\n" +
        'await new Promise((r) => setTimeout(r, 500));\n',
    );
    try {
      const r = await runToEnd(process.execPath, tsxArgs(script), {});
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('plain words');
      expect(r.stdout).not.toContain('\x1b[');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
