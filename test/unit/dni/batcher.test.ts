import { describe, expect, it } from 'vitest';
import { SessionBatcher } from '../../../src/domain/dni/batcher.js';
import type {
  SessionOpenRequest,
  SessionOpenResult,
  SessionStore,
} from '../../../src/domain/dni/ports.js';

/** A store whose batches the test finishes by hand: it records what it was sent. */
class HeldStore implements SessionStore {
  sent: SessionOpenRequest[][] = [];
  private finishers: Array<(fail?: unknown) => void> = [];
  failWith: ((batch: readonly SessionOpenRequest[]) => unknown) | null = null;
  transient = new Set<unknown>();

  openSessions(requests: readonly SessionOpenRequest[]): Promise<SessionOpenResult[]> {
    this.sent.push([...requests]);
    return new Promise((resolve, reject) => {
      this.finishers.push((fail) => {
        const err = fail ?? this.failWith?.(requests);
        if (err) reject(err);
        else resolve(requests.map((r) => opened(r)));
      });
    });
  }
  retryAlone(err: unknown): boolean {
    return !this.transient.has(err);
  }
  /** Finishes the oldest batch still running. */
  finish(fail?: unknown): void {
    this.finishers.shift()?.(fail);
  }
}

function opened(r: SessionOpenRequest): SessionOpenResult {
  if (r.campaignCode === 'missing') return { outcome: 'campaign_not_found' };
  return {
    sessionId: r.newSessionId,
    trackingNumber: '+14155550100',
    expiresAt: r.now,
    outcome: 'allocated',
    campaignId: 'cmp_1',
  };
}

const req = (i: number, campaignCode = 'c'): SessionOpenRequest => ({
  orgId: 'org_1',
  campaignCode,
  visitorId: `v${i}`,
  now: new Date(0),
  newSessionId: `ds_${i}`,
  attrs: {},
});

/** Lets setImmediate callbacks and settled promises run. */
const turn = () => new Promise((r) => setImmediate(r));

