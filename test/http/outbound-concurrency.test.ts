import { beforeAll, describe, expect } from 'vitest';
import { type Harness, json, useHarness } from '../helpers/harness.js';
import {
  freshContact,
  grant,
  outboundTenant,
  touch,
  WEEKDAY_MORNING_ET,
} from '../helpers/outbound.js';
import { itConcurrently } from '../helpers/store.js';

const h: Harness = useHarness();
beforeAll(async () => {
  h.clock.set(WEEKDAY_MORNING_ET);
});

const body = (to: string, extra: Record<string, unknown> = {}) => ({
  to_e164: to,
  channel: 'call',
  consent_basis: 'pewc',
  ...extra,
});
const placed = async (orgId: string, to: string) =>
  Number(
    (
      await h.store.query<{ n: string }>(
        'select count(*) as n from outbound_touches where org_id = $1 and to_e164 = $2 and placed',
        [orgId, to],
      )
    )[0]?.n,
  );

describe('frequency under concurrency', () => {
  itConcurrently('places exactly 3 of 50 concurrent touches to one contact', async () => {
    const t = await outboundTenant(h);
    const results = await Promise.all(
      Array.from({ length: 50 }, () => touch(h, t.key, t.code, body(t.contact))),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 202)).toHaveLength(3);
    expect(statuses.filter((s) => s === 200)).toHaveLength(47);
    for (const r of results.filter((x) => x.statusCode === 200)) {
      expect(json(r).reasons.map((x: { code: string }) => x.code)).toEqual(['frequency_capped']);
    }
    expect(await placed(t.orgId, t.contact)).toBe(3);
    const jobs = await h.store.query(
      'select j.id from dispatch_jobs j join outbound_touches o on o.id = j.touch_id where o.org_id = $1',
      [t.orgId],
    );
    expect(jobs).toHaveLength(3);
  });

  itConcurrently('does not hold back touches to other contacts', async () => {
    const t = await outboundTenant(h);
    const contacts = Array.from({ length: 20 }, () => freshContact());
    for (const c of contacts) await grant(h, t.orgId, c);
    const results = await Promise.all(contacts.map((c) => touch(h, t.key, t.code, body(c))));
    expect(results.every((r) => r.statusCode === 202)).toBe(true);
  });

  itConcurrently('decides a key once however many duplicates race it', async () => {
    const t = await outboundTenant(h);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        touch(h, t.key, t.code, body(t.contact, { idempotency_key: 'race' })),
      ),
    );
    const fresh = results.filter((r) => r.statusCode === 202 && !r.headers['idempotent-replayed']);
    expect(fresh).toHaveLength(1);
    for (const r of results) {
      if (r.statusCode === 409) expect(r.body).toBe('{"detail":"idempotency_key_in_use"}');
      else expect(r.body).toBe(fresh[0]?.body);
    }
    expect(await placed(t.orgId, t.contact)).toBe(1);
  });
});
