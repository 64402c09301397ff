/**
 * Issue 18, point 6: SIGTERM under keep-alive load, through the real process, on the store the
 * project names. 64 connections send DNI requests without pause (a load balancer's pool: a
 * connection the server closes is dialled again) while the process is stopped, several times;
 * every request ends in an answer or, once the port is closed, a refused connection. The README
 * promises "a FIN, never a reset": resets are counted, and must be none.
 */

import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ADMIN_TOKEN, setUpTenant } from '../faults/setup.js';
import { type ServerProcess, startServer } from '../helpers/server-process.js';
import { migratedDatabase, migratedDataDir, storeKind } from '../helpers/store.js';

const CONNECTIONS = 64;
const ROUNDS = 3;

const dir =
  storeKind === 'pglite'
    ? migratedDataDir('graceful-stop-load')
    : mkdtempSync(join(tmpdir(), 'graceful-stop-load-'));
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
  rmSync(dir, { recursive: true, force: true });
}, 120_000);

interface Tally {
  answered: Record<number, number>;
  errors: Record<string, number>;
}

/**
 * Node calls both a reset and a close without an answer ECONNRESET; the message tells them
 * apart ("read ECONNRESET" is the peer's RST, "socket hang up" its FIN before an answer), and
 * whether the socket was a kept-alive one or new tells where it came from (a new one reset: it
 * was still in the listen queue when the port closed).
 */
function failure(err: NodeJS.ErrnoException, reused: boolean): string {
  if (err.code === 'ECONNREFUSED' || !err.code) return err.code ?? err.message;
  return `${err.code} (${err.message}, ${reused ? 'kept-alive' : 'new'} socket)`;
}

/** One pooled connection's loop: requests back to back until the port refuses. */
async function connectionLoop(port: number, send: () => Buffer, auth: string, t: Tally) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (;;) {
      const outcome = await new Promise<number | string>((resolve) => {
        const body = send();
        const req = request({
          agent,
          port,
          host: '127.0.0.1',
          method: 'POST',
          path: '/dni/session',
          headers: {
            authorization: auth,
            'content-type': 'application/json',
            'content-length': body.length,
          },
        });
        req.on('error', (err: NodeJS.ErrnoException) => resolve(failure(err, req.reusedSocket)));
        req.on('response', (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.on('error', (err: NodeJS.ErrnoException) => resolve(failure(err, req.reusedSocket)));
        });
        req.end(body);
      });
      if (typeof outcome === 'number') t.answered[outcome] = (t.answered[outcome] ?? 0) + 1;
      else {
        t.errors[outcome] = (t.errors[outcome] ?? 0) + 1;
        if (outcome === 'ECONNREFUSED') return;
      }
    }
  } finally {
    agent.destroy();
  }
}

// It once counted 9-24 resets a round on a loaded machine (load average 9-13): the embedded
// store keeps the event loop busy, the server had accepted only 41-54 of the 64 connections
// when SIGTERM came (`ss` showed the rest waiting in the listen queue), and closing the port
// made the kernel reset them. The stop now keeps the port open until that queue is empty
// (src/http/listen-queue.ts); the log line 'accept queue drained' says how many waited.
it(`${ROUNDS} stops under keep-alive load from ${CONNECTIONS} connections: no reset`, async () => {
  const env: Record<string, string> = { DATA_DIR: dir, WORKER: '0', ADMIN_TOKEN };
  if (storeKind === 'postgres') {
    const db = await migratedDatabase('tracking_graceful_load');
    cleanups.push(() => db.drop());
    env.DATABASE_URL = db.url;
  }
  let visitor = 0;
  let auth = '';
  let code = '';
  const totals: Tally = { answered: {}, errors: {} };
  for (let round = 0; round < ROUNDS; round++) {
    const server: ServerProcess = await startServer(env);
    cleanups.push(() => server.kill('SIGKILL'));
    if (round === 0) {
      const t = await setUpTenant(server.adminUrl, { numbers: 50 });
      code = t.code;
      auth = t.auth.authorization!;
    }
    const port = Number(new URL(server.apiUrl).port);
    const t: Tally = { answered: {}, errors: {} };
    const send = () =>
      Buffer.from(JSON.stringify({ campaign_code: code, visitor_id: `g${visitor++}` }));
    const loops = Array.from({ length: CONNECTIONS }, () => connectionLoop(port, send, auth, t));
    // Traffic first, then the stop in the middle of it.
    while ((t.answered[201] ?? 0) < 500) await new Promise((r) => setTimeout(r, 20));
    const exited = once(server.child, 'exit');
    server.child.kill('SIGTERM');
    const [exitCode] = await exited;
    await Promise.all(loops);
    // Per listener: sockets left when its drain ended, and connections accepted in all.
    const drain = server.output().match(/"open":\d+,"busy":\d+,"accepted":\d+/g) ?? [];
    const queued = server.output().match(/"queued":\d+,"ms":\d+/g) ?? [];
    console.log(
      `round ${round + 1} (${storeKind}): ${JSON.stringify(t)} ${drain.join(' ')} ${queued.join(' ')}`,
    );
    expect(exitCode).toBe(0);
    for (const [k, v] of Object.entries(t.answered))
      totals.answered[+k] = (totals.answered[+k] ?? 0) + v;
    for (const [k, v] of Object.entries(t.errors)) totals.errors[k] = (totals.errors[k] ?? 0) + v;
  }
  console.log(
    `graceful stop under load (${storeKind}), ${ROUNDS} rounds: ${JSON.stringify(totals)}`,
  );
  // Every request was answered (201, or 503 while stopping), or refused once the port closed.
  for (const status of Object.keys(totals.answered)) expect(['201', '503']).toContain(status);
  expect(totals.errors).toEqual({ ECONNREFUSED: CONNECTIONS * ROUNDS });
}, 600_000);
