import type { UploadFacts } from './facts.js';
import type { Platform, ReasonCode, UploadKind } from './vocabulary.js';

/** What an ad-platform client (src/adapters/ad-platforms) is handed for one request. */
export interface SendTarget {
  destinationId: string;
  platform: Platform;
  settings: Record<string, string>;
  secrets: Record<string, string>;
}

export interface SendItem {
  uploadId: string;
  kind: UploadKind;
  dedupeKey: string;
  facts: UploadFacts;
}

/** One row's outcome, read from the platform's answer. */
export type ItemResult =
  /** `note`: how the platform said so when it was not a plain yes ("already held", …). */
  | { state: 'sent'; note?: string }
  | { state: 'retry' | 'failed'; code: ReasonCode; detail: string; retryAfterMs?: number };

export interface BatchAnswer {
  /** The HTTP status of the (last) request; null when nothing answered. */
  statusCode: number | null;
  /** One per item, in order. */
  results: ItemResult[];
  /** The platform's answer, parsed, for the `test` command (scrubbed before it is shown). */
  answer?: unknown;
  /**
   * A refresh token the platform's OAuth endpoint issued in place of the one sent (Microsoft
   * rotates them): the caller stores it, sealed, for the next refresh.
   */
  refreshToken?: string;
}

export interface AdPlatformClient {
  /** Rows one request may carry (Google 2,000, Meta 1,000, Microsoft 1,000, GA4 1). */
  readonly maxBatch: number;
  send(t: SendTarget, items: SendItem[], o: { validateOnly: boolean }): Promise<BatchAnswer>;
}

export type AdPlatforms = Record<Platform, AdPlatformClient>;
