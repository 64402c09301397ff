/**
 * The DNI allocation's plans on a database that has never been analysed
 * (issue 23): a freshly loaded 100,000-number pool, autovacuum off for the
 * tables involved, no ANALYZE. auto_explain reports the plan of every
 * statement dni_open_sessions runs, as NOTICEs on the same connection, so the
 * test reads exactly what the function executes, with the generic plans it
 * keeps for the connection's lifetime.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openManyParams, openManySql } from '../../src/store/repos/dni.js';
import { type ScratchDatabase, scratchDatabase, storeKind } from '../helpers/store.js';

const POOL = 100_000;
const OPEN_MANY = openManySql();
const TABLES = ['tracking_numbers', 'dni_sessions', 'campaigns'];

describe.skipIf(storeKind !== 'postgres')(
  'DNI allocation plans before any ANALYZE (PostgreSQL only: PGlite has no auto_explain, and the generic plans kept per connection are a PostgreSQL server matter)',
  () => {
    let db: ScratchDatabase;
    let client: pg.Client;

    beforeAll(async () => {
      db = await scratchDatabase('tracking_plans', inject('postgresTemplate'));
      client = new pg.Client({ connectionString: db.url });
      await client.connect();
      for (const t of TABLES)
        await client.query(`alter table ${t} set (autovacuum_enabled = false)`);
      await client.query(
        `insert into orgs (id, name, tracking_enabled) values ('org_p', 'Plans', true)`,
      );
      await client.query(
        `insert into campaigns (id, org_id, code, name) values ('cmp_p', 'org_p', 'pln', 'Plans')`,
      );
      // The campaign as the admin API leaves it: one number, and the
      // statistics it refreshes after adding numbers (one row, one page).
      await client.query(
        `insert into tracking_numbers (e164, org_id, campaign_id, role) values ('+14152000000', 'org_p', 'cmp_p', 'pool')`,
      );
      await client.query('analyze tracking_numbers');
      // Then the rest of the pool as the slot trigger would leave it, loaded in
      // one statement behind the service's back (the trigger numbers rows one
      // at a time: minutes for 100,000 here), so the statistics say one row
      // where there are 100,000: stale, as autovacuum off or behind leaves them.
      await client.query('alter table tracking_numbers disable trigger tracking_numbers_slot');
      await client.query(
        `insert into tracking_numbers (e164, org_id, campaign_id, role, slot)
         select '+1415' || (2000000 + g), 'org_p', 'cmp_p', 'pool', g
           from generate_series(1, $1::int - 1) g`,
        [POOL],
      );
      await client.query('alter table tracking_numbers enable trigger tracking_numbers_slot');
      await client.query(`update campaigns set pool_size = $1 where id = 'cmp_p'`, [POOL]);
    });

    afterAll(async () => {
      await client?.end();
      await db?.drop();
    });

    async function open(c: pg.Client, visitors: string[], at: Date): Promise<string[]> {
      const ids = visitors.map((v) => `ds_${v}_${at.getTime()}`);
      // The statement the service sends: dni_open_sessions inside dni_open_sessions_counted.
      const { rows } = await c.query<{ outcome: string }>(
        OPEN_MANY,
        openManyParams(
          visitors.map((visitorId, i) => ({
            orgId: 'org_p',
            campaignCode: 'pln',
            visitorId,
            now: at,
            newSessionId: ids[i]!,
            attrs: {},
          })),
        ),
      );
      return rows.map((r) => r.outcome);
    }

    /** Plans (with their actual row counts) of the statements `c` runs in `fn`. */
    async function explained(c: pg.Client, fn: () => Promise<unknown>): Promise<string[]> {
      const plans: string[] = [];
      const onNotice = (n: { message?: string }) => {
        if (n.message?.includes('Query Text')) plans.push(n.message);
      };
      c.on('notice', onNotice);
      await c.query(`load 'auto_explain'`);
      await c.query('set auto_explain.log_min_duration = 0');
      await c.query('set auto_explain.log_nested_statements = on');
      await c.query('set auto_explain.log_analyze = on');
      await c.query('set auto_explain.log_level = notice');
      await fn();
      await c.query('set auto_explain.log_min_duration = -1');
      c.off('notice', onNotice);
      return plans;
    }

    function expectIndexLookups(plansRead: string[]) {
      expect(plansRead.length).toBeGreaterThan(5);
      const seq = plansRead.filter((p) =>
        /Seq Scan on (dni_sessions|tracking_numbers|campaigns)/.test(p),
      );
      expect(seq, seq.join('\n---\n')).toEqual([]);
      const hashed = plansRead.filter((p) => /Hash Join/.test(p));
      expect(hashed, hashed.join('\n---\n')).toEqual([]);
      // A bitmap over a partial index whose predicate every pool number meets reads the whole pool.
      const bitmaps = plansRead.filter((p) => /Bitmap/.test(p));
      expect(bitmaps, bitmaps.join('\n---\n')).toEqual([]);
      // Nor an index read far and filtered row by row: with stale statistics
      // step 2 read the whole partial slot index (100,000 entries, thought to
      // be tiny since `role = 'pool'` matched one row when last analysed), and
      // a visitor's live session was looked for among every session of the
      // campaign (the campaign index, now dni_sessions_window_idx).
      const filtered = plansRead.filter((p) =>
        [...p.matchAll(/Rows Removed by Filter: (\d+)/g)].some((m) => Number(m[1]) > 100),
      );
      expect(filtered, filtered.join('\n---\n')).toEqual([]);
      // Step 2 (the numbers of the batch's live sessions): each visitor's live
      // session by the visitor index, then the numbers by key.
      const step2 = plansRead.find(
        (p) => p.includes('FOR UPDATE OF t') && p.includes('dni_sessions'),
      );
      expect(step2).toBeDefined();
      expect(step2).toMatch(/dni_sessions_visitor_live_idx/);
      expect(step2).toMatch(/Index Scan using tracking_numbers_pkey/);
    }

    it('has no statistics to plan with, or stale ones', async () => {
      const { rows } = await client.query<{ relname: string; reltuples: number }>(
        `select relname, reltuples from pg_class where relname = any($1)`,
        [TABLES],
      );
      for (const r of rows) expect(r.reltuples, r.relname).toBeLessThanOrEqual(1);
      const stats = await client.query(
        `select 1 from pg_stats where tablename = any($1) and tablename <> 'tracking_numbers'`,
        [TABLES],
      );
      expect(stats.rowCount).toBe(0);
    });

    const t0 = new Date('2026-11-26T10:00:00Z');
    const batchOf = (prefix: string) =>
      Array.from({ length: 64 }, (_, i) => (i % 2 ? `v${i}` : `${prefix}${i}`));

    it('looks up every session, number and campaign by index, on the first batch and after the table grew', async () => {
      expectIndexLookups(await explained(client, () => open(client, batchOf('v'), t0)));
      // The same connection keeps the generic plans made above; grow
      // dni_sessions by 20,000 live sessions, then a batch of old and new visitors.
      for (let b = 0; b < 20_000 / 500; b++) {
        await open(
          client,
          Array.from({ length: 500 }, (_, i) => `g${b}_${i}`),
          t0,
        );
      }
      const later = new Date(t0.getTime() + 60_000);
      expectIndexLookups(await explained(client, () => open(client, batchOf('w'), later)));
    });

    it('plans the same on a connection opened after the table grew', async () => {
      // A new connection makes its generic plans now, with 20,000 sessions
      // behind statistics that still say none.
      const fresh = new pg.Client({ connectionString: db.url });
      await fresh.connect();
      try {
        const later = new Date(t0.getTime() + 90_000);
        expectIndexLookups(await explained(fresh, () => open(fresh, batchOf('x'), later)));
      } finally {
        await fresh.end();
      }
    });

    it('shares the numbers of a full pool by index too, on a connection opened then', async () => {
      // Every number held for an hour, and the pool remembered as full (pool_full_until, as the
      // first batch to find no free number leaves it): each new visitor shares a number among
      // the 16 slots under the hand and flags that number's live sessions.
      const t = new Date('2026-11-26T10:03:00Z');
      await client.query(
        `update tracking_numbers set held_until = $1::timestamptz + interval '1 hour',
                last_assigned_at = $1 where campaign_id = 'cmp_p'`,
        [t],
      );
      await client.query(
        `update campaigns set pool_full_until = $1::timestamptz + interval '1 hour' where id = 'cmp_p'`,
        [t],
      );
      // Each number under the hand (here and where it wraps round) had 150 sessions, expired
      // unshared, so still unflagged: a share must not read them to flag the live ones.
      const hand = 5_000;
      await client.query(`select setval(dni_clock_name('cmp_p')::regclass, $1)`, [hand - 1]);
      await client.query(
        `insert into dni_sessions (id, org_id, campaign_id, visitor_id, tracking_number, kind,
                created_at, expires_at, last_seen_at)
         select 'ds_old_' || n.e164 || '_' || g, 'org_p', 'cmp_p', 'old_' || g, n.e164, 'allocated',
                $1::timestamptz - interval '40 days' + g * interval '1 hour',
                $1::timestamptz - interval '40 days' + g * interval '1 hour' + interval '30 minutes',
                $1::timestamptz - interval '40 days'
           from tracking_numbers n cross join generate_series(1, 150) g
          where n.campaign_id = 'cmp_p'
            and (n.slot between $2 and $2 + 40 or n.slot >= $3 - 10 or n.slot < 16)`,
        [t, hand, POOL],
      );
      const fresh = new pg.Client({ connectionString: db.url });
      await fresh.connect();
      try {
        let outcomes: string[] = [];
        const plansRead = await explained(fresh, async () => {
          outcomes = await open(fresh, ['full_1', 'full_2', 'full_3'], t);
          // Then with the hand at the pool's end, where the 16 slots wrap round to slot 0.
          await fresh.query(`select setval(dni_clock_name('cmp_p')::regclass, $1)`, [POOL - 6]);
          outcomes.push(...(await open(fresh, ['full_4', 'full_5'], t)));
        });
        expect(outcomes).toEqual(['shared', 'shared', 'shared', 'shared', 'shared']);
        expectIndexLookups(plansRead);
        // The 16 slots under the hand as one range of the slot index, in the order to share
        // them, locked in that order until one is free of other transactions' locks.
        const share = plansRead.find((p) => p.includes('slot BETWEEN p_slot AND p_slot + 15 AND'));
        expect(share?.match(/Index Scan using tracking_numbers_slot_idx/g)).toHaveLength(1);
        expect(share).toMatch(/Index Cond: \(\(campaign_id = \$\d+\) AND \(slot >= \$\d+\) AND/);
        expect(share).toMatch(/LockRows[\s\S]*Sort[\s\S]*Index Scan/);
        // Wrapping round: each range by the slot index, then the numbers by key.
        const wrapped = plansRead.find((p) => p.includes('UNION ALL'));
        expect(wrapped?.match(/Index Scan using tracking_numbers_slot_idx/g)).toHaveLength(2);
        expect(wrapped).toMatch(/Index Scan using tracking_numbers_pkey/);
        // The shared numbers' live sessions flagged with the batch's writes: a lookup per number.
        const flag = plansRead.find((p) => p.includes('SET ambiguous = true'));
        expect(flag).toMatch(/Nested Loop[\s\S]*Index Scan using dni_sessions_unflagged_idx/);
        expect(flag).toMatch(/Index Cond: \(\(tracking_number = u\.num\) AND \(expires_at > /);
      } finally {
        await fresh.end();
        await client.query(
          `update tracking_numbers set held_until = null where campaign_id = 'cmp_p'`,
        );
        await client.query(`update campaigns set pool_full_until = null where id = 'cmp_p'`);
      }
    });

    it('still hands out the numbers it should', async () => {
      const t = new Date('2026-11-26T10:05:00Z');
      const outcomes = await open(client, ['v1', 'fresh_1', 'fresh_2'], t);
      expect(outcomes).toEqual(['sticky', 'allocated', 'allocated']);
    });
  },
);
