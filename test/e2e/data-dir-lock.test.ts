import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtArgs, runToEnd } from '../helpers/processes.js';
import { type ServerProcess, startServer } from '../helpers/server-process.js';
import { migratedDataDir, storeKind } from '../helpers/store.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A server whose parent never reaps it, as under a container's PID 1 that
 * reaps slowly: `sh` starts it in the background, then becomes `sleep`. Once
 * SIGKILLed, the server stays a zombie (state Z) for as long as the sleep
 * runs, and signal 0 still reaches it.
 */
async function startUnreaped(env: Record<string, string>, started: ChildProcess[], pids: number[]) {
  const parent: ChildProcess = spawn(
    '/bin/sh',
    [
      '-c',
      '"$0" "$1" & echo "server-pid $!"; exec sleep 600',
      process.execPath,
      ...builtArgs('src/server.ts'),
    ],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        PORT: '0',
        ADMIN_PORT: '0',
        CONSOLE_PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  started.push(parent);
  let log = '';
  const up = await new Promise<{ pid: number; adminUrl: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start in time:\n${log}`)), 180_000);
    const seen = () => {
      const pid = /server-pid (\d+)/.exec(log)?.[1];
      if (pid && !pids.includes(Number(pid))) pids.push(Number(pid));
      const urls = [...log.matchAll(/(?:public|admin) API listening at (http:\/\/[^" ]+)/g)];
      if (pid && urls.length >= 2) {
        clearTimeout(timer);
        resolve({ pid: Number(pid), adminUrl: urls[1]![1]! });
      }
      if (/is in use by PID/.test(log)) {
        clearTimeout(timer);
        reject(new Error(`refused:\n${log}`));
      }
    };
    parent.stdout!.on('data', (c: Buffer) => {
      log += c.toString();
      seen();
    });
    parent.stderr!.on('data', (c: Buffer) => {
      log += c.toString();
      seen();
    });
  });
  return { ...up, parent };
}

const stateOf = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return 'gone';
  }
};

const ADMIN_TOKEN = 'adm_lock_test_token';
const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };

// The lock guards the embedded store's directory; PostgreSQL has its own concurrency control.
describe.skipIf(storeKind !== 'pglite')('one owner per DATA_DIR', () => {
  const dir = migratedDataDir('tracking-lock');
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
      const r = await runToEnd(process.execPath, builtArgs(entry), {
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

  it('a SIGKILLed holder left a zombie does not block a start at once, five times in a row', async () => {
    await first.kill('SIGTERM');
    const parents: ChildProcess[] = [];
    const servers: number[] = [];
    try {
      let holder = await startUnreaped(env, parents, servers);
      for (let round = 0; round < 5; round++) {
        process.kill(holder.pid, 'SIGKILL');
        // Killed, not reaped: the PID still answers signal 0.
        while (!['Z', 'X', 'gone'].includes(stateOf(holder.pid)))
          await new Promise((r) => setTimeout(r, 5));
        expect(stateOf(holder.pid)).toBe('Z');
        holder = await startUnreaped(env, parents, servers);
        const res = await fetch(`${holder.adminUrl}/admin/orgs/${orgId}`, { headers: admin });
        expect(res.status).toBe(200);
      }
      process.kill(holder.pid, 'SIGTERM');
      while (!['Z', 'gone'].includes(stateOf(holder.pid)))
        await new Promise((r) => setTimeout(r, 20));
    } finally {
      for (const pid of servers) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {}
      }
      for (const p of parents) p.kill('SIGKILL');
    }
    first = await startServer(env);
  }, 600_000);

  it('frees the directory on a graceful stop', async () => {
    await first.kill('SIGTERM');
    expect(first.child.exitCode).toBe(0);
    expect(readdirSync(dir)).not.toContain('.tracking.lock');
  });
});
