import type { ConsentLog } from '../consents/ports.js';
import type { UploadOutbox } from '../conversions/ports.js';
import type { Attribution } from '../dni/attribution.js';
import type { TouchRecorder } from '../outbound/ports.js';
import type { AuditEntry, Executor, Transaction, UnitOfWork } from '../ports.js';
import type { RoutingPlan } from '../routing/ports.js';
import type { CallRoutingRepos } from '../routing/route-call.js';
import type { PricedOffer } from '../routing/types.js';
import type { Fallback } from '../routing/vocabulary.js';
import type { WebhookEmitters } from '../webhooks/ports.js';

/** A carrier's voice and status webhooks (inbound.ts). */
export interface InboundCallRepos extends UnitOfWork, CallRoutingRepos {
  calls: InboundCallRepository;
  /** Conversion uploads queued when an answered call completes (docs/conversions.md). */
  uploads: UploadOutbox;
  events: Pick<WebhookEmitters, 'emitCallCompleted' | 'emitCallRouted' | 'emitCallBillable'>;
}

/** Inbound calls and their carrier status: `repos.calls`. */
export interface InboundCallRepository {
  /**
   * Serialises webhooks for these carrier calls until the transaction ends, and reads the calls
   * as stored once the locks are held, by carrier call id (absent: not stored yet).
   */
  lockCarrierCalls(
    tx: Transaction,
    carrier: string,
    callSids: readonly string[],
  ): Promise<Map<string, CarrierCall>>;
  /**
   * lockCarrierCalls for the first webhooks of calls (a voice webhook's batch), and in the same
   * round trip what recording them reads, for recordRoutedCalls (docs/routing.md, "A whole
   * call"). Each request carries its carrier call.
   */
  lockRingingCalls(
    tx: Transaction,
    carrier: string,
    requests: readonly InboundCallRequest[],
  ): Promise<{ known: Map<string, CarrierCall>; gathered: GatheredCalls }>;
  /**
   * lockCarrierCalls for one call whose organization and campaign are known (a Dial action's
   * second transaction), and in the same round trip its campaign's routing plan, by campaign id
   * (none: the campaign has no plan).
   */
  lockRoutedCall(
    tx: Transaction,
    carrier: string,
    callSid: string,
    call: { orgId: string; campaignId: string },
  ): Promise<{ known: CarrierCall | null; plans: Map<string, RoutingPlan> }>;
  /** The call's new status, with its audit line (one statement). */
  setCarrierCallStatus(
    tx: Transaction,
    callId: string,
    change: CallStatusChange,
    audit: AuditEntry,
  ): Promise<void>;
  /**
   * Attributes inbound calls to the sessions that held their numbers and stores them, with
   * their audit lines and `call.received` events. `orgId` restricts the lookup to one
   * organization; null accepts any organization's number. Null at a call's place: no campaign
   * answers for that number.
   */
  recordInboundCalls(
    ex: Executor,
    orgId: string | null,
    requests: readonly InboundCallRequest[],
    actor: string,
  ): Promise<(RecordedCall | null)[]>;
  /**
   * recordInboundCalls for any organization's numbers, with the routing plans of the calls'
   * campaigns (a campaign without one has no entry), read in the same statement as the write.
   */
  recordRoutedCalls(
    ex: Executor,
    requests: readonly InboundCallRequest[],
    actor: string,
    gathered?: GatheredCalls,
  ): Promise<RoutedCalls>;
}

declare const gatheredCalls: unique symbol;
/** What lockRingingCalls read for recording its calls: only recordRoutedCalls reads it. */
export interface GatheredCalls {
  readonly [gatheredCalls]: true;
}

export interface RoutedCalls {
  calls: (RecordedCall | null)[];
  /** By campaign id. */
  plans: Map<string, RoutingPlan>;
}

/** STOP replies and keypress opt-outs (opt-out.ts). */
export interface OptOutRepos extends UnitOfWork, ConsentLog {
  optOuts: OptOutRepository;
  touches: TouchRecorder;
}

/** Who owns a number, and which touch a keypress answers: `repos.optOuts`. */
export interface OptOutRepository {
  /** Every organization that owns a number: as a tracking number or as a campaign's caller id. */
  ownersOfNumber(ex: Executor, e164: string): Promise<NumberOwner[]>;
  /** The touch a keypress answers, whatever its organization: the id in the URL is the only key. */
  touchForKeypress(ex: Executor, touchId: string): Promise<KeypressTouch | null>;
  /** The MessageSids of the replies a clarification text to the contact answered. */
  clarificationsSent(ex: Executor, orgId: string, contact: string): Promise<string[]>;
}

export interface KeypressTouch {
  id: string;
  orgId: string;
  campaignId: string;
  toE164: string;
  channel: string;
}

export interface NumberOwner {
  orgId: string;
  optOutPhrases: string[];
  /** Ask once before revoking on an ambiguous reply (the organization's setting). */
  optOutClarification: boolean;
  /** The organization's campaigns that use the number, by id (for the confirmation text). */
  campaigns: { id: string; config: Record<string, unknown> }[];
}

export interface CarrierCall {
  callId: string;
  orgId: string;
  campaignId: string;
  campaignCode: string;
  /** The campaign's forward_to. */
  forwardTo: string | null;
  status: string | null;
  fromNumber: string;
  startedAt: Date;
  /** Routing: the buyer who answered, and the fallback the call went to (docs/routing.md). */
  buyerId: string | null;
  fallback: Fallback | null;
  /**
   * Read with the call under its lock, so that the webhooks after its first run no read of
   * their own: its offers in order, each with its buyer's payout rules now; the webhook event
   * types its organization's enabled endpoints take ('*': all); the triggers of the enabled
   * conversion destinations that take its campaign.
   */
  offers: readonly PricedOffer[];
  events: ReadonlySet<string>;
  conversionTriggers: ReadonlySet<string>;
}

export interface CallStatusChange {
  status: string;
  durationSeconds: number | null;
  endedAt: Date | null;
}

export interface InboundCall {
  /** The tracking number that was dialled, E.164. */
  to: string;
  from: string;
  startedAt: Date;
  /** Set for calls that reach us through a carrier webhook. */
  carrier?: { name: string; callSid: string; status: string | null } | undefined;
}

/** One call to record, with the request that brought it. */
export interface InboundCallRequest {
  call: InboundCall;
  requestId: string | null;
  now: Date;
}

export interface RecordedCall {
  callId: string;
  orgId: string;
  campaignId: string;
  campaignCode: string;
  forwardTo: string | null;
  attribution: Attribution;
}
