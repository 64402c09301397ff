import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToEnd, tsxArgs } from '../helpers/processes.js';
import { type ServerProcess, startServer } from '../helpers/server-process.js';
import { storeKind } from '../helpers/store.js';

const ADMIN_TOKEN = 'adm_lock_test_token';
const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };

// The lock guards the embedded store's directory; PostgreSQL has its own concurrency control.
describe.skipIf(storeKind !== 'pglite')('one owner per DATA_DIR', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tracking-lock-'));
  const env = { DATA_DIR: dir, ADMIN_TOKEN };
  let first: ServerProcess;
  let orgId: string;

  beforeAll(async () => {
    first = await startServer(env);
    const res = await fetch(`${first.adminUrl}/admin/orgs`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ name: 'Kept', tracking_enabled: true }),
    });
    orgId = ((await res.json()) as { org_id: string }).org_id;
  });
  afterAll(async () => {
    await first?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  for (const [name, entry] of [
    ['a second server', 'src/server.ts'],
    ['a dispatch worker', 'src/worker.ts'],
    ['a migration', 'src/store/migrate-cli.ts'],
  ] as const) {
    it(`refuses ${name} with the holder's PID, touching nothing`, async () => {
      const before = readdirSync(dir).sort();
      const r = await runToEnd(process.execPath, tsxArgs(entry), {
        ...env,
        PORT: '0',
        ADMIN_PORT: '0',
        CONSOLE_PORT: '0',
      });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain(`DATA_DIR ${dir} is in use by PID ${first.child.pid}`);
      // One line, no stack trace at the default log level.
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stdout).not.toContain('API listening');
      expect(readdirSync(dir).sort()).toEqual(before);
    });
  }

  it("leaves the holder's data intact and serving", async () => {
    const res = await fetch(`${first.adminUrl}/admin/orgs/${orgId}`, { headers: admin });
    expect(res.status).toBe(200);
  });

  it('does not block the next start after the holder is SIGKILLed', async () => {
    await first.kill('SIGKILL');
    first = await startServer(env);
    const res = await fetch(`${first.adminUrl}/admin/orgs/${orgId}`, { headers: admin });
    expect(res.status).toBe(200);
  });

  it('frees the directory on a graceful stop', async () => {
    await first.kill('SIGTERM');
    expect(first.child.exitCode).toBe(0);
    expect(readdirSync(dir)).not.toContain('.tracking.lock');
  });
});
