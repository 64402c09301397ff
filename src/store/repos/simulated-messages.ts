import { sql } from 'drizzle-orm';
import type {
  NewSimulatedMessage,
  SimulatedMessageRepository,
} from '../../domain/dispatch/ports.js';
import type { Executor } from '../db.js';
import { simulatedCarrierMessages as messages } from '../schema/outbound.js';

export type { NewSimulatedMessage };

/**
 * Records a message the simulated carrier accepted; a repeated idempotency key
 * keeps the first message and counts the extra request. Answers the message id.
 */
export async function recordSimulatedMessage(
  ex: Executor,
  m: NewSimulatedMessage,
): Promise<string | null> {
  const [row] = await ex
    .insert(messages)
    .values({ ...m, lastRequestAt: m.createdAt })
    .onConflictDoUpdate({
      target: messages.idempotencyKey,
      set: { requests: sql`${messages.requests} + 1`, lastRequestAt: m.createdAt },
    })
    .returning({ id: messages.id });
  return row?.id ?? null;
}

/** `repos.simulatedMessages`. */
export function createSimulatedMessageRepository(): SimulatedMessageRepository {
  return { recordSimulatedMessage };
}
