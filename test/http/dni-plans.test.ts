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
import { type ScratchDatabase, scratchDatabase, storeKind } from '../helpers/store.js';

const POOL = 100_000;
const TABLES = ['tracking_numbers', 'dni_sessions', 'campaigns'];

describe.skipIf(storeKind !== 'postgres')(
  'DNI allocation plans before any ANALYZE (PostgreSQL only: PGlite has no auto_explain, and the generic plans kept per connection are a PostgreSQL server matter)',
  () => {
    let db: ScratchDatabase;
    let client: pg.Client;
    const plans: string[] = [];

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
      // The pool as the slot trigger would leave it, loaded in one statement
      // (the trigger numbers rows one at a time: minutes for 100,000 here).
      await client.query('alter table tracking_numbers disable trigger tracking_numbers_slot');
      await client.query(
        `insert into tracking_numbers (e164, org_id, campaign_id, role, slot)
         select '+1415' || (2000000 + g), 'org_p', 'cmp_p', 'pool', g - 1
           from generate_series(1, $1::int) g`,
        [POOL],
      );
      await client.query('alter table tracking_numbers enable trigger tracking_numbers_slot');
      await client.query(`update campaigns set pool_size = $1 where id = 'cmp_p'`, [POOL]);
      client.on('notice', (n) => {
        if (n.message?.includes('Query Text')) plans.push(n.message);
      });
    });

    afterAll(async () => {
      await client?.end();
      await db?.drop();
    });

    async function open(visitors: string[], at: Date): Promise<string[]> {
      const n = visitors.length;
      const ids = visitors.map((v) => `ds_${v}_${at.getTime()}`);
      const { rows } = await client.query<{ outcome: string }>(
        `select outcome from dni_open_sessions($1, $2, $3, $4, $5, $6)`,
        [
          Array(n).fill('org_p'),
          Array(n).fill('pln'),
          visitors,
          Array(n).fill(at.toISOString()),
          ids,
          Array(n).fill('{}'),
        ],
      );
      return rows.map((r) => r.outcome);
    }

    /** Plans of the statements run while `fn` runs, with auto_explain on. */
    async function explained(fn: () => Promise<unknown>): Promise<string[]> {
      await client.query(`load 'auto_explain'`);
      await client.query('set auto_explain.log_min_duration = 0');
      await client.query('set auto_explain.log_nested_statements = on');
      await client.query('set auto_explain.log_level = notice');
      plans.length = 0;
      await fn();
      await client.query('set auto_explain.log_min_duration = -1');
      return [...plans];
    }

    it('has no statistics to plan with', async () => {
      const { rows } = await client.query<{ relname: string; reltuples: number }>(
        `select relname, reltuples from pg_class where relname = any($1)`,
        [TABLES],
      );
      for (const r of rows) expect(r.reltuples, r.relname).toBeLessThanOrEqual(1);
      const stats = await client.query(`select 1 from pg_stats where tablename = any($1)`, [
        TABLES,
      ]);
      expect(stats.rowCount).toBe(0);
    });

    it('looks up every session, number and campaign by index, on the first batch and after the table grew', async () => {
      const t0 = new Date('2026-11-26T10:00:00Z');
      const first = await explained(() =>
        open(
          Array.from({ length: 64 }, (_, i) => `v${i}`),
          t0,
        ),
      );
      // The same connection keeps the generic plans made above; grow
      // dni_sessions by 20,000 live sessions, then a batch of old and new visitors.
      for (let b = 0; b < 20_000 / 500; b++) {
        await open(
          Array.from({ length: 500 }, (_, i) => `g${b}_${i}`),
          t0,
        );
      }
      const later = await explained(() =>
        open(
          Array.from({ length: 64 }, (_, i) => (i % 2 ? `v${i}` : `w${i}`)),
          new Date(t0.getTime() + 60_000),
        ),
      );
      for (const plansRead of [first, later]) {
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
      }
      // Step 2 (the numbers of the batch's live sessions) goes through the visitor index.
      const step2 = later.find((p) => p.includes('FOR UPDATE OF t') && p.includes('dni_sessions'));
      expect(step2).toBeDefined();
      expect(step2).toMatch(/dni_sessions_visitor_idx/);
    });

    it('still hands out the numbers it should', async () => {
      const t = new Date('2026-11-26T10:05:00Z');
      const outcomes = await open(['v1', 'fresh_1', 'fresh_2'], t);
      expect(outcomes).toEqual(['sticky', 'allocated', 'allocated']);
    });
  },
);
