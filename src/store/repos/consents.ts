import { and, asc, eq } from 'drizzle-orm';
import {
  type ConsentEvent,
  consentFingerprint,
  type NewConsentEvent,
} from '../../domain/consents/events.js';
import type { ConsentRepository, Recorder } from '../../domain/consents/ports.js';
import { newId } from '../../domain/ids.js';
import type { Executor } from '../db.js';
import { consentEvents } from '../schema/outbound.js';
import { emitConsentRevoked } from './webhook-emitters.js';
import { wantsEvent } from './webhook-outbox.js';

export type { Recorder };

type Row = typeof consentEvents.$inferSelect;

export function toEvent(row: Row): ConsentEvent {
  return {
    id: row.id,
    kind: row.kind as ConsentEvent['kind'],
    tier: row.tier as ConsentEvent['tier'],
    ebrBasis: row.ebrBasis as ConsentEvent['ebrBasis'],
    source: row.source,
    capturedAt: row.capturedAt,
    expiresAt: row.expiresAt,
    evidence: row.evidence as Record<string, unknown>,
    reason: row.reason,
    actor: row.actor,
    recordedAt: row.recordedAt,
  };
}

/** Oldest first. */
export async function contactHistory(
  ex: Executor,
  orgId: string,
  e164: string,
): Promise<ConsentEvent[]> {
  const rows = await ex
    .select()
    .from(consentEvents)
    .where(and(eq(consentEvents.orgId, orgId), eq(consentEvents.e164, e164)))
    .orderBy(asc(consentEvents.seq));
  return rows.map(toEvent);
}

/**
 * Appends events; one already on file (same fingerprint) is skipped.
 * Returns the ids of the events actually added. Every revocation, whatever its source (admin
 * API, CSV import, a STOP reply), passes here, so this is where `consent.revoked` is written,
 * in the same transaction as the revocation.
 */
export async function appendConsentEvents(
  ex: Executor,
  by: Recorder,
  events: readonly NewConsentEvent[],
): Promise<string[]> {
  if (events.length === 0) return [];
  const rows = await ex
    .insert(consentEvents)
    .values(
      events.map((e) => ({
        id: newId('cns', by.at.getTime()),
        orgId: by.orgId,
        e164: e.e164,
        kind: e.kind,
        tier: e.tier,
        ebrBasis: e.ebrBasis,
        source: e.source,
        capturedAt: e.capturedAt,
        expiresAt: e.expiresAt,
        evidence: e.evidence,
        reason: e.reason,
        fingerprint: consentFingerprint(e),
        actor: by.actor,
        requestId: by.requestId,
        recordedAt: by.at,
      })),
    )
    .onConflictDoNothing({ target: [consentEvents.orgId, consentEvents.fingerprint] })
    .returning({
      id: consentEvents.id,
      e164: consentEvents.e164,
      kind: consentEvents.kind,
      source: consentEvents.source,
      reason: consentEvents.reason,
      capturedAt: consentEvents.capturedAt,
    });
  const revoked = rows.filter((r) => r.kind !== 'grant');
  // A bulk import may revoke thousands: ask once whether anyone listens.
  if (revoked.length > 1 && !(await wantsEvent(ex, by.orgId, 'consent.revoked'))) {
    return rows.map((r) => r.id);
  }
  for (const r of revoked) {
    await emitConsentRevoked(
      ex,
      {
        orgId: by.orgId,
        consentEventId: r.id,
        e164: r.e164,
        kind: r.kind,
        source: r.source,
        reason: r.reason,
        actor: by.actor,
        revokedAt: r.capturedAt,
      },
      by.at,
    );
  }
  return rows.map((r) => r.id);
}

/** `repos.consents`. */
export function createConsentRepository(): ConsentRepository {
  return { appendConsentEvents, contactHistory };
}
