import type { UploadOutbox } from '../conversions/ports.js';
import type { AuditLog, Executor, Transaction, UnitOfWork } from '../ports.js';
import type { WebhookEmitters } from '../webhooks/ports.js';

export interface BuyerReportRepos extends UnitOfWork {
  buyerReports: BuyerReportRepository;
  audit: AuditLog;
  /** Conversion uploads queued in the report's transaction (docs/conversions.md). */
  uploads: UploadOutbox;
  events: Pick<WebhookEmitters, 'emitBuyerReport'>;
}

/** Buyer reports and the calls they dispose of: `repos.buyerReports`. */
export interface BuyerReportRepository {
  findReportCampaign(ex: Executor, orgId: string, code: string): Promise<ReportCampaign | null>;
  /**
   * The call, locked until the transaction ends: reports on one call run one after the other,
   * so the disposition mirrored on the call is the latest event. Null: no such call in this
   * organization's campaign.
   */
  lockCallOfCampaign(
    tx: Transaction,
    orgId: string,
    campaignId: string,
    callId: string,
  ): Promise<ReportedCall | null>;
  findReport(
    ex: Executor,
    orgId: string,
    campaignId: string,
    reportId: string,
  ): Promise<StoredReport | null>;
  /** False: another transaction holds that report id (once it commits, `findReport` sees it). */
  insertReport(tx: Transaction, r: NewReport): Promise<boolean>;
  /** Mirrors the latest event on the call, for exports and operators. */
  setCallDisposition(
    tx: Transaction,
    callId: string,
    disposition: Disposition,
    eventId: string,
    at: Date,
  ): Promise<void>;
}

export type Disposition = 'success' | 'rejected';

export interface ReportCampaign {
  id: string;
  code: string;
  reportWindowDays: number;
}

export interface ReportedCall {
  id: string;
  startedAt: Date;
  /** The buyer who answered the call (routing), or null. */
  buyerId: string | null;
}

export interface StoredReport {
  eventId: string;
  callId: string;
  disposition: Disposition;
  notes: string | null;
}

export interface NewReport {
  eventId: string;
  orgId: string;
  campaignId: string;
  callId: string;
  reportId: string;
  disposition: Disposition;
  notes: string | null;
  keyId: string;
  requestId: string | null;
  at: Date;
}
