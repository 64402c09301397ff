import type { CampaignComplianceConfig } from './config-schema.js';
import type { TouchChannel, Weekday } from './data/state-rules.js';

/** The campaign config's compliance keys, from their schema (contract §5). */
export type {
  CallingWindow,
  CampaignComplianceConfig,
  FrequencyCapsConfig,
} from './config-schema.js';

import type {
  ConsentBasis,
  ConsentTier,
  EBR_BASES,
  Purpose,
  ReasonCode,
  RevocationKind,
  SuppressionList,
} from '../vocabulary.js';

/** Tiers are ordered pewc > pec > ebr > none (compliance-rules.md Part A point 1); a caller
 * asserts a basis, never `none`. */
export type {
  ConsentBasis,
  ConsentTier,
  Purpose,
  ReasonCode,
  SuppressionList,
  TouchChannel as Channel,
  Weekday,
};
/** Epoch milliseconds, a Date, or an ISO 8601 string with an offset or `Z`. */
export type Instant = number | Date | string;

export interface Reason {
  code: ReasonCode;
  message: string;
}

export interface ConsentRecord {
  id?: string;
  tier: ConsentBasis;
  /** For `ebr`: when the transaction or inquiry happened. */
  captured_at: Instant;
  /** For `ebr`; absent is read as `inquiry` (the shorter, 3-month relationship). */
  ebr_basis?: (typeof EBR_BASES)[number];
  expires_at?: Instant;
  /** Channels the consent covers; absent: every channel. */
  channels?: TouchChannel[];
}

export interface RevocationEvent {
  /** `revoked` and `opt_out` void consent captured before them; `internal_dnc` blocks while listed. */
  kind: RevocationKind;
  at: Instant;
}

export interface ConsentInput {
  channel: TouchChannel;
  asserted: ConsentBasis;
  records: readonly ConsentRecord[];
  revocations: readonly RevocationEvent[];
  config?: CampaignComplianceConfig;
  /**
   * Years a revocation stays in force against any later grant (the number's state rule, e.g.
   * Virginia's ten); absent: a later grant stands at once.
   */
  revocationYears?: number;
}

export interface PlacedTouch {
  at: Instant;
  channel: TouchChannel;
}

export interface TouchInput {
  to_e164: string;
  channel: TouchChannel;
  consent_basis: ConsentBasis;
  lead_timezone?: string;
  /** Consent records and revocations on file for (organization, contact number). */
  records: readonly ConsentRecord[];
  revocations: readonly RevocationEvent[];
  /** Placed touches for (organization, contact number), every campaign and channel. */
  history: readonly PlacedTouch[];
  /** The campaign config, already merged with the selected variant (see mergeConfig). */
  config?: CampaignComplianceConfig;
  /**
   * Suppression-list and reassigned-number facts; absent: no list entries, no RND answer and no
   * national list on file (so a marketing touch below pewc is `dnc_list_stale` unless the
   * campaign turns `dnc_scrub` off).
   */
  suppression?: SuppressionFacts;
}

/** One entry for the contact's number on one of the organization's lists. */
export interface SuppressionHit {
  list: SuppressionList;
  /** The list's date for this entry (YYYY-MM-DD): the registry copy or the day it was added. */
  listed_on: string;
  source: string;
  state: string | null;
}

export type RndResult = 'reassigned' | 'not_reassigned' | 'no_data';

export interface RndAnswer {
  /** The consent date the query was made for (YYYY-MM-DD). */
  consent_date: string;
  result: RndResult;
  checked_at: Instant;
}

export interface SuppressionFacts {
  hits: readonly SuppressionHit[];
  /** List date of the organization's newest national registry import, or null: none. */
  national_list_date: string | null;
  /** List date of the newest import of Canada's National DNCL; absent or null: none. */
  national_ca_list_date?: string | null;
  /** The organization's litigator rule (on unless turned off). */
  litigator_blocks: boolean;
  /** Stored RND answers for the number, any consent date. */
  rnd: readonly RndAnswer[];
}
