import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connectRedis, type RedisConnection } from '../../../src/adapters/redis.js';
import { RedisRateLimiter } from '../../../src/adapters/redis-limiter.js';
import { FailOpenRateLimiter } from '../../../src/domain/rate-limit/fail-open.js';

// Issue 18: the warning an operator reads says what is wrong with Redis in plain words, not
// ioredis's wording of its own state. The faults are real: a refused port, a stalled socket.
const open: { c: RedisConnection; server?: Server; sockets?: Socket[] }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) {
    o.c.redis.disconnect();
    for (const s of o.sockets ?? []) s.destroy();
    o.server?.close();
  }
});

async function firstWarning(c: RedisConnection, budgetMs: number): Promise<string> {
  let reason = '';
  const limiter = new FailOpenRateLimiter(new RedisRateLimiter(c.redis), {
    budgetMs,
    probeAfterMs: 60_000,
    onOutage: (err) => {
      reason = c.describeFailure(err);
    },
  });
  const decision = await limiter.hit('k', 10, Date.now());
  expect(decision.allowed).toBe(true);
  return reason;
}

describe('the Redis outage warning', () => {
  it('names a refused connection, not "Stream isn\'t writeable … enableOfflineQueue"', async () => {
    // Bound, then closed: nothing listens there now.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const c = connectRedis(`redis://:secret@127.0.0.1:${port}`, 50);
    open.push({ c });
    await once(c.redis, 'error');
    const reason = await firstWarning(c, 50);
    expect(reason).toBe(`Redis at 127.0.0.1:${port}: connection refused (ECONNREFUSED)`);
    expect(reason).not.toMatch(/enableOfflineQueue|Stream|secret/);
  });

  it('names the budget when Redis answers its ready check, then stalls', async () => {
    const sockets: Socket[] = [];
    const info = 'redis_version:7.0.0\r\nloading:0\r\n';
    // Answers every command until the client is ready (INFO with a ready server, anything else
    // +OK: the client may send more than INFO on connect, in one chunk or several), then
    // nothing at all: a hung Redis.
    let hung = false;
    const server = createServer((s) => {
      sockets.push(s);
      s.on('data', (d) => {
        if (hung) return;
        // Each RESP command is an array whose first bulk string is its name.
        for (const m of d.toString().matchAll(/\*\d+\r\n\$\d+\r\n([^\r]*)\r\n/g)) {
          s.write(/^info$/i.test(m[1]!) ? `$${info.length}\r\n${info}\r\n` : '+OK\r\n');
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const c = connectRedis(`redis://127.0.0.1:${port}`, 80);
    open.push({ c, server, sockets });
    if (c.redis.status !== 'ready') await once(c.redis, 'ready');
    hung = true;
    const reason = await firstWarning(c, 80);
    expect(reason).toBe(
      `Redis at 127.0.0.1:${port} did not answer within 80 ms (REDIS_TIMEOUT_MS)`,
    );
  });
});
