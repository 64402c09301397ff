import { and, eq } from 'drizzle-orm';
import type {
  BuyerReportRepository,
  Disposition,
  NewReport,
  ReportCampaign,
  ReportedCall,
  StoredReport,
} from '../../domain/buyer-reports/ports.js';
import type { Executor, Tx } from '../db.js';
import { first } from '../rows.js';
import { calls } from '../schema/index.js';
import { buyerReportEvents } from '../schema/reports.js';
import { findCampaign } from './campaigns.js';

export type { Disposition, NewReport, ReportCampaign, ReportedCall, StoredReport };

/**
 * The call, locked until the transaction ends: reports on one call run one
 * after the other, so the disposition mirrored on the call is the latest event.
 * Null: no such call in this organization's campaign.
 */
export async function lockCallOfCampaign(
  tx: Tx,
  orgId: string,
  campaignId: string,
  callId: string,
): Promise<ReportedCall | null> {
  return first(
    tx
      .select({ id: calls.id, startedAt: calls.startedAt, buyerId: calls.buyerId })
      .from(calls)
      .where(and(eq(calls.id, callId), eq(calls.orgId, orgId), eq(calls.campaignId, campaignId)))
      .for('update'),
  );
}

export async function findReport(
  ex: Executor,
  orgId: string,
  campaignId: string,
  reportId: string,
): Promise<StoredReport | null> {
  const [r] = await ex
    .select({
      eventId: buyerReportEvents.id,
      callId: buyerReportEvents.callId,
      disposition: buyerReportEvents.disposition,
      notes: buyerReportEvents.notes,
    })
    .from(buyerReportEvents)
    .where(
      and(
        eq(buyerReportEvents.orgId, orgId),
        eq(buyerReportEvents.campaignId, campaignId),
        eq(buyerReportEvents.reportId, reportId),
      ),
    );
  return r ? { ...r, disposition: r.disposition as Disposition } : null;
}

/**
 * Inserts the event unless the report id is taken. False: another
 * transaction holds that report id (once it commits, `findReport` sees it).
 */
export async function insertReport(tx: Tx, r: NewReport): Promise<boolean> {
  const inserted = await tx
    .insert(buyerReportEvents)
    .values({
      id: r.eventId,
      orgId: r.orgId,
      campaignId: r.campaignId,
      callId: r.callId,
      reportId: r.reportId,
      disposition: r.disposition,
      notes: r.notes,
      keyId: r.keyId,
      requestId: r.requestId,
      at: r.at,
    })
    .onConflictDoNothing({
      target: [buyerReportEvents.orgId, buyerReportEvents.campaignId, buyerReportEvents.reportId],
    })
    .returning({ id: buyerReportEvents.id });
  return inserted.length > 0;
}

/** Mirrors the latest event on the call, for exports and operators. */
export async function setCallDisposition(
  tx: Tx,
  callId: string,
  disposition: Disposition,
  eventId: string,
  at: Date,
): Promise<void> {
  await tx
    .update(calls)
    .set({ disposition, dispositionEventId: eventId, dispositionAt: at })
    .where(eq(calls.id, callId));
}

/** `repos.buyerReports`. */
export function createBuyerReportRepository(): BuyerReportRepository {
  return {
    findReportCampaign: findCampaign,
    lockCallOfCampaign,
    findReport,
    insertReport,
    setCallDisposition,
  };
}