describe('SessionBatcher', () => {
  it('sends a lone request at once, alone', async () => {
    const store = new HeldStore();
    const b = new SessionBatcher(store, { inFlight: 2, maxSize: 64 });
    const p = b.open(req(1));
    await turn();
    expect(store.sent.map((s) => s.length)).toEqual([1]);
    store.finish();
    expect(await p).toMatchObject({ sessionId: 'ds_1' });
  });

  it('sends what arrived while the batches were in flight together, when one finishes', async () => {
    const store = new HeldStore();
    const sizes: number[] = [];
    const b = new SessionBatcher(store, {
      inFlight: 1,
      maxSize: 64,
      onBatch: (n) => sizes.push(n),
    });
    const first = b.open(req(0));
    await turn();
    const rest = Array.from({ length: 10 }, (_, i) => b.open(req(i + 1)));
    await turn();
    expect(store.sent.map((s) => s.length)).toEqual([1]);
    store.finish();
    await first;
    await turn();
    expect(store.sent.map((s) => s.length)).toEqual([1, 10]);
    store.finish();
    const results = await Promise.all(rest);
    // Each request gets its own answer, in order.
    expect(results.map((r) => ('sessionId' in r ? r.sessionId : null))).toEqual(
      Array.from({ length: 10 }, (_, i) => `ds_${i + 1}`),
    );
    // Two batches, eleven requests: what the dni_batch_size histogram is told.
    expect(sizes).toEqual([1, 10]);
  });

  it('never sends more than maxSize in one batch, nor more than inFlight batches at once', async () => {
    const store = new HeldStore();
    const b = new SessionBatcher(store, { inFlight: 2, maxSize: 4 });
    const all = Array.from({ length: 10 }, (_, i) => b.open(req(i)));
    await turn();
    expect(store.sent.map((s) => s.length)).toEqual([4, 4]);
    store.finish();
    await turn();
    expect(store.sent.map((s) => s.length)).toEqual([4, 4, 2]);
    store.finish();
    store.finish();
    expect(await Promise.all(all)).toHaveLength(10);
  });

  it('shares what waits evenly among the free connections rather than sending it all in one', async () => {
    const store = new HeldStore();
    const b = new SessionBatcher(store, { inFlight: 2, maxSize: 64 });
    const first = Array.from({ length: 9 }, (_, i) => b.open(req(i)));
    await turn();
    // Both connections free: 5 and 4, not 9 and nothing.
    expect(store.sent.map((s) => s.length)).toEqual([5, 4]);
    const more = Array.from({ length: 6 }, (_, i) => b.open(req(10 + i)));
    store.finish();
    await turn();
    // One connection free: all six go on it.
    expect(store.sent.map((s) => s.length)).toEqual([5, 4, 6]);
    store.finish();
    store.finish();
    expect(await Promise.all([...first, ...more])).toHaveLength(15);
  });

  it("gives each request its own outcome: one request's failure is not its batch's", async () => {
    const store = new HeldStore();
    const b = new SessionBatcher(store, { inFlight: 1, maxSize: 64 });
    const blocker = b.open(req(0));
    await turn();
    const mixed = [b.open(req(1)), b.open(req(2, 'missing')), b.open(req(3))];
    store.finish();
    await blocker;
    await turn();
    store.finish();
    const [a, missing, c] = await Promise.all(mixed);
    expect(a).toMatchObject({ sessionId: 'ds_1' });
    expect(missing).toEqual({ outcome: 'campaign_not_found' });
    expect(c).toMatchObject({ sessionId: 'ds_3' });
  });

  it('retries a batch that failed for one request one by one, so only that request fails', async () => {
    const store = new HeldStore();
    const bad = new Error('value too long');
    // Any batch holding visitor v2 fails.
    store.failWith = (batch) => (batch.some((r) => r.visitorId === 'v2') ? bad : null);
    const b = new SessionBatcher(store, { inFlight: 1, maxSize: 64 });
    const blocker = b.open(req(0));
    await turn();
    const three = [1, 2, 3].map((i) =>
      b.open(req(i)).then(
        (r) => r,
        (e: unknown) => e,
      ),
    );
    store.finish();
    await blocker;
    await turn();
    store.finish(); // the batch of three fails; each is sent again alone
    await turn();
    // One at a time, in the batch's place: never a connection each at once.
    const sent = () => store.sent.map((s) => s.map((r) => r.visitorId));
    expect(sent()).toEqual([['v0'], ['v1', 'v2', 'v3'], ['v1']]);
    store.finish();
    await turn();
    expect(sent()).toEqual([['v0'], ['v1', 'v2', 'v3'], ['v1'], ['v2']]);
    store.finish();
    await turn();
    expect(sent()).toEqual([['v0'], ['v1', 'v2', 'v3'], ['v1'], ['v2'], ['v3']]);
    store.finish();
    const [one, two, three_] = await Promise.all(three);
    expect(one).toMatchObject({ sessionId: 'ds_1' });
    expect(two).toBe(bad);
    expect(three_).toMatchObject({ sessionId: 'ds_3' });
  });

  it('fails every request of a batch with a store failure (connection lost), without retrying', async () => {
    const store = new HeldStore();
    const lost = new Error('connection terminated');
    store.transient.add(lost);
    const b = new SessionBatcher(store, { inFlight: 1, maxSize: 64 });
    const blocker = b.open(req(0));
    await turn();
    const two = [1, 2].map((i) =>
      b.open(req(i)).then(
        (r) => r,
        (e: unknown) => e,
      ),
    );
    store.finish();
    await blocker;
    await turn();
    store.finish(lost);
    expect(await Promise.all(two)).toEqual([lost, lost]);
    expect(store.sent).toHaveLength(2);
    // The batcher goes on: the next request is sent.
    const next = b.open(req(9));
    await turn();
    store.finish();
    expect(await next).toMatchObject({ sessionId: 'ds_9' });
  });
});
