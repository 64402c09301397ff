import { type Platform, REASONS } from './vocabulary.js';

/** What decides whether a destination can retract: its platform and how it is configured. */
export interface RetractShape {
  platform: Platform;
  settings: Record<string, string>;
  /** The names of the secrets it holds (the mask's keys), never their values. */
  secretNames: readonly string[];
}

export type Retractability = { retractable: true } | { retractable: false; why: string };

const YES: Retractability = { retractable: true };

/**
 * Whether a conversion this destination sent can be retracted, and why not (docs/conversions.md,
 * "Corrections"). The one place this is decided: a `rejected` report asks it before writing a
 * retraction, the worker asks it when a conversion it was sending turns out rejected, and
 * before sending a retraction written under an earlier configuration.
 */
export function retractability(d: RetractShape): Retractability {
  switch (d.platform) {
    case 'microsoft_ads':
      // OfflineConversionAdjustments with AdjustmentType Retract.
      return YES;
    case 'google_ads':
      // Google Ads API conversion adjustments, whichever API sent the conversion: the Data
      // Manager API has no retraction, and the adjustment needs a developer token (required
      // with api google_ads_api, optional with data_manager).
      return d.secretNames.includes('developer_token')
        ? YES
        : {
            retractable: false,
            why: 'the Data Manager API has no retraction, and Google Ads API conversion adjustments need secrets.developer_token, which this destination does not have',
          };
    case 'meta':
      return { retractable: false, why: "Meta's Conversions API has no retraction" };
    case 'ga4':
      return { retractable: false, why: 'the GA4 Measurement Protocol has no retraction' };
  }
}

/** The reason a not_retractable upload keeps: what cannot be done, why, and when it was asked. */
export function notRetractableReason(why: string, when: string): string {
  return `${REASONS.not_retractable.words} (${why}): ${when}`;
}
