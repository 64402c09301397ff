import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServer } from '../helpers/server-process.js';
import { ADMIN_TOKEN, freshDatabase, send, setUpTenant, tempDir } from './setup.js';
import { TcpProxy } from './tcp-proxy.js';

const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function storeFor(prefix: string) {
  const db = await freshDatabase(prefix);
  cleanups.push(() => db.drop());
  const data = tempDir(`${prefix}-`);
  cleanups.push(() => data.remove());
  return { db, data };
}

async function readyz(server: ServerProcess) {
  const res = await fetch(`${server.apiUrl}/readyz`);
  return { status: res.status, body: (await res.json()) as any };
}

describe('PostgreSQL stopped', () => {
  it('answers 503 with Retry-After and /readyz 503 while down, and 201 again once it is back', async () => {
    const { db, data } = await storeFor('tracking_fault_pgdown');
    const proxy = await TcpProxy.start(db.url);
    cleanups.push(() => proxy.close());
    const server = await startServer({
      DATABASE_URL: proxy.url(db.url),
      DATA_DIR: data.dir,
      ADMIN_TOKEN,
      DATABASE_CONNECT_TIMEOUT_MS: '1000',
    });
    cleanups.push(() => server.kill('SIGKILL'));
    const t = await setUpTenant(server.adminUrl);
    const open = (visitor: string) =>
      send(`${server.apiUrl}/dni/session`, { campaign_code: t.code, visitor_id: visitor }, t.auth);

    expect((await open('before')).status).toBe(201);
    expect(await readyz(server)).toMatchObject({ status: 200, body: { status: 'ok' } });

    await proxy.cut();
    for (const visitor of ['down-1', 'down-2', 'down-3']) {
      const a = await open(visitor);
      expect(a).toMatchObject({ status: 503, body: { detail: 'service_unavailable' } });
      expect(Number(a.retryAfter)).toBeGreaterThan(0);
    }
    const down = await readyz(server);
    expect(down.status).toBe(503);
    expect(down.body.status).toBe('down');
    expect(down.body.checks.store.status).toBe('down');
    // Liveness is not readiness: the process itself is fine.
    expect((await fetch(`${server.apiUrl}/healthz`)).status).toBe(200);

    await proxy.restore();
    const back = await open('after');
    expect(back.status).toBe(201);
    expect(await readyz(server)).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(server.child.exitCode).toBeNull();
  }, 120_000);
});

const redisUrl = process.env.TEST_REDIS_URL;

// Stopped: the port refuses connections. Hung: connections stay open and nothing answers (a
// stuck server, a network partition), so only REDIS_TIMEOUT_MS and READINESS_TIMEOUT_MS bound it.
describe.skipIf(!redisUrl).each([
  { outage: 'stopped', cause: (p: TcpProxy) => p.cut() },
  { outage: 'hung', cause: (p: TcpProxy) => p.freeze() },
])('Redis $outage', ({ cause }) => {
  it('keeps DNI at 201 and fast, says degraded, logs once, and goes back to Redis by itself', async () => {
    const { db, data } = await storeFor('tracking_fault_redis');
    const proxy = await TcpProxy.start(redisUrl!);
    cleanups.push(() => proxy.close());
    const server = await startServer({
      DATABASE_URL: db.url,
      DATA_DIR: data.dir,
      ADMIN_TOKEN,
      REDIS_URL: proxy.url(redisUrl!),
      REDIS_TIMEOUT_MS: '100',
      REDIS_RETRY_MS: '200',
    });
    cleanups.push(() => server.kill('SIGKILL'));
    const redis = new Redis(redisUrl!);
    cleanups.push(() => redis.quit());
    const t = await setUpTenant(server.adminUrl);
    const counted = async () => {
      const keys = await redis.keys(`rl:dni:${t.orgId}:*`);
      let n = 0;
      for (const k of keys) n += Number(await redis.get(k));
      return n;
    };
    let seq = 0;
    const open = () =>
      send(
        `${server.apiUrl}/dni/session`,
        { campaign_code: t.code, visitor_id: `r-${seq++}` },
        t.auth,
      );

    expect((await open()).status).toBe(201);
    const before = await counted();
    expect(before).toBeGreaterThan(0);

    // The same load with Redis up and with Redis cut: the outage may add no
    // more than 100 ms to the p99 (a ratio to a baseline of the same run, not
    // an absolute figure on a shared machine).
    const load = async () => {
      const latencies: number[] = [];
      const clients = Array.from({ length: 8 }, async () => {
        for (let i = 0; i < 25; i++) {
          const started = performance.now();
          const a = await open();
          latencies.push(performance.now() - started);
          expect(a.status).toBe(201);
        }
      });
      await Promise.all(clients);
      latencies.sort((a, b) => a - b);
      return latencies[Math.ceil(latencies.length * 0.99) - 1]!;
    };
    const baselineP99 = await load();
    const beforeCut = await counted();
    const logBeforeCut = server.output().length;
    await cause(proxy);
    const outageP99 = await load();
    console.log(
      `DNI p99 over 200 requests from 8 clients: ${baselineP99.toFixed(0)} ms with Redis, ${outageP99.toFixed(0)} ms with Redis cut`,
    );
    expect(outageP99).toBeLessThan(baselineP99 + 100);
    expect(await counted()).toBe(beforeCut);
    const degraded = await readyz(server);
    expect(degraded.status).toBe(200);
    expect(degraded.body.status).toBe('degraded');
    expect(degraded.body.checks.redis.status).toBe('degraded');
    const warnings =
      (await server.waitForOutput(/Redis unreachable/, logBeforeCut)).match(/Redis unreachable/g) ??
      [];
    expect(warnings).toHaveLength(1);

    await proxy.restore();
    // Counting goes back to Redis within a few retry intervals, without a restart.
    let resumed = false;
    for (let i = 0; i < 50 && !resumed; i++) {
      expect((await open()).status).toBe(201);
      resumed = (await counted()) > beforeCut;
      if (!resumed) await new Promise((r) => setTimeout(r, 100));
    }
    expect(resumed).toBe(true);
    const outage = await server.waitForOutput(/Redis answers again/, logBeforeCut);
    // One warning for the whole outage, however many requests it saw.
    expect(
      outage.slice(0, outage.indexOf('Redis answers again')).match(/Redis unreachable/g),
    ).toHaveLength(1);
    expect((await readyz(server)).body.status).toBe('ok');
  }, 120_000);
});
