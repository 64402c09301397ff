import type { DispatchPayload } from '../payload.js';

export type { DispatchPayload };

/**
 * What a hand-over to the carrier came to. `unknown` means the request may have reached the
 * carrier but its answer did not reach us (a timeout, a reset connection): only a carrier that
 * honours idempotency keys can then be asked again without risking a second send.
 */
export type SendResult =
  | { outcome: 'accepted'; carrierId: string }
  | { outcome: 'failed'; retryable: boolean; error: string }
  | { outcome: 'unknown'; error: string };

export interface SendOptions {
  /** Stable across attempts of one touch (the touch id). */
  idempotencyKey: string;
  attempt: number;
}

/** A carrier adapter. `send` reports expected failures as values and should not throw. */
export interface Carrier {
  readonly name: string;
  /** True when a repeated `idempotencyKey` can never produce a second message or call. */
  readonly idempotent: boolean;
  send(payload: DispatchPayload, options: SendOptions): Promise<SendResult>;
}
