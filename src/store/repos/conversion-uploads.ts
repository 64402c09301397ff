import { and, eq, gte, inArray, notInArray, type SQL, sql } from 'drizzle-orm';
import type { UploadFacts } from '../../domain/conversions/facts.js';
import type {
  BackfillCandidate,
  Destination,
  Skipped,
  UploadRepository,
} from '../../domain/conversions/ports.js';
import {
  type Platform,
  QUIET_REASONS,
  type ReasonCode,
  type UploadKind,
} from '../../domain/conversions/vocabulary.js';
import type {
  ClaimedUpload,
  UploadClaim,
  UploadRecord,
} from '../../domain/conversions/worker-ports.js';
import { newId } from '../../domain/ids.js';
import { uploadFailedData } from '../../domain/webhooks/payloads.js';
import type { Db, Executor } from '../db.js';
import { rowsOf } from '../rows.js';
import {
  conversionUploadAttempts as A,
  conversionDestinations as D,
  conversionUploads as U,
} from '../schema/conversions.js';
import {
  callSubject,
  insertUploads,
  lockConversions,
  markRejected,
  priceUnsent,
  triggeredDestinations,
} from './conversion-destinations.js';
import { emitEvent } from './webhook-outbox.js';

/**
 * Leases due uploads, oldest first. A retraction waits until the conversion it retracts has
 * been sent, or has failed after an attempt the platform may have applied (maybe_applied). SKIP LOCKED lets several workers claim at once without taking each other's rows.
 */
export async function claimUploads(db: Db, c: UploadClaim): Promise<ClaimedUpload[]> {
  if (c.limit <= 0) return [];
  const now = new Date(c.nowMs).toISOString();
  const until = new Date(c.nowMs + c.leaseMs).toISOString();
  const rows = await rowsOf<{
    id: string;
    org_id: string;
    destination_id: string;
    platform: string;
    name: string;
    settings: Record<string, string>;
    secrets: string;
    secrets_mask: Record<string, string>;
    call_id: string;
    kind: string;
    dedupe_key: string;
    facts: UploadFacts;
    attempts: number;
    checks: number;
    request_id: string | null;
    awaiting_since: string | Date | null;
    solo: boolean;
  }>(
    db,
    sql`with picked as (
      select u.id from conversion_uploads u
        join conversion_destinations d on d.id = u.destination_id
       where u.status = 'pending' and u.next_attempt_at <= ${now}::timestamptz
         and (u.lease_until is null or u.lease_until <= ${now}::timestamptz)
         and d.enabled
         and (u.kind = 'conversion' or exists (
           select 1 from conversion_uploads p
            where p.destination_id = u.destination_id and p.call_id = u.call_id
              and p.kind = 'conversion'
              and (p.status in ('sent', 'retracted') or (p.status = 'failed' and p.maybe_applied))))
       order by u.next_attempt_at, u.id
       limit ${c.limit}::integer
       for update of u skip locked
    )
    update conversion_uploads u
       set lease_until = ${until}::timestamptz, leased_by = ${c.worker},
           attempts = u.attempts + 1, checks = u.checks + (u.request_id is not null)::integer,
           updated_at = ${now}::timestamptz
      from picked, conversion_destinations d
     where u.id = picked.id and d.id = u.destination_id
    returning u.id, u.org_id, u.destination_id, d.platform, d.name, d.settings, d.secrets,
      d.secrets_mask, u.call_id, u.kind, u.dedupe_key, u.facts, u.attempts, u.checks,
      u.request_id, u.awaiting_since, u.solo`,
  );
  return rows.map((r) => ({
    uploadId: r.id,
    orgId: r.org_id,
    destinationId: r.destination_id,
    platform: r.platform as Platform,
    destinationName: r.name,
    settings: r.settings,
    sealedSecrets: r.secrets,
    secretNames: Object.keys(r.secrets_mask),
    callId: r.call_id,
    kind: r.kind as UploadKind,
    dedupeKey: r.dedupe_key,
    facts: r.facts,
    attempt: Number(r.attempts),
    checks: Number(r.checks),
    requestId: r.request_id,
    awaitingSinceMs:
      r.request_id === null || r.awaiting_since === null
        ? null
        : new Date(r.awaiting_since).getTime(),
    solo: r.solo,
  }));
}

interface Moved {
  id: string;
  org_id: string;
  destination_id: string;
  call_id: string;
  kind: string;
  status: string;
  reason_code: string | null;
  reason: string | null;
  attempts: number;
  maybe_applied: boolean;
}

