import { enqueueConversions, retractConversions } from '../conversions/enqueue.js';
import { newId } from '../ids.js';
import type { Transaction } from '../ports.js';
import type { BuyerReportRepos, Disposition, ReportCampaign, StoredReport } from './ports.js';

export interface BuyerReportInput {
  call_id: string;
  report_id: string;
  disposition: Disposition;
  notes?: string | undefined;
}

export interface ReportContext {
  orgId: string;
  keyId: string;
  /** A key bound to a buyer reports on the calls that buyer answered only. */
  buyerId?: string | null;
  requestId: string | null;
  now: Date;
}

export type RefusalReason = 'report_id_reused' | 'report_window_closed';

export type ReportOutcome =
  | { kind: 'created'; eventId: string }
  | { kind: 'replayed'; eventId: string }
  | { kind: 'refused'; reason: RefusalReason; windowDays: number }
  | { kind: 'campaign_not_found' }
  | { kind: 'call_not_found' };

const DAY_MS = 86_400_000;

/** A report may arrive up to `windowDays` after the call started, boundary included. */
export function withinReportWindow(startedAt: Date, windowDays: number, now: Date): boolean {
  return now.getTime() - startedAt.getTime() <= windowDays * DAY_MS;
}

/** A replay repeats the call, disposition and notes exactly; an absent note equals an absent note only. */
export function samePayload(stored: StoredReport, input: BuyerReportInput): boolean {
  return (
    stored.callId === input.call_id &&
    stored.disposition === input.disposition &&
    stored.notes === (input.notes ?? null)
  );
}

/** Writes one audit line about the report, in its transaction, with the report's fields. */
function reportAudit(
  repos: BuyerReportRepos,
  tx: Transaction,
  ctx: ReportContext,
  campaign: ReportCampaign,
  callId: string,
  input: BuyerReportInput,
) {
  return (action: string, detail: Record<string, unknown>) =>
    repos.audit.writeAudit(tx, {
      orgId: ctx.orgId,
      actor: `key:${ctx.keyId}`,
      action,
      subjectType: 'call',
      subjectId: callId,
      detail: {
        campaign_code: campaign.code,
        report_id: input.report_id,
        disposition: input.disposition,
        notes: input.notes ?? null,
        ...detail,
      },
      requestId: ctx.requestId,
      at: ctx.now,
    });
}

/**
 * A created report's outboxes: the buyer_report webhook, and the conversion uploads it queues
 * (success) or retracts (rejected), committing with the report (docs/conversions.md).
 */
async function announceCreated(
  repos: BuyerReportRepos,
  tx: Transaction,
  ctx: ReportContext,
  campaign: ReportCampaign,
  callId: string,
  input: BuyerReportInput,
  eventId: string,
): Promise<void> {
  await repos.events.emitBuyerReport(
    tx,
    {
      orgId: ctx.orgId,
      eventId,
      reportId: input.report_id,
      callId,
      campaignCode: campaign.code,
      disposition: input.disposition,
      notes: input.notes ?? null,
    },
    ctx.now,
  );
  const facts = { orgId: ctx.orgId, callId, eventId, at: ctx.now };
  if (input.disposition === 'success') {
    await enqueueConversions(
      repos.uploads,
      tx,
      { ...facts, campaignCode: campaign.code },
      'buyer_success',
    );
  } else {
    await retractConversions(repos.uploads, tx, facts);
  }
}

/**
 * Records a buyer report (contract §4). Every outcome past the lookups is a
 * value, and each one's audit line commits in the same transaction as the
 * event it describes (or as nothing, for a replay or a refusal).
 */
export async function postBuyerReport(
  repos: BuyerReportRepos,
  ctx: ReportContext,
  campaignCode: string,
  input: BuyerReportInput,
): Promise<ReportOutcome> {
  const reports = repos.buyerReports;
  return repos.transaction(async (tx) => {
    const campaign = await reports.findReportCampaign(tx, ctx.orgId, campaignCode);
    if (!campaign) return { kind: 'campaign_not_found' };
    const call = await reports.lockCallOfCampaign(tx, ctx.orgId, campaign.id, input.call_id);
    // Another buyer's call (or one no buyer answered) is as unknown to a buyer's key as a missing one.
    if (!call || (ctx.buyerId && call.buyerId !== ctx.buyerId)) return { kind: 'call_not_found' };

    const audit = reportAudit(repos, tx, ctx, campaign, call.id, input);
    const answerExisting = async (stored: StoredReport): Promise<ReportOutcome> => {
      if (samePayload(stored, input)) {
        await audit('buyer_report.replayed', { event_id: stored.eventId });
        return { kind: 'replayed', eventId: stored.eventId };
      }
      await audit('buyer_report.refused', {
        reason: 'report_id_reused',
        event_id: stored.eventId,
      });
      return { kind: 'refused', reason: 'report_id_reused', windowDays: campaign.reportWindowDays };
    };

    // A retry of an acknowledged report gets its first answer, even after the window closed.
    const existing = await reports.findReport(tx, ctx.orgId, campaign.id, input.report_id);
    if (existing) return answerExisting(existing);
    if (!withinReportWindow(call.startedAt, campaign.reportWindowDays, ctx.now)) {
      await audit('buyer_report.refused', {
        reason: 'report_window_closed',
        report_window_days: campaign.reportWindowDays,
        call_started_at: call.startedAt.toISOString(),
      });
      return {
        kind: 'refused',
        reason: 'report_window_closed',
        windowDays: campaign.reportWindowDays,
      };
    }

    const eventId = newId('evt', ctx.now.getTime());
    const inserted = await reports.insertReport(tx, {
      eventId,
      orgId: ctx.orgId,
      campaignId: campaign.id,
      callId: call.id,
      reportId: input.report_id,
      disposition: input.disposition,
      notes: input.notes ?? null,
      keyId: ctx.keyId,
      requestId: ctx.requestId,
      at: ctx.now,
    });
    if (!inserted) {
      // Another call's report took this report id while we waited; it has committed by now.
      const winner = await reports.findReport(tx, ctx.orgId, campaign.id, input.report_id);
      if (!winner) throw new Error('report id conflict without a committed report');
      return answerExisting(winner);
    }
    await reports.setCallDisposition(tx, call.id, input.disposition, eventId, ctx.now);
    await audit('buyer_report.created', { event_id: eventId });
    await announceCreated(repos, tx, ctx, campaign, call.id, input, eventId);
    return { kind: 'created', eventId };
  });
}
