import type { SuppressionList } from '../compliance/types.js';
import type { ConsentEvent } from '../consents/events.js';
import type { ConversionQueries } from '../conversions/queries.js';
import type { PoolObservation, SessionRow } from '../dni/ports.js';
import type { ReportQueries } from '../reports/ports.js';
import type { SuppressionEntry as SuppressionEntryRow } from '../suppression/ports.js';
import type { ApiKey, Campaign, Org, WebhookEndpoint } from './ports.js';

/**
 * The admin API's reads, declared here beside the repositories (ports.ts) and implemented in
 * src/store/queries/. A query reads committed rows outside any transaction, so it takes no
 * executor; every row of an organization is asked for with its id, and one of another
 * organization reads as missing. Rows carry what the views read (src/domain/admin/views.ts).
 * New reads (reports, the console) add an interface here and a member of `Queries`.
 */

/** `limit` rows strictly after `after` (the route asks for one more than it shows: paging.ts). */
export interface Window {
  limit: number;
  after?: string | undefined;
}

/** `since` inclusive, `until` exclusive, so consecutive windows neither overlap nor leave gaps. */
export interface TimeRange {
  since?: Date | undefined;
  until?: Date | undefined;
}

export type KeyStatus = 'active' | 'revoked' | 'expired';

export interface CampaignSummaryRow {
  campaign: Campaign;
  poolSize: number;
  overflowNumber: string | null;
}

export interface TrackingNumberRow {
  number: {
    e164: string;
    role: string;
    heldUntil: Date | null;
    lastAssignedAt: Date | null;
    createdAt: Date;
  };
  /** The live session holding the number now, else null. */
  sessionId: string | null;
  visitorId: string | null;
}

export interface NumberFilter {
  role?: 'pool' | 'overflow' | undefined;
  /** held: a live session holds it now; free: nobody does. */
  state?: 'held' | 'free' | undefined;
  now: Date;
}

/** Organizations, keys, campaigns and numbers: configuration, never a secret. */
export interface ConfigQueries {
  listOrgs(w: Window): Promise<Org[]>;
  listKeys(
    orgId: string,
    w: Window & { status?: KeyStatus | undefined; now: Date },
  ): Promise<ApiKey[]>;
  findKey(keyId: string): Promise<ApiKey | null>;
  listCampaigns(orgId: string, w: Window): Promise<CampaignSummaryRow[]>;
  findCampaign(orgId: string, code: string): Promise<Campaign | null>;
  listNumbers(campaignId: string, w: Window & NumberFilter): Promise<TrackingNumberRow[]>;
  findNumber(campaignId: string, e164: string, now: Date): Promise<TrackingNumberRow | null>;
}

export interface CallReportRow {
  id: string;
  reportId: string;
  disposition: string;
  notes: string | null;
  keyId: string;
  at: Date;
}

/** A call with its campaign's code and the session it was attributed to, when there is one. */
export interface CallRow {
  call: {
    id: string;
    trackingNumber: string;
    fromNumber: string;
    startedAt: Date;
    attribution: string;
    ambiguous: boolean;
    dniSessionId: string | null;
    carrier: string | null;
    carrierCallSid: string | null;
    status: string | null;
    durationSeconds: number | null;
    endedAt: Date | null;
    disposition: string | null;
    dispositionAt: Date | null;
    /** Routing (docs/routing.md): who answered, whether billable, the payout ("12.50"). */
    buyerId: string | null;
    billable: boolean | null;
    payout: string | null;
    createdAt: Date;
  };
  campaignCode: string;
  session: SessionRow | null;
  /** The call's source as reports name it (docs/reporting.md): `unattributed` without a session. */
  source: string;
}

export interface CallFilter extends TimeRange {
  campaignId?: string | undefined;
  /** The carrier's latest status (completed, busy, …). */
  status?: string | undefined;
  attribution?: string | undefined;
  /** What the carrier said, as reports count it (docs/reporting.md): answered, missed, pending. */
  outcome?: CallOutcome | undefined;
  /** The call's source as reports name it (report_source), `unattributed` without a session. */
  source?: string | undefined;
}

export const CALL_OUTCOMES = ['answered', 'missed', 'pending'] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

