import { describe, expect, it } from 'vitest';
import { ClientThrottle, DEFAULT_CLIENT_LIMIT } from '../../packages/site/src/throttle.js';

describe('the kit route’s per-client budget', () => {
  it('gives each address its own calls per window, then none until the next window', () => {
    let now = 1_800_000_000_000;
    const t = new ClientThrottle({ requests: 3, windowSeconds: 60, share: 1 }, () => now);
    const take = (a: string, n: number) => Array.from({ length: n }, () => t.take(a));
    expect(take('192.0.2.1', 4)).toEqual([true, true, true, false]);
    expect(take('192.0.2.2', 1)).toEqual([true]);
    now += 60_000;
    expect(take('192.0.2.1', 1)).toEqual([true]);
  });

  it('never more than its share of the organization’s limit, scaled to the window', () => {
    const t = new ClientThrottle(DEFAULT_CLIENT_LIMIT, () => 0);
    expect(t.allowance()).toBe(20);
    t.observe('"default";q=100;w=60');
    expect(t.allowance()).toBe(10);
    // 30 a second is 1,800 a minute: the setting (20) is the smaller.
    t.observe('"default";q=30;w=1');
    expect(t.allowance()).toBe(20);
    // A tiny organization still lets each address have one.
    t.observe('"default";q=3;w=60');
    expect(t.allowance()).toBe(1);
    // A header it cannot read changes nothing.
    t.observe('nonsense');
    t.observe('"default";q=0;w=60');
    expect(t.allowance()).toBe(1);
  });
});
