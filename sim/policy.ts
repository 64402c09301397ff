import { readFileSync } from 'node:fs';
import type { SessionOpenRequest, SessionOpenResult } from '../src/domain/dni/ports.js';
import type { Store } from '../src/store/db.js';
import { openSessions } from '../src/store/repos/dni.js';

/**
 * Allocation policies the simulator can replay a trace with: the service's own
 * (clock: dni_open_sessions, migration 0017) and, for comparison only, the
 * ones of sim/policies.sql and clock-lra, installed in the simulator's scratch
 * database.
 */
export const POLICIES = ['clock', 'lrr', 'quarantine', 'clock-lra'] as const;
export type Policy = (typeof POLICIES)[number];

export function isPolicy(s: string): s is Policy {
  return (POLICIES as readonly string[]).includes(s);
}

const installed = new WeakSet<Store>();

/** Creates the comparison functions (and the old policy's indexes) once per store. */
export async function installPolicies(store: Store): Promise<void> {
  if (installed.has(store)) return;
  const text = readFileSync(new URL('./policies.sql', import.meta.url), 'utf8');
  for (const statement of text.split('--> statement-breakpoint')) {
    if (statement.replace(/--.*$/gm, '').trim()) await store.query(statement, []);
  }
  await store.query(clockLra(), []);
  installed.add(store);
}

const SHARE_LOOP = `        FOR k IN 1 .. LEAST(v_size, 16) LOOP
          v_slot := nextval(v_clock::regclass) % v_size;
          SELECT t.e164 INTO v_num FROM tracking_numbers t
           WHERE t.campaign_id = v_campaign AND t.role = 'pool' AND t.slot = v_slot
           FOR UPDATE SKIP LOCKED;
          EXIT WHEN FOUND;
        END LOOP;`;

/**
 * clock-lra: the clock of migration 0017 (its text, read from the migration),
 * except that an exhausted pool shares the number assigned longest ago among
 * the 16 under the hand instead of the one under it. The hand does not move
 * when a crowded search takes a free number further on, so the numbers just
 * in front of it are often the ones handed out last: sharing one of them
 * gives the call of a visitor who is still on the page to the newcomer.
 */
function clockLra(): string {
  const text = readFileSync(new URL('../migrations/0017_dni_clock.sql', import.meta.url), 'utf8');
  const start = text.indexOf('CREATE FUNCTION dni_open_sessions(');
  const end = text.indexOf('$$;', start);
  const fn = text.slice(start, end + 3);
  if (start < 0 || !fn.includes(SHARE_LOOP))
    throw new Error('clock-lra: 0017 changed, update sim/policy.ts');
  return fn
    .replace(
      'CREATE FUNCTION dni_open_sessions(',
      'CREATE OR REPLACE FUNCTION dni_open_sessions_clock_lra(',
    )
    .replace(
      SHARE_LOOP,
      `        v_slot := nextval(v_clock::regclass) % v_size;
        SELECT t.e164 INTO v_num FROM tracking_numbers t
         WHERE t.campaign_id = v_campaign AND t.role = 'pool'
           AND (t.slot BETWEEN v_slot AND v_slot + 15 OR t.slot <= v_slot + 15 - v_size)
         ORDER BY t.last_assigned_at NULLS FIRST, t.slot
         LIMIT 1
         FOR UPDATE SKIP LOCKED;`,
    );
}

interface Row extends Record<string, unknown> {
  ord: number;
  session_id: string | null;
  tracking_number: string | null;
  expires_at: Date | string | null;
  outcome: string;
  campaign_id: string | null;
}

/** openSessions, through the policy's batch function (the same arguments and rows). */
export async function openSessionsWith(
  store: Store,
  policy: Policy,
  requests: readonly SessionOpenRequest[],
): Promise<SessionOpenResult[]> {
  if (policy === 'clock') return openSessions(store, requests);
  await installPolicies(store);
  const rows = await store.query<Row>(
    `select * from dni_open_sessions_${policy.replace('-', '_')}($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::text[], $6::jsonb[])`,
    [
      requests.map((r) => r.orgId),
      requests.map((r) => r.campaignCode),
      requests.map((r) => r.visitorId),
      requests.map((r) => r.now.toISOString()),
      requests.map((r) => r.newSessionId),
      requests.map((r) => JSON.stringify(r.attrs)),
    ],
  );
  return rows.map((r) =>
    r.outcome === 'campaign_not_found' || r.outcome === 'no_numbers'
      ? { outcome: r.outcome }
      : {
          sessionId: r.session_id as string,
          trackingNumber: r.tracking_number as string,
          expiresAt: new Date(r.expires_at as string),
          outcome: r.outcome as 'allocated' | 'sticky' | 'shared' | 'overflow',
          campaignId: r.campaign_id as string,
        },
  );
}