export interface TouchRow {
  id: string;
  campaignId: string;
  toE164: string;
  channel: string;
  status: string;
  reasons: unknown;
  checks: unknown;
  consentBasis: string;
  decidedAt: Date;
  nextAllowedAt: Date | null;
  variant: string | null;
  cadenceStep: number | null;
  placed: boolean;
  dispatchStatus: string | null;
  attempts: number;
  carrier: string | null;
  carrierIds: string[];
  lastError: string | null;
  finalizedAt: Date | null;
}

export interface TouchFilter extends TimeRange {
  campaignId?: string | undefined;
  /** The decision: queued | blocked. */
  status?: string | undefined;
  /** Placed touches: pending | delivered | failed | unknown. */
  dispatchStatus?: string | undefined;
  toE164?: string | undefined;
}

/** One carrier attempt of a placed touch. */
export interface CarrierAttemptRow {
  attempt: number;
  outcome: string;
  carrier: string;
  carrierId: string | null;
  error: string | null;
  startedAt: Date;
  finishedAt: Date | null;
}

export interface ConsentFilter extends TimeRange {
  e164?: string | undefined;
  /** grant | revoked | opt_out | internal_dnc */
  kind?: string | undefined;
}

/** A consent event as recorded, with its contact and its place in the log. */
export interface ConsentEventRow extends ConsentEvent {
  seq: number;
  e164: string;
}

/** What happened in an organization: calls, touches, consent events. Newest first. */
export interface ActivityQueries {
  listCalls(orgId: string, w: Window & CallFilter): Promise<CallRow[]>;
  findCall(orgId: string, callId: string): Promise<CallRow | null>;
  /** The call's buyer reports, oldest first. */
  callReports(orgId: string, callId: string): Promise<CallReportRow[]>;
  listTouches(
    orgId: string,
    w: Window & TouchFilter,
  ): Promise<{ touch: TouchRow; campaignCode: string }[]>;
  findTouch(orgId: string, touchId: string): Promise<TouchRow | null>;
  /** In attempt order. */
  touchAttempts(orgId: string, touchId: string): Promise<CarrierAttemptRow[]>;
  listConsentEvents(
    orgId: string,
    w: { limit: number; after?: number | undefined } & ConsentFilter,
  ): Promise<ConsentEventRow[]>;
  /** How many consent events the filter matches, however many a page shows. */
  countConsentEvents(orgId: string, f: ConsentFilter): Promise<number>;
}

export interface AuditFilter {
  limit: number;
  /** An exact action, or a prefix ending in `*` (`buyer_report.*`). */
  action?: string | undefined;
  subjectId?: string | undefined;
  since?: Date | undefined;
  until?: Date | undefined;
  /** The `seq` of the last entry of the previous page. */
  before?: number | undefined;
}

export interface AuditRow {
  seq: number;
  id: string;
  at: Date;
  actor: string;
  action: string;
  subjectType: string;
  subjectId: string;
  detail: unknown;
  requestId: string | null;
}

export interface AuditQueries {
  /** Newest first. */
  listAudit(orgId: string, q: AuditFilter): Promise<AuditRow[]>;
}

export type { SuppressionEntryRow };

export interface SuppressionQueries {
  getEntry(
    orgId: string,
    list: SuppressionList,
    number: string,
  ): Promise<SuppressionEntryRow | null>;
  /** In number order, `limit` rows strictly after the number `after` (digits). */
  listEntries(
    orgId: string,
    list: SuppressionList,
    w: { limit: number; after?: string | undefined; state?: string | undefined },
  ): Promise<SuppressionEntryRow[]>;
  litigatorBlocks(orgId: string): Promise<boolean>;
}

export interface DeliveryRow {
  d: {
    id: string;
    eventId: string;
    state: string;
    attempts: number;
    nextAttemptAt: Date;
    lastStatus: number | null;
    lastError: string | null;
    deliveredAt: Date | null;
    createdAt: Date;
  };
  type: string;
}

export interface WebhookAttemptRow {
  id: string;
  deliveryId: string;
  eventId: string;
  attempt: number;
  outcome: string;
  statusCode: number | null;
  latencyMs: number | null;
  responseHead: string | null;
  error: string | null;
  startedAt: Date;
  finishedAt: Date | null;
}

