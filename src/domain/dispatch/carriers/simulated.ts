import type { Clock } from '../../../deps.js';
import { newId } from '../../ids.js';
import type { SimulatedMessageRepos } from '../ports.js';
import type { Carrier, DispatchPayload, SendOptions, SendResult } from './types.js';

/**
 * The default carrier: sends nothing, records each message in `simulated_carrier_messages`.
 * It behaves like a carrier that honours idempotency keys: a repeated key returns the first
 * message id and only counts the extra request.
 */
export class SimulatedCarrier implements Carrier {
  readonly name = 'simulated';
  readonly idempotent = true;

  constructor(
    private readonly repos: SimulatedMessageRepos,
    private readonly clock: Clock,
    /** Simulated network time, half before and half after the carrier records the message. */
    private readonly latencyMs = 0,
  ) {}

  async send(p: DispatchPayload, o: SendOptions): Promise<SendResult> {
    await this.pause();
    const now = new Date(this.clock.now());
    try {
      const id = await this.repos.simulatedMessages.recordSimulatedMessage(this.repos.db, {
        id: newId('sim', now.getTime()),
        idempotencyKey: o.idempotencyKey,
        touchId: p.touch_id,
        channel: p.channel,
        toE164: p.to,
        fromE164: p.from,
        body: p.text ?? p.recording_url ?? p.twiml,
        createdAt: now,
      });
      await this.pause();
      return id
        ? { outcome: 'accepted', carrierId: id }
        : { outcome: 'unknown', error: 'no row returned' };
    } catch (err) {
      return { outcome: 'unknown', error: err instanceof Error ? err.message : String(err) };
    }
  }

  private pause(): Promise<void> {
    return this.latencyMs > 0
      ? new Promise((resolve) => setTimeout(resolve, this.latencyMs / 2))
      : Promise.resolve();
  }
}
