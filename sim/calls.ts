import { type Attribution, attributeCall, holdOf } from '../src/domain/dni/attribution.js';
import type { Store } from '../src/store/db.js';

export interface SimCall {
  to: string;
  from: string;
  at: Date;
}

interface HeldRow extends Record<string, unknown> {
  o: number | string;
  id: string;
  created_at: Date | string;
  expires_at: Date | string;
}

// recordInboundCalls' reads, one round trip for a whole batch: each call's
// number's sessions created by the call, newest first, as many as it scans (50).
const HELD_SQL = `
select u.o, s.id, s.created_at, s.expires_at
  from unnest($1::text[], $2::timestamptz[]) with ordinality as u(num, at, o)
  cross join lateral (
    select d.id, d.created_at, d.expires_at from dni_sessions d
     where d.tracking_number = u.num and d.created_at <= u.at
     order by d.created_at desc limit 50) s
 order by u.o, s.created_at desc`;

const INSERT_SQL = `
insert into calls (id, org_id, campaign_id, dni_session_id, tracking_number, from_number,
                   started_at, attribution, ambiguous, session_created_at, session_expires_at)
select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
                     $7::timestamptz[], $8::text[], $9::boolean[], $10::timestamptz[],
                     $11::timestamptz[])`;

/**
 * Attributes a batch of calls (in time order) of one campaign by the carrier
 * webhook's rule, attributeCall, over the rows recordInboundCalls reads, and
 * stores them as calls rows (the pool endpoint reads them), in two round trips
 * instead of seven per call. The repeat-caller rule reads the caller's latest
 * attributed call: `repeatOf` holds it, kept up to date here across batches.
 * Audit entries and webhook events are not written: attribution reads neither.
 */
export async function attributeCalls(
  store: Store,
  campaign: { orgId: string; id: string; run: number },
  calls: readonly SimCall[],
  repeatOf: Map<string, string>,
  seq: { next: number },
): Promise<Attribution[]> {
  if (calls.length === 0) return [];
  const rows = await store.query<HeldRow>(HELD_SQL, [
    calls.map((c) => c.to),
    calls.map((c) => c.at.toISOString()),
  ]);
  const held = calls.map(() => [] as { id: string; createdAt: Date; expiresAt: Date }[]);
  for (const r of rows) {
    held[Number(r.o) - 1]!.push({
      id: r.id,
      createdAt: new Date(r.created_at),
      expiresAt: new Date(r.expires_at),
    });
  }
  const out = calls.map((c, i) => {
    const a = attributeCall(c.at, held[i]!, repeatOf.get(c.from) ?? null);
    if (a.sessionId !== null) repeatOf.set(c.from, a.sessionId);
    return a;
  });
  const holds = out.map((a, i) => holdOf(a, held[i]!));
  await store.query(INSERT_SQL, [
    calls.map(() => `call_sim_${campaign.run}_${seq.next++}`),
    calls.map(() => campaign.orgId),
    calls.map(() => campaign.id),
    out.map((a) => a.sessionId),
    calls.map((c) => c.to),
    calls.map((c) => c.from),
    calls.map((c) => c.at.toISOString()),
    out.map((a) => a.kind),
    out.map((a) => a.ambiguous),
    holds.map((h) => h?.createdAt.toISOString() ?? null),
    holds.map((h) => h?.expiresAt.toISOString() ?? null),
  ]);
  return out;
}