/** A batch's new states as the rows `moveUploads` reads through jsonb_to_recordset. */
function nextStates(records: UploadRecord[], nowMs: number) {
  return records.map((r) => ({
    id: r.upload.uploadId,
    attempt: r.upload.attempt,
    not_retractable: r.notRetractable,
    status: r.next.state,
    next_at: new Date(r.next.state === 'pending' ? r.next.retryAtMs : nowMs).toISOString(),
    reason_code: r.next.state === 'sent' ? null : r.next.code,
    reason: r.next.state === 'sent' ? (r.next.note ?? null) : r.next.reason,
    maybe_applied: r.maybeApplied,
    not_held: r.notHeld,
    request_id: r.next.state === 'pending' ? (r.next.requestId ?? null) : null,
    awaiting_since:
      r.next.state === 'pending' && r.next.awaitingSinceMs !== undefined
        ? new Date(r.next.awaitingSinceMs).toISOString()
        : null,
    solo: r.next.state === 'pending' ? (r.next.solo ?? r.upload.solo) : r.upload.solo,
  }));
}

/**
 * Moves each upload still leased by `worker` at the same attempt to its new state; a conversion
 * sent after the buyer rejected the call becomes not_retractable where its destination cannot
 * retract (the record's notRetractable reason), and so does one whose platform report orders it
 * sent again: a conversion the buyer rejected is not sent again where it cannot be retracted.
 */
function moveUploads(
  tx: Executor,
  worker: string,
  values: ReturnType<typeof nextStates>,
  now: Date,
): Promise<Moved[]> {
  const unretractable = sql`u.kind = 'conversion' and u.rejected_at is not null
    and v.not_retractable is not null
    and (v.status = 'sent' or (v.status = 'pending' and u.request_id is not null
                               and v.request_id is null))`;
  return rowsOf<Moved>(
    tx,
    sql`update conversion_uploads u set
        status = case when ${unretractable} then 'not_retractable' else v.status end,
        reason_code = case when ${unretractable} then 'not_retractable' else v.reason_code end,
        reason = case when ${unretractable} then v.not_retractable else v.reason end,
        maybe_applied = not v.not_held and (u.maybe_applied or v.maybe_applied),
        request_id = v.request_id, awaiting_since = v.awaiting_since, solo = v.solo,
        next_attempt_at = v.next_at, lease_until = null, leased_by = null,
        sent_at = case when v.status = 'sent' then ${now.toISOString()}::timestamptz else u.sent_at end,
        updated_at = ${now.toISOString()}::timestamptz
      from jsonb_to_recordset(${JSON.stringify(values)}::jsonb)
        as v(id text, attempt integer, not_retractable text, status text, next_at timestamptz,
             reason_code text, reason text, maybe_applied boolean, not_held boolean,
             request_id text, awaiting_since timestamptz, solo boolean)
     where u.id = v.id and u.leased_by = ${worker} and u.attempts = v.attempt
    returning u.id, u.org_id, u.destination_id, u.call_id, u.kind, u.status, u.reason_code,
      u.reason, u.attempts, u.maybe_applied`,
  );
}

/** One attempt row for each record whose upload moved. */
async function insertAttempts(
  tx: Executor,
  records: UploadRecord[],
  moved: Moved[],
  now: Date,
): Promise<void> {
  const kept = new Set(moved.map((m) => m.id));
  await tx.insert(A).values(
    records
      .filter((r) => kept.has(r.upload.uploadId))
      .map((r) => ({
        id: newId('cua', now.getTime()),
        uploadId: r.upload.uploadId,
        orgId: r.upload.orgId,
        destinationId: r.upload.destinationId,
        attempt: r.upload.attempt,
        outcome: r.next.state === 'pending' ? 'retry' : r.next.state,
        statusCode: r.statusCode,
        reason: r.next.state === 'sent' ? (r.next.note ?? null) : r.next.reason,
        startedAt: r.startedAt,
        finishedAt: now,
      })),
  );
}

/**
 * What one moved upload changes elsewhere: a sent retraction marks its conversion retracted; a
 * retraction its destination cannot send marks its conversion not_retractable; a conversion
 * that failed unsent fails its waiting retraction; a final failure not in QUIET_REASONS emits
 * conversion.upload_failed.
 */
/** The upload of `kind` for the same call and destination as `m`. */
const sameCall = (m: Moved, kind: 'conversion' | 'retraction') =>
  and(eq(U.destinationId, m.destination_id), eq(U.callId, m.call_id), eq(U.kind, kind));

