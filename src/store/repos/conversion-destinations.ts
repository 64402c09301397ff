import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { CallSubject, UploadFacts } from '../../domain/conversions/facts.js';
import type {
  ConversionState,
  Destination,
  DestinationChange,
  DestinationRepository,
  NewUpload,
  Trigger,
} from '../../domain/conversions/ports.js';
import type { Platform, ReasonCode, UploadStatus } from '../../domain/conversions/vocabulary.js';
import type { Executor, Tx } from '../db.js';
import { first } from '../rows.js';
import { conversionDestinations as D, conversionUploads as U } from '../schema/conversions.js';
import { calls, campaigns, dniSessions, orgs } from '../schema/index.js';

type Row = typeof D.$inferSelect;

const toDestination = (r: Row): Destination => ({
  ...r,
  platform: r.platform as Platform,
  trigger: r.trigger as Trigger,
  value: r.value as Destination['value'],
  settings: r.settings as Record<string, string>,
  secretsMask: r.secretsMask as Record<string, string>,
});

export async function getDestination(ex: Executor, orgId: string, id: string) {
  const [r] = await ex
    .select()
    .from(D)
    .where(and(eq(D.orgId, orgId), eq(D.id, id)));
  return r ? toDestination(r) : null;
}

export async function listDestinations(ex: Executor, orgId: string) {
  const rows = await ex
    .select()
    .from(D)
    .where(eq(D.orgId, orgId))
    .orderBy(asc(D.createdAt), asc(D.id));
  return rows.map(toDestination);
}

export async function insertDestination(ex: Executor, d: Destination) {
  const [r] = await ex.insert(D).values(d).returning();
  return toDestination(r!);
}

export async function updateDestination(
  ex: Executor,
  orgId: string,
  id: string,
  c: DestinationChange,
) {
  const [r] = await ex
    .update(D)
    .set(c)
    .where(and(eq(D.orgId, orgId), eq(D.id, id)))
    .returning();
  return r ? toDestination(r) : null;
}

export async function deleteDestination(ex: Executor, orgId: string, id: string) {
  const r = await ex
    .delete(D)
    .where(and(eq(D.orgId, orgId), eq(D.id, id)))
    .returning({ id: D.id });
  return r.length > 0;
}

export async function unknownCampaignCodes(ex: Executor, orgId: string, codes: readonly string[]) {
  if (codes.length === 0) return [];
  const found = await ex
    .select({ code: campaigns.code })
    .from(campaigns)
    .where(and(eq(campaigns.orgId, orgId), inArray(campaigns.code, [...codes])));
  const known = new Set(found.map((f) => f.code));
  return codes.filter((c) => !known.has(c));
}

export function allSealedSecrets(ex: Executor) {
  return ex.select({ id: D.id, secrets: D.secrets }).from(D);
}

/** Every enabled destination's platform and settings (the API-version readiness check). */
export async function enabledPlatformSettings(ex: Executor) {
  const rows = await ex
    .select({ platform: D.platform, settings: D.settings })
    .from(D)
    .where(eq(D.enabled, true));
  return rows.map((r) => ({
    platform: r.platform as Platform,
    settings: (r.settings ?? {}) as Record<string, string>,
  }));
}

export async function setSealedSecrets(ex: Executor, id: string, secrets: string) {
  await ex.update(D).set({ secrets }).where(eq(D.id, id));
}

export async function triggeredDestinations(
  ex: Executor,
  orgId: string,
  campaignCode: string,
  event: Trigger['event'],
) {
  const rows = await ex
    .select()
    .from(D)
    .where(
      and(
        eq(D.orgId, orgId),
        eq(D.enabled, true),
        sql`${D.trigger}->>'event' = ${event}`,
        sql`(${D.campaigns} is null or ${campaignCode}::text = any(${D.campaigns}))`,
      ),
    )
    .orderBy(asc(D.id));
  return rows.map(toDestination);
}

