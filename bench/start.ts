/**
 * npm run bench -- start: how long `npm start`'s server takes to answer
 * /healthz on an existing DATA_DIR (a restart: migrations already applied, no
 * compile), against a bare Node HTTP server started the same way in the same
 * run. The issue's goal is 3 s on a quiet machine. BENCH_START_RUNS (default
 * 10) restarts of each, alternated.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const runs = Number(process.env.BENCH_START_RUNS ?? 10);

const BARE = `require('node:http').createServer((q, s) => s.end('ok')).listen(0, '127.0.0.1', function () {
  console.log('public API listening at http://127.0.0.1:' + this.address().port);
});`;

/** Milliseconds from spawn to the first 200 of /healthz (the bare server answers any path). */
async function startOnce(args: string[], env: Record<string, string>): Promise<number> {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (c: Buffer) => {
        log += c.toString();
        const m = /public API listening at (http:\/\/[^" ]+)/.exec(log);
        if (m) resolve(m[1]!);
      });
      child.stderr!.on('data', (c: Buffer) => (log += c.toString()));
      child.once('exit', (code) => reject(new Error(`exited (${code}):\n${log.slice(-2000)}`)));
    });
    for (;;) {
      const res = await fetch(`${url}/healthz`).catch(() => null);
      if (res?.status === 200) return performance.now() - t0;
    }
  } finally {
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGINT');
    await gone;
  }
}

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

export async function benchStart(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-start-'));
  const env = {
    DATA_DIR: dir,
    PORT: '0',
    ADMIN_PORT: '0',
    CONSOLE_PORT: '0',
    HOST: '127.0.0.1',
    ADMIN_TOKEN: 'adm_bench_start',
    LOG_LEVEL: 'info',
  };
  // What `npm start` runs first: compiles only if a source is newer than dist/.
  execFileSync(process.execPath, [join(root, 'scripts/ensure-build.mjs')], { stdio: 'inherit' });
  try {
    const server = [join(root, 'dist/src/server.js')];
    const first = await startOnce(server, env); // creates and migrates DATA_DIR
    const service: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < runs; i++) {
      service.push(await startOnce(server, env));
      bare.push(await startOnce(['-e', BARE], {}));
    }
    const s = p50(service);
    const b = p50(bare);
    console.log(
      `bench start: load ${loadavg()[0]!.toFixed(2)}, ${runs} restarts of each, alternated`,
    );
    console.log(`  first start (creates and migrates DATA_DIR): ${first.toFixed(0)} ms`);
    console.log(
      `  restart to /healthz 200: p50 ${s.toFixed(0)} ms, max ${Math.max(...service).toFixed(0)} ms (goal 3000 ms)`,
    );
    console.log(`  bare node http server:   p50 ${b.toFixed(0)} ms (ratio ${(s / b).toFixed(1)}×)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