export interface WebhookQueries {
  /** Newest first (by id, which grows with time), strictly before `before` when given. */
  listDeliveries(
    orgId: string,
    endpointId: string,
    o: { state?: string | undefined; limit: number; before?: string | undefined },
  ): Promise<DeliveryRow[]>;
  /** Oldest first (ids grow with time): `limit` endpoints with ids after `after`. */
  listEndpoints(
    orgId: string,
    o: { limit: number; after?: string | undefined },
  ): Promise<WebhookEndpoint[]>;
  /** Newest first. */
  listAttempts(
    orgId: string,
    endpointId: string,
    o: { eventId?: string | undefined; limit: number },
  ): Promise<WebhookAttemptRow[]>;
}

export interface PoolQueries {
  /** Reads a campaign's pool, sessions and calls in [since, now]. */
  observePool(campaignId: string, since: Date, now: Date): Promise<PoolObservation>;
}

/** A call as the console shows it: its session with the visit's number, kind and hits. */
export interface ConsoleCallRow extends CallRow {
  session: (SessionRow & ConsoleSessionFacts) | null;
}

export interface ConsoleSessionFacts {
  trackingNumber: string;
  kind: string;
  hits: number;
  createdAt: Date;
}

export interface CallSearch {
  since: Date;
  until: Date;
  /** A call id, a phone number (any digits of it), or text in the visit's UTMs or landing URL. */
  q?: string | undefined;
  campaignId?: string | undefined;
  outcome?: CallOutcome | undefined;
  source?: string | undefined;
  /** The buyer that answered the call (contract §11). */
  buyerId?: string | undefined;
  limit: number;
  /** The id of the last call of the previous page. */
  after?: string | undefined;
}

export interface CallReportRow {
  id: string;
  reportId: string;
  disposition: string;
  notes: string | null;
  at: Date;
}

export interface SuppressionSummaryRow {
  list: string;
  entries: number;
  /** The newest import's list date (YYYY-MM-DD). */
  listed_on: string | null;
  imported_at: string | null;
}

export interface OrgMemberRow {
  userId: string;
  email: string;
  role: string;
}

/** Deliveries of one endpoint made in a range, by where they stand. */
export interface DeliveryCountRow {
  endpointId: string;
  /** Every delivery made in the range. */
  total: number;
  delivered: number;
  /** Given up: out of attempts, or the endpoint answered 410. */
  failed: number;
  /** Not delivered yet after at least one failed attempt. */
  retrying: number;
  /** Not tried yet. */
  queued: number;
}

/** The web console's reads beyond the admin lists (src/store/queries/console.ts). */
export interface ConsoleQueries {
  /** Latest start first (ties by id). */
  searchCalls(orgId: string, s: CallSearch): Promise<ConsoleCallRow[]>;
  findCall(orgId: string, callId: string): Promise<ConsoleCallRow | null>;
  /** Every buyer report of the call, oldest first: the last one is the current disposition. */
  callReports(orgId: string, callId: string): Promise<CallReportRow[]>;
  /** The audit lines about these subjects, oldest first. */
  callAudit(orgId: string, subjectIds: string[]): Promise<AuditRow[]>;
  /** Each suppression list of the organization: entries, and its newest import (freshness). */
  suppressionSummary(orgId: string): Promise<SuppressionSummaryRow[]>;
  /** Everyone with a role in the organization, by email. */
  orgMembers(orgId: string): Promise<OrgMemberRow[]>;
  /** Per endpoint of the organization (one row each), its deliveries created in [since, until). */
  deliveryCounts(orgId: string, since: Date, until: Date): Promise<DeliveryCountRow[]>;
}

/** Every admin read, in one object: what src/store/queries/index.ts builds (`AppDeps.queries`). */
export interface Queries {
  /** The organization, or null: the org-scoped admin plugin resolves it once per request. */
  findOrg(orgId: string): Promise<Org | null>;
  config: ConfigQueries;
  activity: ActivityQueries;
  audit: AuditQueries;
  suppression: SuppressionQueries;
  webhooks: WebhookQueries;
  pool: PoolQueries;
  /** Conversion destinations, uploads and attempts (docs/conversions.md). */
  conversions: ConversionQueries;
  /** The report read model (src/store/queries/reports.ts). */
  reports: ReportQueries;
  /** The web console's own reads. */
  console: ConsoleQueries;
}
