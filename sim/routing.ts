/**
 * A day of calls routed to buyers with schedules, states and caps, through the service's own
 * pure chooser (src/domain/routing/choose.ts: eligibility, the weighted draw in priority order,
 * billing), with the caps counted as docs/routing.md counts them: an offer counts from the
 * moment it is made, an unanswered one stops counting, concurrency counts legs not yet ended,
 * hours and days are the buyer's. What it prints: how the calls were spread over the buyers,
 * how many went to the fallback, and why.
 */
import { billing, drawOrder, eligibleTargets, type Random } from '../src/domain/routing/choose.js';
import { isOpen } from '../src/domain/routing/schedule.js';
import type { Candidate, Caps, Payout, Schedule } from '../src/domain/routing/types.js';
import { MAX_OFFERS } from '../src/domain/routing/vocabulary.js';

export interface SimBuyer extends Candidate {
  name: string;
  caps: Caps;
  payout: Payout;
  /** Chance the buyer answers an offer; otherwise busy or no answer. */
  answers: number;
}

export interface RoutingDay {
  /** The organization's day: calls arrive over its 24 hours (start, UTC ms). */
  startMs: number;
  calls: number;
  buyers: SimBuyer[];
  /** Callers' states and their shares (null: unknown). */
  states: [string | null, number][];
  /** Mean minutes of an answered buyer leg. */
  legMeanMin: number;
  seed: number;
}

/** mulberry32: a seeded uniform source, the same draws on every run. */
export function seeded(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const weekdays = (from: string, to: string): Schedule =>
  Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [[from, to]]])) as Schedule;

/** Four buyers as a small pay-per-call firm has them: a day shift, a capped one, a state list, a night backup. */
export function exampleDay(startMs: number, calls = 2000, seed = 1): RoutingDay {
  const b = (x: Partial<SimBuyer> & Pick<SimBuyer, 'buyerId' | 'name'>): SimBuyer => ({
    priority: 1,
    weight: 1,
    forwardTo: '+13125550100',
    timeZone: 'America/New_York',
    schedule: null,
    states: null,
    status: 'active',
    caps: {},
    payout: { amount: '20.00', min_duration_seconds: 90, duplicate_window_days: 0 },
    answers: 0.8,
    ...x,
  });
  return {
    startMs,
    calls,
    seed,
    legMeanMin: 4,
    states: [
      ['NY', 0.3],
      ['CA', 0.25],
      ['TX', 0.2],
      ['FL', 0.15],
      [null, 0.1],
    ],
    buyers: [
      b({
        buyerId: 'east',
        name: 'East day shift',
        weight: 3,
        schedule: weekdays('09:00', '17:00'),
        caps: { hourly: 40, concurrency: 10 },
      }),
      b({
        buyerId: 'capped',
        name: 'Capped buyer',
        weight: 1,
        caps: { daily: 150, concurrency: 4 },
        payout: { amount: '35.00', min_duration_seconds: 120, duplicate_window_days: 0 },
      }),
      b({
        buyerId: 'west',
        name: 'West, CA and TX only',
        weight: 2,
        timeZone: 'America/Los_Angeles',
        schedule: weekdays('08:00', '20:00'),
        states: ['CA', 'TX'],
        caps: { concurrency: 6 },
        answers: 0.7,
      }),
      b({
        buyerId: 'night',
        name: 'Night backup',
        priority: 2,
        caps: { hourly: 20, concurrency: 3 },
        payout: { amount: '8.00', min_duration_seconds: 30, duplicate_window_days: 0 },
        answers: 0.9,
      }),
    ],
  };
}

export interface BuyerTally {
  offered: number;
  answered: number;
  billable: number;
  revenueCents: number;
}

export interface RoutingDayResult {
  calls: number;
  answered: number;
  byBuyer: Map<string, BuyerTally>;
  fallback: { no_target: number; no_more_targets: number; max_offers: number };
  /** Why buyers were passed over at calls' first offers: closed, state, paused, or a cap. */
  passedOver: Map<string, Map<string, number>>;
}

const keyFormat = new Map<string, Intl.DateTimeFormat>();
/** The buyer's calendar hour, day and month of an instant: the cap periods. */
function periods(zone: string, ms: number) {
  let f = keyFormat.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
    });
    keyFormat.set(zone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return {
    hourly: `${p.year}-${p.month}-${p.day} ${p.hour}`,
    daily: `${p.year}-${p.month}-${p.day}`,
    monthly: `${p.year}-${p.month}`,
  };
}

/** Arrivals over the day: a daytime hump (most calls between 9 and 18 local). */
function arrivals(day: RoutingDay, random: Random): number[] {
  const out: number[] = [];
  while (out.length < day.calls) {
    const h = random() * 24;
    const density = 0.15 + Math.exp(-((h - 13) ** 2) / 18);
    if (random() * 1.15 < density) out.push(day.startMs + h * 3_600_000);
  }
  return out.sort((a, b) => a - b);
}

