import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, exited, listening, ROOT, runToEnd } from '../helpers/processes.js';
import { migratedDataDir, storeKind } from '../helpers/store.js';

/**
 * `npm start` as a supervisor runs it: the built output, and a SIGTERM sent to
 * npm (not to node) must leave nothing listening. How fast a second start is
 * healthy (the 3 s on a quiet machine; ~1.5 s here) is a figure the
 * test prints and `npm run bench -- start` measures, not something it asserts:
 * CI shares two cores with the other suites and once took 9 s. It fails only
 * past START_HANG_MS (default 60 s), which is a hang or a compile, not a slow
 * machine.
 */
const HANG_MS = Number(process.env.START_HANG_MS ?? 60_000);
const GOAL_MS = 3000;

interface Started {
  npm: ChildProcess;
  ports: number[];
  healthyAfterMs: number;
  log: () => string;
}

async function npmStart(dataDir: string): Promise<Started> {
  const t0 = Date.now();
  const npm = spawn('npm', ['start'], {
    cwd: ROOT,
    env: childEnv({
      DATA_DIR: dataDir,
      PORT: '0',
      ADMIN_PORT: '0',
      CONSOLE_PORT: '0',
      HOST: '127.0.0.1',
      ADMIN_TOKEN: 'adm_npm_start_test',
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so cleanup after a failure reaches the server too.
    detached: true,
  });
  let log = '';
  const urls: string[] = [];
  await new Promise<void>((resolve, reject) => {
    npm.stdout!.on('data', (c: Buffer) => {
      log += c.toString();
      for (const m of c.toString().matchAll(/(?:public|admin) API listening at (http:\/\/[^" ]+)/g))
        urls.push(m[1]!);
      if (urls.length >= 2) resolve();
    });
    npm.stderr!.on('data', (c: Buffer) => (log += c.toString()));
    npm.once('exit', (code) => reject(new Error(`npm start exited (${code}):\n${log}`)));
  });
  for (;;) {
    const res = await fetch(`${urls[0]}/healthz`).catch(() => null);
    if (res?.status === 200) break;
  }
  return {
    npm,
    ports: urls.map((u) => Number(new URL(u).port)),
    healthyAfterMs: Date.now() - t0,
    log: () => log,
  };
}

describe.skipIf(storeKind !== 'pglite')('npm start', () => {
  const dir = migratedDataDir('tracking-npm-start');
  const running: ChildProcess[] = [];

  beforeAll(async () => {
    // Compiles only if the sources are newer than dist/ (what `npm install` did already).
    const built = await runToEnd(process.execPath, ['scripts/ensure-build.mjs'], {}, 300_000);
    expect(built.code, built.stderr).toBe(0);
  }, 320_000);
  afterAll(async () => {
    for (const c of running) {
      try {
        process.kill(-c.pid!, 'SIGKILL'); // npm and the server it started
      } catch {} // already gone
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('stops the server when npm gets SIGTERM: nothing left listening, DATA_DIR freed', async () => {
    const s = await npmStart(dir);
    running.push(s.npm);
    for (const port of s.ports) expect(await listening(port)).toBe(true);
    s.npm.kill('SIGTERM');
    await exited(s.npm);
    for (const port of s.ports) expect(await listening(port)).toBe(false);
    expect(s.log()).toContain('"msg":"stopped"');
    expect(existsSync(join(dir, '.tracking.lock'))).toBe(false);
  }, 120_000);

  it('is healthy on a second start without compiling, and SIGINT stops it too', async () => {
    const s = await npmStart(dir);
    running.push(s.npm);
    expect(s.log()).not.toContain('compiling');
    process.stdout.write(
      `second npm start healthy after ${s.healthyAfterMs} ms (goal ${GOAL_MS} ms on a quiet machine, load ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores)\n`,
    );
    expect(s.healthyAfterMs).toBeLessThan(HANG_MS);
    s.npm.kill('SIGINT');
    await exited(s.npm);
    for (const port of s.ports) expect(await listening(port)).toBe(false);
  }, 120_000);
});
