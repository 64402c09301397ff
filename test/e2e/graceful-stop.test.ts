/**
 * Issue 7, point 8, through the real process: SIGTERM lets keep-alive clients go without a reset.
 * The stop is the HTTP layer's, not the store's, so the embedded store serves both projects.
 */
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { head, RawClient } from '../helpers/raw-http.js';
import { type ServerProcess, startServer } from '../helpers/server-process.js';
import { migratedDataDir } from '../helpers/store.js';

const dir = migratedDataDir('graceful-stop');
let server: ServerProcess | undefined;
afterAll(async () => {
  await server?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}, 120_000);

async function until(cond: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

it('on SIGTERM answers new requests 503, closes idle keep-alive sockets with a FIN and exits 0', async () => {
  server = await startServer({ DATA_DIR: dir, WORKER: '0', SHUTDOWN_DRAIN_MS: '1500' });
  const port = Number(new URL(server.apiUrl).port);
  const idle = await RawClient.open(port);
  const busy = await RawClient.open(port);
  for (const c of [idle, busy]) {
    c.write(head('GET', '/healthz'));
    expect((await c.response()).status).toBe(200);
  }

  const exited = once(server.child, 'exit');
  server.child.kill('SIGTERM');
  await until(() => server!.output().includes('shutting down'), 5_000);
  busy.write(head('GET', '/healthz'));
  const refused = await busy.response();
  expect(refused.status).toBe(503);
  expect(JSON.parse(refused.body)).toEqual({ detail: 'service_unavailable' });
  expect(refused.headers['retry-after']).toBe('1');
  expect(refused.headers.connection).toBe('close');

  await Promise.all([busy.waitClosed(), idle.waitClosed()]);
  const [code] = await exited;
  expect(code).toBe(0);
  for (const c of [idle, busy]) {
    expect(c.ended, 'closed by a FIN').toBe(true);
    expect(c.error, 'no reset').toBeUndefined();
  }
}, 120_000);
