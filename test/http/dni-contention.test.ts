import pg from 'pg';
import { describe, expect } from 'vitest';
import { createTenant, dni, json, useHarness } from '../helpers/harness.js';
import { itConcurrently, storeKind, untilWaitingOnLock } from '../helpers/store.js';

const h = useHarness();

async function deadlocks(): Promise<number> {
  const rows = await h.store.query<{ n: string }>(
    'select deadlocks::text as n from pg_stat_database where datname = current_database()',
    [],
  );
  return Number(rows[0]?.n ?? 0);
}

/**
 * Returning visitors (the sticky path: session, then number) racing new
 * visitors on an exhausted pool (the sharing path: number, then its
 * sessions). With the old lock order about 1 request in 100 deadlocked.
 */
describe('sticky visitors and an exhausted pool, concurrently', () => {
  itConcurrently(
    'answers every request 201 with no deadlock, and keeps the allocation invariants',
    async () => {
      const t = await createTenant(h, { numbers: 12, rateLimit: 100_000 });
      const open = (visitor: string) =>
        dni(h, t.key, { campaign_code: t.code, visitor_id: visitor });
      // Every number held, then some visitors sharing.
      for (let i = 0; i < 18; i++) expect((await open(`base-${i}`)).statusCode).toBe(201);
      const deadlocksBefore = storeKind === 'postgres' ? await deadlocks() : 0;

      const statuses: number[] = [];
      for (let round = 0; round < 12; round++) {
        const batch = Array.from({ length: 48 }, (_, i) =>
          i % 2 === 0 ? open(`base-${(i + round) % 18}`) : open(`new-${round}-${i}`),
        );
        for (const res of await Promise.all(batch)) statuses.push(res.statusCode);
      }
      expect(statuses.filter((s) => s !== 201)).toEqual([]);
      expect(await deadlocks()).toBe(deadlocksBefore);

      const live = await h.store.query<{ tracking_number: string; ambiguous: boolean; n: number }>(
        `select s.tracking_number, s.ambiguous,
                count(*) over (partition by s.tracking_number)::int as n
           from dni_sessions s join campaigns c on c.id = s.campaign_id
          where c.org_id = $1 and s.expires_at > $2`,
        [t.orgId, new Date(h.clock.now())],
      );
      // One live visitor per visitor id, and a number with several live
      // visitors only through sharing, every such session flagged.
      const byVisitor = await h.store.query<{ n: number }>(
        `select count(*)::int as n from dni_sessions s join campaigns c on c.id = s.campaign_id
          where c.org_id = $1 and s.expires_at > $2 group by s.visitor_id having count(*) > 1`,
        [t.orgId, new Date(h.clock.now())],
      );
      expect(byVisitor).toEqual([]);
      const unflaggedShared = live.filter((s) => s.n > 1 && !s.ambiguous);
      expect(unflaggedShared.length).toBeLessThanOrEqual(
        new Set(unflaggedShared.map((s) => s.tracking_number)).size,
      );
      expect(live.length).toBe(18 + 12 * 24);
      // A sticky answer is the visitor's own session.
      const again = json(await open('base-0'));
      const first = live.find((s) => s.tracking_number === again.tracking_number);
      expect(first).toBeDefined();
    },
    60_000,
  );
});

/**
 * The lock order itself, made deterministic: one connection takes the
 * sharing path's first lock (the number) and then its second (the sessions
 * on it) while a returning visitor's dni_open_sessions runs in between on
 * another connection. With the old order the visitor held its session and
 * waited for the number, and PostgreSQL aborted one side with 40P01.
 */
describe('dni_open_sessions lock order', () => {
  itConcurrently('locks the number before the session on the sticky path', async () => {
    const t = await createTenant(h, { numbers: 2, rateLimit: 100_000 });
    const first = json(await dni(h, t.key, { campaign_code: t.code, visitor_id: 'sticky' }));
    const number: string = first.tracking_number;
    const now = new Date(h.clock.now()).toISOString();
    const ids = await h.store.query<{ org_id: string }>(
      'select org_id from dni_sessions where id = $1',
      [first.dni_session_id],
    );
    const sharer = new pg.Client({ connectionString: h.store.url });
    const visitor = new pg.Client({ connectionString: h.store.url });
    const watcher = new pg.Client({ connectionString: h.store.url });
    await Promise.all([sharer.connect(), visitor.connect(), watcher.connect()]);
    try {
      const visitorPid = (await visitor.query('select pg_backend_pid() as pid')).rows[0].pid;
      await sharer.query('begin');
      await sharer.query('select 1 from tracking_numbers where e164 = $1 for update', [number]);
      const sticky = visitor.query(
        `select * from dni_open_sessions($1::text[], $2::text[], $3::text[], $4::timestamptz[],
           $5::text[], $6::jsonb[])`,
        [[ids[0]!.org_id], [t.code], ['sticky'], [now], ['ds_lock_order_probe'], ['{}']],
      );
      sticky.catch(() => {});
      await untilWaitingOnLock(watcher, visitorPid);
      await sharer.query(
        'update dni_sessions set ambiguous = true where tracking_number = $1 and expires_at > $2',
        [number, now],
      );
      await sharer.query('commit');
      const row = (await sticky).rows[0];
      expect(row).toMatchObject({ session_id: first.dni_session_id, outcome: 'sticky' });
    } finally {
      await Promise.all([sharer.end(), visitor.end(), watcher.end()]);
    }
  });
});