async function applyKnockOn(tx: Executor, m: Moved, now: Date): Promise<void> {
  // Written before the destination lost the means to retract (or before retractability was a
  // property of the destination): the conversion stays held, and says so.
  if (m.kind === 'retraction' && m.status === 'failed' && m.reason_code === 'not_retractable') {
    await tx
      .update(U)
      .set({
        status: 'not_retractable',
        reasonCode: 'not_retractable',
        reason: m.reason,
        updatedAt: now,
      })
      .where(sameCall(m, 'conversion'));
  }
  if (m.kind === 'retraction' && m.status === 'sent') {
    await tx
      .update(U)
      .set({ status: 'retracted', updatedAt: now })
      .where(sameCall(m, 'conversion'));
  }
  // A conversion the platform never got: its retraction has nothing to retract.
  if (m.kind === 'conversion' && m.status === 'failed' && !m.maybe_applied) {
    await tx
      .update(U)
      .set({
        status: 'failed',
        reasonCode: 'conversion_not_sent',
        reason: 'the conversion it retracts was never uploaded',
        updatedAt: now,
      })
      .where(and(sameCall(m, 'retraction'), eq(U.status, 'pending')));
  }
  if (m.status === 'failed' && !QUIET_REASONS.has(m.reason_code as ReasonCode)) {
    await emitEvent(tx, {
      orgId: m.org_id,
      type: 'conversion.upload_failed',
      at: now,
      data: uploadFailedData({
        id: m.id,
        destinationId: m.destination_id,
        callId: m.call_id,
        kind: m.kind,
        reasonCode: m.reason_code,
        reason: m.reason,
        attempts: Number(m.attempts),
      }),
    });
  }
}

/**
 * Records a batch in one transaction: every row's new state (fenced by its lease and attempt
 * number), its attempt, the knock-on effects (applyKnockOn; a conversion sent after the buyer
 * rejected the call reads not_retractable where its destination cannot retract), and
 * conversion.upload_failed for final failures.
 */
export async function recordUploads(
  db: Db,
  worker: string,
  records: UploadRecord[],
  nowMs: number,
): Promise<number> {
  const now = new Date(nowMs);
  const values = nextStates(records, nowMs);
  return db.transaction(async (tx) => {
    const moved = await moveUploads(tx, worker, values, now);
    if (moved.length === 0) return 0;
    await insertAttempts(tx, records, moved, now);
    for (const m of moved) await applyKnockOn(tx, m, now);
    return moved.length;
  });
}

/** Reasons a retry or replay cannot change: the facts themselves are missing or final. */
export const UNRETRIABLE = [
  'no_click_id',
  'no_client_id',
  'rejected_before_upload',
  'not_retractable',
];

/** The destination's uploads that `which` picks back to pending, due now; how many. */
async function requeueUploads(
  ex: Executor,
  orgId: string,
  destinationId: string,
  at: Date,
  which: (SQL | undefined)[],
): Promise<number> {
  const r = await ex
    .update(U)
    // Sent again, not checked: a request Google accepted before is no longer awaited.
    .set({
      status: 'pending',
      nextAttemptAt: at,
      requestId: null,
      awaitingSince: null,
      updatedAt: at,
    })
    .where(and(eq(U.orgId, orgId), eq(U.destinationId, destinationId), ...which))
    .returning({ id: U.id });
  return r.length;
}

/** Failed uploads back to pending, due now; the same dedupe key goes out again. */
export async function retryUploads(
  ex: Executor,
  orgId: string,
  destinationId: string,
  uploadId: string | undefined,
  at: Date,
) {
  return requeueUploads(ex, orgId, destinationId, at, [
    eq(U.status, 'failed'),
    uploadId ? eq(U.id, uploadId) : undefined,
    sql`coalesce(${U.reasonCode}, '') not in ('no_click_id', 'no_client_id', 'rejected_before_upload', 'conversion_not_sent')`,
  ]);
}

/**
 * Sends conversions again (sent or failed ones, since a time or of one call): the platform
 * deduplicates on the same key, so a replay repairs a lost upload without doubling one. GA4
 * does not deduplicate a close_convert_lead, so a GA4 conversion it acknowledged stays sent
 * and is named as skipped.
 */
export async function replayUploads(
  ex: Executor,
  orgId: string,
  destinationId: string,
  what: { since?: Date; callId?: string },
  at: Date,
): Promise<{ queued: number; skipped: Skipped[] }> {
  const which = [
    eq(U.kind, 'conversion'),
    inArray(U.status, ['sent', 'failed']),
    sql`${U.rejectedAt} is null`,
    notInArray(sql`coalesce(${U.reasonCode}, '')`, UNRETRIABLE),
    what.since ? gte(U.createdAt, what.since) : undefined,
    what.callId ? eq(U.callId, what.callId) : undefined,
  ];
  const ga4Sent = sql`(${U.status} = 'sent' and exists (select 1 from conversion_destinations d
    where d.id = ${U.destinationId} and d.platform = 'ga4'))`;
  const kept = await ex
    .select({ callId: U.callId })
    .from(U)
    .where(and(eq(U.orgId, orgId), eq(U.destinationId, destinationId), ...which, ga4Sent))
    .orderBy(U.callId);
  const queued = await requeueUploads(ex, orgId, destinationId, at, [
    ...which,
    sql`not ${ga4Sent}`,
  ]);
  return { queued, skipped: kept.map((k) => ({ callId: k.callId, code: 'already_counted' })) };
}

