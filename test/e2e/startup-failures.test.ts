import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { builtArgs, runToEnd } from '../helpers/processes.js';
import { storeKind } from '../helpers/store.js';

const tmp = mkdtempSync(join(tmpdir(), 'tracking-startup-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const start = (env: Record<string, string>) =>
  runToEnd(
    process.execPath,
    builtArgs('src/server.ts'),
    {
      PORT: '0',
      ADMIN_PORT: '0',
      CONSOLE_PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: join(tmp, `data-${Math.random().toString(36).slice(2)}`),
      ...env,
    },
    240_000,
  );

/** Exit code non-zero, one line on stderr saying what and where, no stack trace. */
function oneLine(r: Awaited<ReturnType<typeof start>>, pattern: RegExp) {
  expect(r.code, r.stderr).not.toBe(0);
  const lines = r.stderr.trim().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

/** Mount namespaces let a root test runner fake a read-only or full disk for one child. */
function canMount(): boolean {
  try {
    execFileSync('unshare', ['-m', 'sh', '-c', `mount -t tmpfs -o size=1m tmpfs ${tmp}`]);
    return true;
  } catch {
    return false;
  }
}
const mounts = canMount();

function inMount(options: string, prepare: string, env: Record<string, string>) {
  const dir = mkdtempSync(join(tmp, 'mnt-'));
  const assign = Object.entries({
    PORT: '0',
    ADMIN_PORT: '0',
    CONSOLE_PORT: '0',
    HOST: '127.0.0.1',
    ...env,
  })
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  const script = `mount -t tmpfs -o ${options} tmpfs ${dir} && ${prepare.replaceAll('$DIR', dir)} exec env ${assign.replaceAll('$DIR', dir)} ${process.execPath} ${builtArgs('src/server.ts').join(' ')}`;
  return runToEnd('unshare', ['-m', 'sh', '-c', script], {}, 240_000);
}

// Child processes on the embedded store; the PostgreSQL cases bring their own DATABASE_URL.
describe.skipIf(storeKind !== 'pglite')('start-up failures', { timeout: 240_000 }, () => {
  it('an invalid setting: names the setting, exit code 2', async () => {
    const r = await start({ PORT: 'eighty' });
    expect(r.code).toBe(2);
    oneLine(r, /^configuration error: PORT must be an integer from 0 to 65535, got "eighty"$/);
  });

  // Each listener's port by its own setting (issue 18: a busy CONSOLE_PORT was called PORT),
  // found before a new DATA_DIR was created and migrated.
  it.each(['PORT', 'ADMIN_PORT', 'CONSOLE_PORT'])(
    'a port in use (%s): names the setting and the address, before DATA_DIR',
    async (setting) => {
      const busy: Server = createServer();
      await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
      const port = (busy.address() as { port: number }).port;
      try {
        const dataDir = join(tmp, `data-busy-${port}`);
        const hosts = { ADMIN_HOST: '127.0.0.1', CONSOLE_HOST: '127.0.0.1' };
        const r = await start({ ...hosts, [setting]: String(port), DATA_DIR: dataDir });
        expect(existsSync(dataDir)).toBe(false);
        oneLine(
          r,
          new RegExp(
            `^failed to start: ${setting}=${port} on 127\\.0\\.0\\.1 is in use by another process \\(EADDRINUSE\\)$`,
          ),
        );
      } finally {
        busy.close();
      }
    },
  );

  it('a DATA_DIR that is a file: not writable, where', async () => {
    const file = join(tmp, 'a-file');
    writeFileSync(file, '');
    const r = await start({ DATA_DIR: join(file, 'data') });
    oneLine(r, new RegExp(`^failed to start: DATA_DIR ${file}/data is not writable: ENOTDIR`));
  });

  it.skipIf(!mounts)('a read-only DATA_DIR', async () => {
    const r = await inMount('size=8m', 'mkdir $DIR/data && mount -o remount,ro $DIR &&', {
      DATA_DIR: '$DIR/data',
    });
    oneLine(r, /^failed to start: DATA_DIR \S+\/data is not writable: EROFS/);
  });

  it.skipIf(!mounts)(
    'a full DATA_DIR',
    async () => {
      const r = await inMount('size=2m', '', { DATA_DIR: '$DIR/data' });
      oneLine(r, /^failed to start: DATA_DIR \S+\/data is full \(ENOSPC\)/);
    },
    250_000,
  );

  it('a DATABASE_URL that refuses connections', async () => {
    const refused = createServer();
    await new Promise<void>((resolve) => refused.listen(0, '127.0.0.1', resolve));
    const port = (refused.address() as { port: number }).port;
    await new Promise((resolve) => refused.close(resolve)); // now nothing listens there
    const r = await start({ DATABASE_URL: `postgres://app:secret@127.0.0.1:${port}/tracking` });
    oneLine(
      r,
      new RegExp(
        `^failed to start: DATABASE_URL postgres://app:\\*\\*\\*@127\\.0\\.0\\.1:${port}/tracking cannot be reached: ECONNREFUSED`,
      ),
    );
  });

  it('a DATABASE_URL that is not PostgreSQL', async () => {
    const http = createServer((socket) => {
      socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const port = (http.address() as { port: number }).port;
    try {
      const r = await start({ DATABASE_URL: `postgres://127.0.0.1:${port}/tracking` });
      oneLine(
        r,
        /^failed to start: DATABASE_URL postgres:\/\/127\.0\.0\.1:\d+\/tracking (did not answer as PostgreSQL|cannot be reached)/,
      );
    } finally {
      http.close();
    }
  });

  it('prints the stack at LOG_LEVEL=debug', async () => {
    const file = join(tmp, 'another-file');
    writeFileSync(file, '');
    const r = await start({ DATA_DIR: join(file, 'data'), LOG_LEVEL: 'debug' });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/\n\s+at /);
  });
});
