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
  /** Taken for processing later (Data Manager's `requestId`): the row awaits a `check`. */
  | { state: 'accepted'; requestId: string }
  | {
      state: 'retry' | 'failed';
      code: ReasonCode;
      detail: string;
      retryAfterMs?: number;
      /**
       * A check's verdict that the row must be sent again rather than checked again: `alone`
       * in a request of its own (the platform reported its request only in part), `again`
       * as before (the platform failed the request internally).
       */
      resend?: 'alone' | 'again';
    };

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
  /**
   * How the platform processed a request it accepted (`accepted` results): one result per row
   * it carried, `retry` with `awaiting_confirmation` while it has not said. Only platforms that
   * answer `accepted` have it (Google's Data Manager API: `requestStatus:retrieve`).
   */
  check?(t: SendTarget, requestId: string, items: SendItem[]): Promise<BatchAnswer>;
}

export type AdPlatforms = Record<Platform, AdPlatformClient>;