/** At most this many calls per backfill (a replay can be run again with a later --since). */
const BACKFILL_LIMIT = 10_000;

/**
 * Calls of the destination's campaigns that its trigger fires for (a buyer verdict, or a
 * completed call of at least min_seconds), since a time or one call, with no conversion row
 * for this destination: what a destination created after them has never seen.
 */
export async function backfillCandidates(
  ex: Executor,
  d: Pick<Destination, 'orgId' | 'id' | 'campaigns' | 'trigger'>,
  what: { since?: Date; callId?: string },
): Promise<BackfillCandidate[]> {
  const fired =
    d.trigger.event === 'buyer_success'
      ? sql`c.disposition is not null`
      : sql`c.status = 'completed' and c.duration_seconds >= ${d.trigger.min_seconds ?? 0}::integer`;
  const rows = await rowsOf<{
    call_id: string;
    campaign_id: string;
    code: string;
    config: unknown;
    started_at: string | Date;
    from_number: string;
    duration_seconds: number | null;
    disposition: 'success' | 'rejected' | null;
    disposition_event_id: string | null;
    gclid: string | null;
    gbraid: string | null;
    wbraid: string | null;
    fbc: string | null;
    fbp: string | null;
    fbclid: string | null;
    msclkid: string | null;
    landing_url: string | null;
    payout: string | null;
    currency: string;
  }>(
    ex,
    sql`select c.id as call_id, c.campaign_id, k.code, k.config, c.started_at, c.from_number,
          c.duration_seconds, c.disposition, c.disposition_event_id, s.gclid, s.gbraid, s.wbraid,
          s.fbc, s.fbp, s.fbclid, s.msclkid, s.landing_url,
          case when c.buyer_id is null then null else c.payout::text end as payout, o.currency
        from calls c
        join campaigns k on k.id = c.campaign_id
        join orgs o on o.id = c.org_id
        left join dni_sessions s on s.id = c.dni_session_id
       where c.org_id = ${d.orgId} and ${fired}
         and (${d.campaigns === null}::boolean or k.code in (
               select jsonb_array_elements_text(${JSON.stringify(d.campaigns ?? [])}::jsonb)))
         and (${what.since?.toISOString() ?? null}::timestamptz is null
              or c.started_at >= ${what.since?.toISOString() ?? null}::timestamptz)
         and (${what.callId ?? null}::text is null or c.id = ${what.callId ?? null}::text)
         and not exists (select 1 from conversion_uploads u
                          where u.destination_id = ${d.id} and u.call_id = c.id
                            and u.kind = 'conversion')
       order by c.started_at, c.id
       limit ${BACKFILL_LIMIT}::integer`,
  );
  return rows.map((r) => ({
    subject: {
      callId: r.call_id,
      campaignId: r.campaign_id,
      campaignCode: r.code,
      campaignConfig: r.config,
      startedAt: new Date(r.started_at),
      fromNumber: r.from_number,
      durationSeconds: r.duration_seconds,
      gclid: r.gclid,
      gbraid: r.gbraid,
      wbraid: r.wbraid,
      fbc: r.fbc,
      fbp: r.fbp,
      fbclid: r.fbclid,
      msclkid: r.msclkid,
      landingUrl: r.landing_url,
      payout: r.payout,
      currency: r.currency,
    },
    disposition: r.disposition,
    dispositionEventId: r.disposition_event_id,
  }));
}

/** Compare-and-set of a destination's sealed secrets (a rotated refresh token). */
export async function replaceSealedSecrets(
  ex: Executor,
  destinationId: string,
  was: string,
  now: string,
): Promise<boolean> {
  const r = await ex
    .update(D)
    .set({ secrets: now })
    .where(and(eq(D.id, destinationId), eq(D.secrets, was)))
    .returning({ id: D.id });
  return r.length > 0;
}

/** `repos.uploads`: the outbox writes, the worker's claims and records, retry and replay. */
export function createUploadRepository(): UploadRepository {
  return {
    triggeredDestinations,
    callSubject,
    insertUploads,
    lockConversions,
    markRejected,
    priceUnsent,
    claimUploads,
    recordUploads,
    retryUploads,
    replayUploads,
    replaceSealedSecrets,
    backfillCandidates,
  };
}
