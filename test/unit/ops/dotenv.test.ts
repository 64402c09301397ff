import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDotEnv } from '../../../src/config.js';

const dir = mkdtempSync(join(tmpdir(), 'dotenv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadDotEnv', () => {
  it('fills what the environment leaves unset; a variable already set wins', () => {
    const file = join(dir, '.env');
    writeFileSync(file, '# comment\nPORT=4000\nADMIN_TOKEN="adm quoted"\nEMPTY=\n');
    const env: Record<string, string | undefined> = { PORT: '3000' };
    expect(loadDotEnv(env, file)).toBe('loaded');
    expect(env).toEqual({ PORT: '3000', ADMIN_TOKEN: 'adm quoted', EMPTY: '' });
  });

  it('is no error without a file', () => {
    const env = {};
    expect(loadDotEnv(env, join(dir, 'absent.env'))).toBe('absent');
    expect(env).toEqual({});
  });
});
