/**
 * Waiting for a connection (src/store/db.ts): a busy pool queues a request for up to
 * DATABASE_QUEUE_TIMEOUT_MS, while a database that does not answer fails it after
 * DATABASE_CONNECT_TIMEOUT_MS. PostgreSQL only: PGlite has no pool.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/db.js';
import { classifyStoreError } from '../../src/store/errors.js';
import { storeKind } from '../helpers/store.js';

const url = process.env.TEST_DATABASE_URL ?? '';
const onPglite = storeKind === 'pglite';
const name = (n: string) => (onPglite ? `${n} [skipped: PostgreSQL only; PGlite has no pool]` : n);

const opened: Store[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

/** Holds the pool's only connection in a transaction until the returned function is called. */
async function holdOnlyConnection(store: Store): Promise<() => Promise<void>> {
  let release!: () => void;
  const held = new Promise<void>((done) => {
    release = done;
  });
  let started!: () => void;
  const inside = new Promise<void>((done) => {
    started = done;
  });
  const tx = store.db.transaction(async (t) => {
    await t.execute('select 1' as never);
    started();
    await held;
  });
  await inside;
  return async () => {
    release();
    await tx;
  };
}

const elapsed = async (fn: () => Promise<unknown>) => {
  const t0 = performance.now();
  const result = await fn().then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  return { ...result, ms: performance.now() - t0 };
};

describe('waiting for a PostgreSQL connection', () => {
  it.skipIf(onPglite)(
    name('a request waits past the connect timeout for a busy pool, then runs'),
    async () => {
      const store = await openStore({
        databaseUrl: url,
        poolSize: 1,
        connectTimeoutMs: 100,
        queueTimeoutMs: 10_000,
      });
      opened.push(store);
      const release = await holdOnlyConnection(store);
      const waiting = elapsed(() => store.query('select 1 as one', []));
      // Longer than the connect timeout: the old pool would have failed the request by now.
      await new Promise((done) => setTimeout(done, 400));
      await release();
      const r = await waiting;
      expect(r.ok).toBe(true);
      expect(r.ms).toBeGreaterThanOrEqual(350);
    },
  );

  it.skipIf(onPglite)(
    name('past the queue timeout the request fails as unavailable (a 503)'),
    async () => {
      const store = await openStore({
        databaseUrl: url,
        poolSize: 1,
        connectTimeoutMs: 100,
        queueTimeoutMs: 300,
      });
      opened.push(store);
      const release = await holdOnlyConnection(store);
      const r = await elapsed(() => store.query('select 1 as one', []));
      await release();
      expect(r.ok).toBe(false);
      if (!r.ok) expect(classifyStoreError(r.error)).toBe('unavailable');
      expect(r.ms).toBeGreaterThanOrEqual(250);
    },
  );

  describe('a server that accepts and never answers', () => {
    let silent: Server;
    const sockets = new Set<Socket>();
    afterEach(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((done) => silent.close(() => done()));
    });

    it.skipIf(onPglite)(
      name('fails after the connect timeout, not the queue timeout'),
      async () => {
        silent = createServer((socket) => void sockets.add(socket));
        await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
        const port = (silent.address() as { port: number }).port;
        const store = await openStore({
          databaseUrl: `postgres://postgres@127.0.0.1:${port}/test`,
          poolSize: 1,
          connectTimeoutMs: 200,
          queueTimeoutMs: 20_000,
        });
        opened.push(store);
        const r = await elapsed(() => store.query('select 1 as one', []));
        expect(r.ok).toBe(false);
        if (!r.ok) expect(classifyStoreError(r.error)).toBe('unavailable');
        expect(r.ms).toBeLessThan(5_000);
      },
    );
  });
});
