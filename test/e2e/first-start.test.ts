import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServer } from '../helpers/server-process.js';
import { storeKind } from '../helpers/store.js';

// Issue 18, "Operations and first contact": what a new user sees on the first `npm start`.
describe.skipIf(storeKind !== 'pglite')('the first start', { timeout: 240_000 }, () => {
  const cwd = mkdtempSync(join(tmpdir(), 'tracking-first-start-'));
  const dataDir = join(cwd, 'data');
  const running: ServerProcess[] = [];
  afterAll(async () => {
    for (const s of running) await s.kill('SIGKILL');
    rmSync(cwd, { recursive: true, force: true });
  });

  it('reads .env, says what it is doing, and names each listener with its address', async () => {
    // PORT here loses to the environment's PORT=0 (a variable already set wins).
    writeFileSync(join(cwd, '.env'), 'ADMIN_TOKEN=adm_from_dot_env\nPORT=1\n');
    const s = await startServer({ DATA_DIR: dataDir }, { cwd });
    running.push(s);
    const log = s.output();
    const at = (text: string) => {
      const i = log.indexOf(text);
      expect(i, `${text} in:\n${log}`).toBeGreaterThanOrEqual(0);
      return i;
    };
    const steps = [
      at(`first start: initialising a new database in DATA_DIR ${dataDir}`),
      at('applying database migrations'),
      at('database ready'),
      at(`public API listening at ${s.apiUrl} (docs ${s.apiUrl}/docs)`),
      at(`admin API listening at ${s.adminUrl} (docs ${s.adminUrl}/admin/docs`),
    ];
    expect([...steps].sort((a, b) => a - b)).toEqual(steps);

    // The admin token came from .env: nothing generated in DATA_DIR.
    const res = await fetch(`${s.adminUrl}/admin/orgs`, {
      headers: { authorization: 'Bearer adm_from_dot_env' },
    });
    expect(res.status).toBe(200);
    expect(existsSync(join(dataDir, 'admin-token'))).toBe(false);
    await s.kill('SIGTERM');

    const again = await startServer({ DATA_DIR: dataDir }, { cwd });
    running.push(again);
    expect(again.output()).toContain(`opening the database in DATA_DIR ${dataDir}`);
    expect(again.output()).not.toContain('first start');
    await again.kill('SIGTERM');
  });
});
