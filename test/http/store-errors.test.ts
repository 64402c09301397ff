import { describe, expect, it } from 'vitest';
import { classifyStoreError, fromStoreError, retryTransient } from '../../src/store/errors.js';
import { ADMIN_TOKEN, adminCall, freshNumbers, json, useHarness } from '../helpers/harness.js';
import { itConcurrently } from '../helpers/store.js';

const h = useHarness();

describe('store errors at the boundary', () => {
  itConcurrently(
    'turns a campaign-create race into one 201 and 409 campaign_code_taken for the rest',
    async () => {
      const org = await adminCall(h, 'POST', '/admin/orgs', { name: 'Race' });
      const numbers = freshNumbers(8);
      const answers = await Promise.all(
        numbers.map((n) =>
          h.admin.inject({
            method: 'POST',
            url: `/admin/orgs/${org.org_id}/campaigns`,
            headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
            payload: { code: 'rce', name: 'Race', numbers: [n] },
          }),
        ),
      );
      const statuses = answers.map((a) => a.statusCode).sort();
      expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
      for (const a of answers.filter((x) => x.statusCode === 409)) {
        expect(json(a)).toEqual({ detail: 'conflict', reason: 'campaign_code_taken' });
      }
    },
  );

  it('answers a unique violation the database raises as 409, not 500', async () => {
    const org = await adminCall(h, 'POST', '/admin/orgs', { name: 'Dup' });
    // Bypass the service's own check: the second insert meets the unique index.
    await adminCall(h, 'POST', `/admin/orgs/${org.org_id}/campaigns`, {
      code: 'dup',
      name: 'One',
      numbers: freshNumbers(1),
    });
    const err = await h.store
      .query(
        'insert into campaigns (id, org_id, code, name) select $1, org_id, code, name from campaigns where org_id = $2',
        ['cmp_dup_probe', org.org_id],
      )
      .catch((e: unknown) => e);
    expect(fromStoreError(err)?.status).toBe(409);
    expect(fromStoreError(err)?.extra).toEqual({ reason: 'campaign_code_taken' });
  });
});

describe('classifyStoreError', () => {
  const pgError = (code: string) => Object.assign(new Error('x'), { code });
  it.each([
    ['40P01', 'retryable'],
    ['40001', 'retryable'],
    ['23505', 'conflict'],
    ['57P01', 'unavailable'],
    ['53300', 'unavailable'],
    ['53100', 'unavailable'],
    ['25006', 'unavailable'],
    ['08006', 'unavailable'],
    ['ECONNREFUSED', 'unavailable'],
    ['ENOSPC', 'unavailable'],
    ['42P01', null],
    ['22P02', null],
  ])('%s is %s', (code, kind) => {
    expect(classifyStoreError(pgError(code))).toBe(kind);
  });

  it('finds the driver error under wrappers (Drizzle’s cause, AggregateError)', () => {
    const wrapped = new Error('Failed query', {
      cause: new AggregateError([pgError('ECONNREFUSED')]),
    });
    expect(classifyStoreError(wrapped)).toBe('unavailable');
    expect(fromStoreError(wrapped)?.headers).toEqual({ 'retry-after': '2' });
  });

  it('recognises node-postgres connection errors that carry no code', () => {
    expect(classifyStoreError(new Error('Connection terminated unexpectedly'))).toBe('unavailable');
    expect(classifyStoreError(new Error('something else'))).toBeNull();
  });
});

describe('retryTransient', () => {
  const noSleep = async () => {};
  it('runs again after a deadlock, up to the bound, and gives up with the last error', async () => {
    let calls = 0;
    const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });
    await expect(
      retryTransient(
        async () => {
          calls++;
          throw deadlock;
        },
        { attempts: 3, sleep: noSleep },
      ),
    ).rejects.toBe(deadlock);
    expect(calls).toBe(3);
  });

  it('does not repeat anything else', async () => {
    let calls = 0;
    await expect(
      retryTransient(
        async () => {
          calls++;
          throw Object.assign(new Error('unique'), { code: '23505' });
        },
        { sleep: noSleep },
      ),
    ).rejects.toThrow('unique');
    expect(calls).toBe(1);
  });

  it('returns the first success', async () => {
    let calls = 0;
    const v = await retryTransient(
      async () => {
        calls++;
        if (calls < 2) throw Object.assign(new Error('x'), { code: '40001' });
        return 'done';
      },
      { sleep: noSleep },
    );
    expect([v, calls]).toEqual(['done', 2]);
  });
});
