import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../helpers/server-process.js';
import { ADMIN_TOKEN, freshDatabase, send, setUpTenant, tempDir } from './setup.js';

const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/**
 * Thousands of requests through a real listener: returning visitors (sticky)
 * and new visitors on a 20-number pool that runs out and shares. Before
 * migration 0008 about 1 request in 100 of this mix deadlocked into a 500.
 */
describe('returning and new visitors on a pool that runs out', () => {
  it('answers 3,000 requests without a 5xx and keeps the allocation invariants', async () => {
    const db = await freshDatabase('tracking_fault_mix');
    cleanups.push(() => db.drop());
    const data = tempDir('fault-mix-');
    cleanups.push(() => data.remove());
    const server = await startServer({ DATABASE_URL: db.url, DATA_DIR: data.dir, ADMIN_TOKEN });
    cleanups.push(() => server.kill('SIGKILL'));
    const t = await setUpTenant(server.adminUrl, { numbers: 20 });
    const deadlocksBefore = async () =>
      (
        await db.query<{ n: string }>(
          'select deadlocks::text as n from pg_stat_database where datname = current_database()',
        )
      )[0]!.n;
    const before = await deadlocksBefore();

    const statuses = new Map<number, number>();
    let seq = 0;
    const client = async () => {
      while (seq < 3000) {
        const n = seq++;
        // Half the requests come back as one of 40 returning visitors.
        const visitor = n % 2 === 0 ? `back-${n % 40}` : `new-${n}`;
        const a = await send(
          `${server.apiUrl}/dni/session`,
          { campaign_code: t.code, visitor_id: visitor },
          t.auth,
        );
        statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: 32 }, client));
    expect(Object.fromEntries(statuses)).toEqual({ 201: 3000 });
    expect(server.child.exitCode).toBeNull();

    // Each visitor has one live session, and no free number went to two
    // visitors: a number held by several live sessions is a shared one, and
    // all but the first session on it are flagged ambiguous.
    const dupVisitors = await db.query(
      `select visitor_id from dni_sessions where expires_at > now()
        group by visitor_id having count(*) > 1`,
    );
    expect(dupVisitors).toEqual([]);
    const unflagged = await db.query<{ tracking_number: string; n: number }>(
      `select tracking_number, count(*)::int as n from dni_sessions
        where expires_at > now() and not ambiguous
        group by tracking_number having count(*) > 1`,
    );
    expect(unflagged).toEqual([]);
    const shared = await db.query<{ n: number }>(
      "select count(*)::int as n from dni_sessions where kind = 'shared' and ambiguous",
    );
    expect(shared[0]!.n).toBeGreaterThan(0);
    // The stats of the app's backends reach pg_stat_database when they go idle.
    await db.terminateApp();
    expect(await deadlocksBefore()).toBe(before);
  }, 180_000);
});
