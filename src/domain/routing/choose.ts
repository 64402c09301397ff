import { isOpen } from './schedule.js';
import type { Candidate, Payout } from './types.js';

/** A uniform draw in [0, 1): Math.random in service, a seeded source in tests. */
export type Random = () => number;

/**
 * The targets this call may be offered to now, before caps: active, open now in their zone,
 * taking the caller's state (a caller of unknown state only goes to buyers without states),
 * and not offered this call before.
 */
export function eligibleTargets(
  candidates: readonly Candidate[],
  o: { callerState: string | null; nowMs: number; offered: ReadonlySet<string> },
): Candidate[] {
  return candidates.filter(
    (c) =>
      c.status === 'active' &&
      !o.offered.has(c.buyerId) &&
      (c.states === null || (o.callerState !== null && c.states.includes(o.callerState))) &&
      isOpen(c.schedule, c.timeZone, o.nowMs),
  );
}

/**
 * The order to try eligible targets in: lowest priority first; within a priority, a weighted
 * draw without replacement (each target's key is an exponential draw of rate `weight`, smallest
 * first). The first target of this order that a subset keeps is a draw from that subset in
 * proportion to weight, so trying the targets in this order and taking the first under its
 * caps draws among the targets under their caps, in proportion to weight.
 */
export function drawOrder(eligible: readonly Candidate[], random: Random): Candidate[] {
  const keyed = eligible.map((c) => ({ c, key: -Math.log(1 - random()) / c.weight }));
  keyed.sort((a, b) => a.c.priority - b.c.priority || a.key - b.key);
  return keyed.map((k) => k.c);
}

/**
 * An answered call is billable when the buyer's leg lasted at least the minimum and the
 * caller was not billable to this buyer within the duplicate window before; its payout is
 * the amount then, else "0.00".
 */
export function billing(
  payout: Payout,
  legSeconds: number,
  billableBefore: boolean,
): { billable: boolean; payout: string } {
  const billable = legSeconds >= payout.min_duration_seconds && !billableBefore;
  return { billable, payout: billable ? payout.amount : '0.00' };
}