export async function callSubject(
  ex: Executor,
  orgId: string,
  callId: string,
): Promise<CallSubject | null> {
  return first(
    ex
      .select({
        callId: calls.id,
        campaignId: calls.campaignId,
        campaignCode: campaigns.code,
        campaignConfig: campaigns.config,
        startedAt: calls.startedAt,
        fromNumber: calls.fromNumber,
        durationSeconds: calls.durationSeconds,
        gclid: dniSessions.gclid,
        gbraid: dniSessions.gbraid,
        wbraid: dniSessions.wbraid,
        fbc: dniSessions.fbc,
        fbp: dniSessions.fbp,
        fbclid: dniSessions.fbclid,
        msclkid: dniSessions.msclkid,
        landingUrl: dniSessions.landingUrl,
        payout: sql<
          string | null
        >`case when ${calls.buyerId} is null then null else ${calls.payout}::text end`,
        currency: orgs.currency,
      })
      .from(calls)
      .innerJoin(campaigns, eq(campaigns.id, calls.campaignId))
      .innerJoin(orgs, eq(orgs.id, calls.orgId))
      .leftJoin(dniSessions, eq(dniSessions.id, calls.dniSessionId))
      .where(and(eq(calls.orgId, orgId), eq(calls.id, callId))),
  );
}

export async function insertUploads(tx: Tx, rows: NewUpload[]) {
  if (rows.length === 0) return 0;
  const inserted = await tx
    .insert(U)
    .values(
      rows.map((r) => ({
        id: r.id,
        orgId: r.orgId,
        destinationId: r.destinationId,
        callId: r.callId,
        kind: r.kind,
        eventId: r.eventId,
        dedupeKey: r.dedupeKey,
        status: r.status,
        facts: r.facts,
        nextAttemptAt: r.at,
        reason: r.reason,
        reasonCode: r.reasonCode,
        createdAt: r.at,
        updatedAt: r.at,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: U.id });
  return inserted.length;
}

export async function lockConversions(
  tx: Tx,
  orgId: string,
  callId: string,
  at: Date,
): Promise<ConversionState[]> {
  const rows = await tx
    .select({
      uploadId: U.id,
      destinationId: U.destinationId,
      platform: D.platform,
      settings: D.settings,
      secretsMask: D.secretsMask,
      status: U.status,
      leaseUntil: U.leaseUntil,
      rejectedAt: U.rejectedAt,
      maybeApplied: U.maybeApplied,
      requestId: U.requestId,
      dedupeKey: U.dedupeKey,
      facts: U.facts,
    })
    .from(U)
    .innerJoin(D, eq(D.id, U.destinationId))
    .where(and(eq(U.orgId, orgId), eq(U.callId, callId), eq(U.kind, 'conversion')))
    .orderBy(asc(U.id))
    .for('update', { of: U });
  return rows.map((r) => ({
    uploadId: r.uploadId,
    destinationId: r.destinationId,
    destination: {
      platform: r.platform as Platform,
      settings: r.settings as Record<string, string>,
      secretNames: Object.keys(r.secretsMask as Record<string, string>),
    },
    status: r.status as UploadStatus,
    leased: r.leaseUntil !== null && r.leaseUntil.getTime() > at.getTime(),
    awaiting: r.status === 'pending' && r.requestId !== null,
    rejected: r.rejectedAt !== null,
    maybeApplied: r.maybeApplied,
    dedupeKey: r.dedupeKey,
    facts: r.facts as UploadFacts,
  }));
}

export async function markRejected(
  tx: Tx,
  uploadId: string,
  c: { status?: UploadStatus; reasonCode?: ReasonCode; reason?: string; at: Date },
) {
  await tx
    .update(U)
    .set({
      rejectedAt: c.at,
      updatedAt: c.at,
      ...(c.status ? { status: c.status } : {}),
      ...(c.reasonCode ? { reasonCode: c.reasonCode, reason: c.reason ?? null } : {}),
    })
    .where(and(eq(U.id, uploadId), isNull(U.rejectedAt)));
}

export async function priceUnsent(tx: Tx, orgId: string, callId: string, payout: string, at: Date) {
  await tx.execute(sql`
    update conversion_uploads u
       set facts = u.facts || jsonb_build_object('value', ${payout}::numeric, 'currency', o.currency),
           updated_at = ${at.toISOString()}::timestamptz
      from conversion_destinations d, orgs o
     where u.org_id = ${orgId} and u.call_id = ${callId} and u.kind = 'conversion'
       and u.status = 'pending' and u.attempts = 0 and u.lease_until is null
       and u.request_id is null and not u.maybe_applied and u.rejected_at is null
       and d.id = u.destination_id and d.value is null and o.id = u.org_id`);
}

/** `repos.destinations`. */
export function createDestinationRepository(): DestinationRepository {
  return {
    getDestination,
    listDestinations,
    insertDestination,
    updateDestination,
    deleteDestination,
    unknownCampaignCodes,
    allSealedSecrets,
    setSealedSecrets,
    enabledPlatformSettings,
  };
}
