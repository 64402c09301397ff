import pino from 'pino';
import type {
  Carrier,
  DispatchPayload,
  SendOptions,
  SendResult,
} from '../../src/domain/dispatch/carriers/types.js';
import { DispatchWorker, type WorkerOptions } from '../../src/workers/dispatch.js';
import type { Harness } from './harness.js';

/** A carrier that answers from a script, for driving the worker through failures. */
export class ScriptedCarrier implements Carrier {
  readonly name = 'scripted';
  readonly calls: { payload: DispatchPayload; options: SendOptions }[] = [];
  constructor(
    private readonly script: (call: number) => SendResult,
    readonly idempotent = false,
  ) {}
  async send(payload: DispatchPayload, options: SendOptions): Promise<SendResult> {
    this.calls.push({ payload, options });
    return this.script(this.calls.length);
  }
}

export function worker(h: Harness, carrier: Carrier, options: Partial<WorkerOptions> = {}) {
  return new DispatchWorker(
    { repos: h.deps.repos, carrier, clock: h.clock, logger: pino({ level: 'silent' }) },
    { backoffBaseMs: 5_000, backoffMaxMs: 60_000, leaseMs: 30_000, maxAttempts: 4, ...options },
  );
}

export async function touchRow(h: Harness, id: string) {
  const [row] = await h.store.query<Record<string, unknown>>(
    `select status, dispatch_status, attempts, carrier, carrier_ids, last_error
       from outbound_touches where id = $1`,
    [id],
  );
  return row;
}

export async function attemptRows(h: Harness, touchId: string) {
  return h.store.query<{ attempt: number; outcome: string; carrier_id: string | null }>(
    'select attempt, outcome, carrier_id from carrier_attempts where touch_id = $1 order by attempt, started_at',
    [touchId],
  );
}
