import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { FailOpenRateLimiter } from '../../../src/domain/rate-limit/fail-open.js';
import {
  MemoryRateLimiter,
  type RateDecision,
  type RateLimiter,
} from '../../../src/domain/rate-limit/limiter.js';

const T0 = Date.parse('2026-03-02T15:00:10Z');

/** A shared store that can be made to fail, or to hang until released. */
class FlakyStore implements RateLimiter {
  readonly inner = new MemoryRateLimiter();
  mode: 'up' | 'down' | 'hang' = 'up';
  calls = 0;
  hit(key: string, limit: number, nowMs: number, windowMs?: number): Promise<RateDecision> {
    this.calls++;
    if (this.mode === 'down') return Promise.reject(new Error('connection refused'));
    if (this.mode === 'hang') return new Promise(() => {});
    return this.inner.hit(key, limit, nowMs, windowMs);
  }
  async close() {}
}

function setUp() {
  const shared = new FlakyStore();
  const events: string[] = [];
  const limiter = new FailOpenRateLimiter(shared, {
    budgetMs: 20,
    probeAfterMs: 1000,
    onOutage: () => events.push('outage'),
    onRecovery: (ms) => events.push(`recovered after ${ms} ms`),
  });
  return { shared, limiter, events };
}

describe('FailOpenRateLimiter', () => {
  it('counts in the shared store while it answers', async () => {
    const { shared, limiter } = setUp();
    await limiter.hit('org', 2, T0);
    await limiter.hit('org', 2, T0);
    expect((await shared.inner.hit('org', 2, T0)).count).toBe(3);
    expect(limiter.health()).toBe('ok');
    expect(limiter.fallbackHits).toBe(0);
  });

  it('counts in process when the store fails, and still enforces the limit there', async () => {
    const { shared, limiter } = setUp();
    shared.mode = 'down';
    const d = [];
    for (let i = 0; i < 4; i++) d.push(await limiter.hit('org', 3, T0));
    expect(d.map((x) => x.allowed)).toEqual([true, true, true, false]);
    expect(limiter.health()).toBe('degraded');
    expect(limiter.fallbackHits).toBe(4);
    // Only the first asked the store; the rest waited for the next probe.
    expect(limiter.storeFailures).toBe(1);
  });

  it('gives a hanging store only the budget', async () => {
    const { shared, limiter } = setUp();
    shared.mode = 'hang';
    const started = performance.now();
    const d = await limiter.hit('org', 3, T0);
    expect(d.allowed).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(limiter.health()).toBe('degraded');
  });

  it('does not count a store as down when its answer waits behind a busy event loop', async () => {
    // The shared store answers over a real loopback socket from another
    // thread, as Redis does from another process: it answers while this
    // thread's loop is blocked.
    const server = new Worker(
      `const net = require('node:net');
       const { parentPort } = require('node:worker_threads');
       const s = net.createServer((c) => c.on('data', () => c.write('ok')));
       s.listen(0, '127.0.0.1', () => parentPort.postMessage(s.address().port));`,
      { eval: true },
    );
    const [port] = (await once(server, 'message')) as [number];
    const socket: Socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    const inner = new MemoryRateLimiter();
    const overSocket: RateLimiter = {
      hit: (key, limit, nowMs, windowMs) =>
        new Promise((resolve) => {
          socket.once('data', () => resolve(inner.hit(key, limit, nowMs, windowMs)));
          socket.write('hit');
        }),
      close: async () => {},
    };
    const events: string[] = [];
    const limiter = new FailOpenRateLimiter(overSocket, {
      budgetMs: 20,
      probeAfterMs: 1000,
      onOutage: () => events.push('outage'),
    });
    try {
      const pending = limiter.hit('org', 3, T0);
      // Block the loop past the budget while the answer arrives on the socket.
      const until = performance.now() + 100;
      while (performance.now() < until) {}
      await pending;
      expect(events).toEqual([]);
      expect(limiter.health()).toBe('ok');
      expect(limiter.fallbackHits).toBe(0);
    } finally {
      socket.destroy();
      await server.terminate();
    }
  });

  it('asks the store again only after probeAfterMs, and reports one outage and one recovery', async () => {
    const { shared, limiter, events } = setUp();
    shared.mode = 'down';
    await limiter.hit('org', 10, T0);
    const callsAfterFailure = shared.calls;
    for (let i = 0; i < 5; i++) await limiter.hit('org', 10, T0 + 500);
    expect(shared.calls).toBe(callsAfterFailure);
    await limiter.hit('org', 10, T0 + 1000);
    expect(shared.calls).toBe(callsAfterFailure + 1);
    shared.mode = 'up';
    await limiter.hit('org', 10, T0 + 1500);
    expect(shared.calls).toBe(callsAfterFailure + 1);
    await limiter.hit('org', 10, T0 + 2000);
    expect(limiter.health()).toBe('ok');
    expect(events).toEqual(['outage', 'recovered after 2000 ms']);
  });
});
