/**
 * Issue 18: the container image's runtime stage can run `npm start` and the CLI. No container
 * engine runs here, so the test lays out a plain directory exactly as that stage does (what its
 * COPY lines name, read from deploy/Containerfile; node_modules linked from this checkout), with
 * no src/, and runs the image's commands in it. It found the console's files missing from dist/
 * (only src/ had them): `npm start` failed there at the console.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, freePort, imageCopies, ROOT, runToEnd } from '../helpers/processes.js';
import { storeKind } from '../helpers/store.js';

describe.skipIf(storeKind !== 'pglite')('a directory laid out as the container image', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tracking-image-'));
  const app = join(dir, 'app');
  let server: ChildProcess | undefined;

  beforeAll(async () => {
    // The image's build stage: compiled output (what `npm run build:service` makes).
    const built = await runToEnd(process.execPath, ['scripts/ensure-build.mjs'], {}, 300_000);
    expect(built.code, built.stderr).toBe(0);
    execFileSync('mkdir', ['-p', app]);
    const copies = imageCopies();
    expect(copies.map(([, dest]) => dest)).toEqual(
      expect.arrayContaining(['node_modules', 'dist', 'package.json', 'scripts', 'bin']),
    );
    for (const [src, dest] of copies) {
      // The build stage's node_modules (pruned to production) stands in as this checkout's.
      if (dest === 'node_modules') symlinkSync(join(ROOT, 'node_modules'), join(app, dest));
      else cpSync(join(ROOT, src), join(app, dest), { recursive: true });
    }
    execFileSync('mkdir', ['-p', join(dir, 'data')]);
  }, 320_000);
  afterAll(() => {
    if (server?.pid) {
      try {
        process.kill(-server.pid, 'SIGKILL');
      } catch {} // already gone
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('has no sources, as the image has none', () => {
    expect(() => readFileSync(join(app, 'src/server.ts'))).toThrow();
  });

  it('runs `npm start`: the public API, the admin API and the console, with its files', async () => {
    const [port, adminPort, consolePort] = [await freePort(), await freePort(), await freePort()];
    server = spawn('npm', ['start'], {
      cwd: app,
      env: childEnv({
        DATA_DIR: join(dir, 'data'),
        PORT: String(port),
        ADMIN_PORT: String(adminPort),
        CONSOLE_PORT: String(consolePort),
        HOST: '127.0.0.1',
        ADMIN_TOKEN: 'adm_image_layout_test',
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let log = '';
    server.stdout!.on('data', (c: Buffer) => (log += c.toString()));
    server.stderr!.on('data', (c: Buffer) => (log += c.toString()));
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (log.includes('web console listening at')) resolve();
      };
      server!.stdout!.on('data', check);
      server!.once('exit', (code) => reject(new Error(`npm start exited (${code}):\n${log}`)));
    });
    expect(log).not.toMatch(/failed to start/);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    const login = await fetch(`http://127.0.0.1:${consolePort}/login`);
    expect(login.status).toBe(200);
    const page = await login.text();
    const css = /href="(\/assets\/console[^"]*\.css)"/.exec(page)?.[1];
    expect(css, 'the login page links the stylesheet').toBeDefined();
    const asset = await fetch(`http://127.0.0.1:${consolePort}${css}`);
    expect(asset.status).toBe(200);
    expect(await asset.text()).toMatch(/\{/);
    process.kill(-server.pid!, 'SIGTERM');
    await new Promise((resolve) => server!.once('exit', resolve));
  }, 180_000);

  it('runs the admin CLI (`npm run admin`)', async () => {
    const res = await runToEnd('npm', ['--prefix', app, 'run', 'admin', '--', '--help'], {});
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/Usage: tracking-admin/);
  }, 120_000);
});