export function simulateRoutingDay(day: RoutingDay): RoutingDayResult {
  const random = seeded(day.seed);
  const counts = new Map<string, Map<string, number>>(); // buyer → period key → offers counted
  const total = new Map<string, number>();
  const live = new Map<string, number[]>(); // buyer → end times of answered legs
  const byBuyer = new Map(
    day.buyers.map((b) => [b.buyerId, { offered: 0, answered: 0, billable: 0, revenueCents: 0 }]),
  );
  const passedOver = new Map(day.buyers.map((b) => [b.buyerId, new Map<string, number>()]));
  const fallback = { no_target: 0, no_more_targets: 0, max_offers: 0 };
  let answered = 0;
  const note = (id: string, why: string) => {
    const m = passedOver.get(id)!;
    m.set(why, (m.get(why) ?? 0) + 1);
  };
  const capReached = (b: SimBuyer, at: number): string | null => {
    const legs = (live.get(b.buyerId) ?? []).filter((end) => end > at);
    live.set(b.buyerId, legs);
    if (b.caps.concurrency !== undefined && legs.length >= b.caps.concurrency)
      return 'concurrency cap';
    const p = periods(b.timeZone, at);
    const c = counts.get(b.buyerId) ?? new Map<string, number>();
    for (const cap of ['hourly', 'daily', 'monthly'] as const) {
      const limit = b.caps[cap];
      if (limit !== undefined && (c.get(`${cap}:${p[cap]}`) ?? 0) >= limit) return `${cap} cap`;
    }
    if (b.caps.total !== undefined && (total.get(b.buyerId) ?? 0) >= b.caps.total)
      return 'total cap';
    return null;
  };
  const count = (b: SimBuyer, at: number, n: number) => {
    const p = periods(b.timeZone, at);
    const c = counts.get(b.buyerId) ?? new Map<string, number>();
    for (const cap of ['hourly', 'daily', 'monthly'] as const)
      c.set(`${cap}:${p[cap]}`, (c.get(`${cap}:${p[cap]}`) ?? 0) + n);
    counts.set(b.buyerId, c);
    total.set(b.buyerId, (total.get(b.buyerId) ?? 0) + n);
  };
  const stateOf = () => {
    let x = random();
    for (const [s, share] of day.states) {
      x -= share;
      if (x < 0) return s;
    }
    return null;
  };
  for (const at of arrivals(day, random)) {
    const callerState = stateOf();
    const offered = new Set<string>();
    let placed = false;
    for (let seq = 1; seq <= MAX_OFFERS && !placed; seq++) {
      // Ring time: offers of one call follow each other by about 20 s.
      const now = at + (seq - 1) * 20_000;
      const eligible = eligibleTargets(day.buyers, { callerState, nowMs: now, offered });
      if (seq === 1) {
        for (const b of day.buyers) {
          if (b.status !== 'active') note(b.buyerId, 'paused');
          else if (!isOpen(b.schedule, b.timeZone, now)) note(b.buyerId, 'closed');
          else if (!eligible.includes(b)) note(b.buyerId, 'caller state');
        }
      }
      let chosen: SimBuyer | null = null;
      for (const c of drawOrder(eligible, random)) {
        const b = c as SimBuyer;
        const why = capReached(b, now);
        if (why) {
          if (seq === 1) note(b.buyerId, why);
          continue;
        }
        chosen = b;
        break;
      }
      if (!chosen) {
        fallback[seq === 1 ? 'no_target' : 'no_more_targets']++;
        placed = true;
        break;
      }
      offered.add(chosen.buyerId);
      const t = byBuyer.get(chosen.buyerId)!;
      t.offered++;
      count(chosen, now, 1);
      if (random() < chosen.answers) {
        const leg = Math.round(-Math.log(1 - random()) * day.legMeanMin * 60);
        live.set(chosen.buyerId, [...(live.get(chosen.buyerId) ?? []), now + leg * 1000]);
        const bill = billing(chosen.payout, leg, false);
        t.answered++;
        answered++;
        if (bill.billable) {
          t.billable++;
          t.revenueCents += Math.round(Number(bill.payout) * 100);
        }
        placed = true;
      } else {
        count(chosen, now, -1); // not answered: the offer stops counting
      }
    }
    if (!placed) fallback.max_offers++;
  }
  return { calls: day.calls, answered, byBuyer, fallback, passedOver };
}

/** The result as a few plain tables. */
export function routingText(day: RoutingDay, r: RoutingDayResult): string {
  const pad = (s: string | number, n: number) => String(s).padStart(n);
  const lines = [
    `${r.calls} calls over one day, ${r.answered} answered by a buyer (${((r.answered / r.calls) * 100).toFixed(1)}%)`,
    '',
    `${'BUYER'.padEnd(24)}${pad('OFFERED', 9)}${pad('ANSWERED', 10)}${pad('SHARE', 8)}${pad('BILLABLE', 10)}${pad('REVENUE', 11)}`,
  ];
  for (const b of day.buyers) {
    const t = r.byBuyer.get(b.buyerId)!;
    lines.push(
      `${b.name.padEnd(24)}${pad(t.offered, 9)}${pad(t.answered, 10)}${pad(`${((t.answered / Math.max(1, r.answered)) * 100).toFixed(1)}%`, 8)}${pad(t.billable, 10)}${pad((t.revenueCents / 100).toFixed(2), 11)}`,
    );
  }
  const fb = r.fallback;
  lines.push(
    '',
    `To the fallback: ${fb.no_target + fb.no_more_targets + fb.max_offers} (${fb.no_target} no eligible buyer at arrival, ${fb.no_more_targets} every eligible buyer tried, ${fb.max_offers} five offers unanswered)`,
    '',
    'Buyers passed over at calls’ first offers, and why:',
  );
  for (const b of day.buyers) {
    const why = [...r.passedOver.get(b.buyerId)!].map(([k, n]) => `${k} ${n}`).join(', ');
    lines.push(`  ${b.name}: ${why || 'never'}`);
  }
  return `${lines.join('\n')}\n`;
}
