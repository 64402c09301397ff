import { afterAll, describe, expect, it } from 'vitest';
import { post, type ServerProcess, startServer } from '../helpers/server-process.js';
import {
  ADMIN_TOKEN,
  type Answer,
  adminAuth,
  type FreshDatabase,
  freshDatabase,
  send,
  setUpTenant,
  tempDir,
} from './setup.js';

const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/**
 * Every backend of the app is terminated again and again while 18 clients
 * send DNI, buyer-report and touch requests: what a failover, a pooler
 * restart or a DBA's pg_terminate_backend does. postgres.js 3.4.9 died of it
 * (TypeError in connection.js nextWrite) in 12 of 14 trials.
 */
describe('PostgreSQL connections killed under load', () => {
  it('keeps the process alive, answers 503 + Retry-After, and keeps every acknowledged write', async () => {
    const db: FreshDatabase = await freshDatabase('tracking_fault_kill');
    cleanups.push(() => db.drop());
    const data = tempDir('fault-kill-');
    cleanups.push(() => data.remove());
    const server: ServerProcess = await startServer({
      DATABASE_URL: db.url,
      DATA_DIR: data.dir,
      ADMIN_TOKEN,
      // A small pool: a client lost on every kill (Drizzle's BEGIN outside its
      // try/finally) empties it within a few kills, and nothing answers after.
      DATABASE_POOL_SIZE: '4',
    });
    cleanups.push(() => server.kill('SIGKILL'));
    const t = await setUpTenant(server.adminUrl);

    // Calls to report on, and consented contacts to touch.
    const calls: string[] = [];
    for (let i = 0; i < 40; i++) {
      const c = await post(
        `${server.adminUrl}/admin/orgs/${t.orgId}/calls`,
        { to: t.numbers[i], from: `+1212555${String(1000 + i)}` },
        adminAuth,
      );
      calls.push(c.body.call_id);
    }
    const contacts = Array.from({ length: 40 }, (_, i) => `+1212556${String(1000 + i)}`);
    for (const e164 of contacts) {
      await fetch(`${server.adminUrl}/admin/orgs/${t.orgId}/consents/${encodeURIComponent(e164)}`, {
        method: 'PUT',
        headers: { ...adminAuth, 'content-type': 'application/json' },
        body: JSON.stringify({ tier: 'pewc' }),
      });
    }

    const sessions = new Set<string>();
    const events = new Set<string>();
    const touches = new Set<string>();
    const wrong: Answer[] = [];
    let failed503 = 0;
    let seq = 0;
    let stop = false;

    const one = async (kind: number) => {
      const n = seq++;
      let a: Answer;
      if (kind === 0) {
        a = await send(
          `${server.apiUrl}/dni/session`,
          { campaign_code: t.code, visitor_id: `v-${n}` },
          t.auth,
        );
        if (a.status === 201) sessions.add(a.body.dni_session_id);
      } else if (kind === 1) {
        a = await send(
          `${server.apiUrl}/dni/campaigns/${t.code}/buyer-report`,
          { call_id: calls[n % calls.length], report_id: `r-${n}`, disposition: 'success' },
          t.auth,
        );
        if (a.status === 201) events.add(a.body.event_id);
      } else {
        a = await send(
          `${server.apiUrl}/tracking/campaigns/${t.code}/outbound`,
          { to_e164: contacts[n % contacts.length], channel: 'sms', consent_basis: 'pewc' },
          t.auth,
        );
        if (a.status === 200 || a.status === 202) touches.add(a.body.touch_id);
      }
      const ok = [200, 201, 202].includes(a.status);
      if (a.status === 503 && a.retryAfter !== null) failed503++;
      else if (!ok) wrong.push(a);
    };
    const client = async (id: number) => {
      while (!stop) await one(id % 3);
    };
    const killer = async () => {
      let kills = 0;
      const until = Date.now() + 10_000;
      while (Date.now() < until) {
        kills += await db.terminateApp();
        await new Promise((r) => setTimeout(r, 150));
      }
      stop = true;
      return kills;
    };
    const [kills] = await Promise.all([
      killer(),
      ...Array.from({ length: 18 }, (_, i) => client(i)),
    ]);

    expect(server.child.exitCode, server.output().slice(-2000)).toBeNull();
    expect(server.child.signalCode).toBeNull();
    expect(kills).toBeGreaterThan(10);
    expect(wrong.slice(0, 5)).toEqual([]);
    // The test only proves something if the kills landed on requests.
    expect(failed503).toBeGreaterThan(0);
    // And enough writes were acknowledged to check below: how many fit between kills every
    // 150 ms depends on the machine (over 100 on some days, 26–48 on a slower one, the code
    // the same), so the bar is what the checks need, not a throughput.
    expect(sessions.size + events.size + touches.size).toBeGreaterThan(20);

    // The connections come back without a restart. A pooled connection killed
    // in the last round may still fail one request (503 + Retry-After, as the
    // contract lets a client retry); within a few tries the answer is 201.
    let after = await send(
      `${server.apiUrl}/dni/session`,
      { campaign_code: t.code, visitor_id: 'after-the-storm' },
      t.auth,
    );
    for (let i = 0; i < 5 && after.status === 503; i++) {
      expect(after.retryAfter).not.toBeNull();
      await new Promise((r) => setTimeout(r, 200));
      after = await send(
        `${server.apiUrl}/dni/session`,
        { campaign_code: t.code, visitor_id: 'after-the-storm' },
        t.auth,
      );
    }
    expect(after.status).toBe(201);
    expect(server.child.exitCode).toBeNull();

    const count = async (table: string, ids: Set<string>) =>
      (
        await db.query<{ n: number }>(
          `select count(*)::int as n from ${table} where id = any($1)`,
          [[...ids]],
        )
      )[0]!.n;
    expect(await count('dni_sessions', sessions)).toBe(sessions.size);
    expect(await count('buyer_report_events', events)).toBe(events.size);
    expect(await count('outbound_touches', touches)).toBe(touches.size);
  }, 120_000);
});
