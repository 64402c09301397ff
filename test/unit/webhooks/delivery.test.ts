import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signedHeaders } from '../../../src/adapters/webhook-signing.js';
import { newSecret } from '../../../src/domain/webhooks/signing.js';
import { forbiddenRange, urlProblem } from '../../../src/domain/webhooks/targets.js';
import { attemptOf, retryDelayMs } from '../../../src/workers/webhooks.js';

const o = { maxAttempts: 16, backoffBaseMs: 10_000, backoffMaxMs: 6 * 3_600_000 };
const answer = (status: number | null) => ({
  status,
  head: null,
  error: status === null ? 'ECONNREFUSED' : null,
  latencyMs: 5,
});

describe('retry schedule', () => {
  it('grows at every attempt, even with the most unlucky jitter, and spans over a day', () => {
    let total = 0;
    let previous = 0;
    for (let attempt = 1; attempt < o.maxAttempts; attempt++) {
      const low = retryDelayMs(attempt, o, () => 0);
      const high = retryDelayMs(attempt, o, () => 0.999);
      if (low < o.backoffMaxMs) expect(low).toBeGreaterThan(previous);
      previous = high;
      total += low;
    }
    expect(total).toBeGreaterThan(24 * 3_600_000);
    expect(retryDelayMs(1, o, () => 0)).toBe(10_000);
    expect(retryDelayMs(3, o, () => 0.5)).toBe(44_000);
  });
});

describe('what an answer means', () => {
  it('2xx delivers; 410 is gone; others and no answer retry until the last attempt', () => {
    expect(attemptOf(answer(204), 1, 0, o).next).toEqual({ state: 'delivered' });
    expect(attemptOf(answer(410), 1, 0, o)).toMatchObject({
      outcome: 'gone',
      next: { state: 'failed' },
    });
    expect(attemptOf(answer(500), 1, 1000, o, () => 0).next).toEqual({
      state: 'pending',
      retryAtMs: 11_000,
    });
    expect(attemptOf(answer(301), 2, 0, o).outcome).toBe('failed');
    expect(attemptOf(answer(null), 3, 0, o).error).toBe('ECONNREFUSED');
    expect(attemptOf(answer(503), 16, 0, o)).toMatchObject({
      next: { state: 'failed' },
      error: 'HTTP 503 (gave up after 16 attempts)',
    });
  });
});

describe('signing', () => {
  it('signs with the standardwebhooks library; during a rotation either secret verifies', () => {
    const [oldSecret, newSecret_] = [newSecret(), newSecret()];
    const body = '{"type":"call.received"}';
    const at = new Date();
    const headers = signedHeaders([newSecret_, oldSecret], 'msg_1', at, body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const s of [oldSecret, newSecret_]) {
      expect(new Webhook(s).verify(body, { ...headers })).toEqual({ type: 'call.received' });
    }
    expect(() => new Webhook(newSecret()).verify(body, { ...headers })).toThrow();
    expect(() => new Webhook(oldSecret).verify(`${body} `, { ...headers })).toThrow();
  });
});

describe('safe targets', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['169.254.169.254', 'linkLocal'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['100.100.100.200', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::1', 'linkLocal'],
    ['fd00:ec2::254', 'uniqueLocal'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['224.0.0.1', 'multicast'],
  ])('%s is refused (%s)', (ip, range) => {
    expect(forbiddenRange(ip)).toBe(range);
  });

  it.each(['93.184.215.14', '2606:4700::1111', '8.8.8.8'])('%s is public', (ip) => {
    expect(forbiddenRange(ip)).toBeNull();
  });

  it('needs https unless private targets are allowed', () => {
    expect(urlProblem('http://example.com/', false)).toBe('must start with https://');
    expect(urlProblem('http://example.com/', true)).toBeNull();
    expect(urlProblem('https://example.com/hook', false)).toBeNull();
    expect(urlProblem('ftp://example.com/', true)).toBe('must start with https:// or http://');
    expect(urlProblem('nonsense', false)).toBe('not a URL');
  });
});
