import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PoolObservation } from '../../src/domain/dni/ports.js';
import { observePool } from '../../src/store/repos/pool-health.js';
import { createTenant, type Harness, useHarness } from '../helpers/harness.js';

const h = useHarness();

// The window ends mid-hour, so its first hour starts before it; sessions start and end on a
// five-minute grid, so they touch, start together and meet hour marks.
const NOW = Date.parse('2026-03-04T15:30:00Z');
const SINCE = NOW - 2 * 86_400_000;
const STEP = 300_000;
const HOUR = 3_600_000;

interface Row {
  number: number;
  kind: 'allocated' | 'shared' | 'overflow';
  created: number;
  expires: number;
  hits: number;
}

// Mostly visits of 5 minutes to 2 hours on three numbers, from two days before the window to
// after its end; some held for days (a visitor who kept renewing).
const row = fc
  .record({
    number: fc.integer({ min: 0, max: 2 }),
    kind: fc.constantFrom('allocated', 'allocated', 'shared', 'overflow'),
    start: fc.integer({ min: -2 * 288, max: 2 * 288 + 12 }),
    steps: fc.oneof(
      { weight: 9, arbitrary: fc.integer({ min: 1, max: 24 }) },
      { weight: 1, arbitrary: fc.integer({ min: 288, max: 4 * 288 }) },
    ),
    hits: fc.integer({ min: 1, max: 4 }),
  })
  .map(
    (r): Row => ({
      number: r.number,
      kind: r.kind as Row['kind'],
      created: SINCE + r.start * STEP,
      expires: SINCE + (r.start + r.steps) * STEP,
      hits: r.hits,
    }),
  );

/** What the pool endpoint promises, from the rows alone. */
function model(rows: Row[]) {
  const held = rows
    .filter((r) => r.kind !== 'overflow' && r.created <= NOW && r.expires > SINCE)
    .map((r) => ({ number: r.number, a: Math.max(r.created, SINCE), b: r.expires }));
  // Numbers held at t: some session of the number from its start until before its expiry
  // (a number released and taken again at one instant counts once).
  const level = (t: number) =>
    new Set(held.filter((s) => s.a <= t && t < s.b).map((s) => s.number)).size;
  const inWindow = rows.filter((r) => r.created >= SINCE && r.created <= NOW);
  const hours = [];
  for (let hour = Math.floor(SINCE / HOUR) * HOUR; hour <= NOW; hour += HOUR) {
    const starts = held.map((s) => s.a).filter((a) => a >= hour && a < hour + HOUR);
    hours.push({
      hour: new Date(hour),
      arrivals: inWindow.filter((r) => Math.floor(r.created / HOUR) * HOUR === hour).length,
      peakHeld: Math.max(level(hour), ...starts.map(level)),
    });
  }
  const holds = inWindow
    .filter((r) => r.kind !== 'overflow')
    .map((r) => (r.expires - r.created) / 1000);
  return {
    hours,
    sessions: {
      allocated: inWindow.filter((r) => r.kind === 'allocated').length,
      sticky: inWindow.reduce((n, r) => n + r.hits - 1, 0),
      shared: inWindow.filter((r) => r.kind === 'shared').length,
      overflow: inWindow.filter((r) => r.kind === 'overflow').length,
    },
    meanHoldSeconds: holds.length ? holds.reduce((x, y) => x + y, 0) / holds.length : null,
  };
}

/** A campaign of a fresh tenant whose sessions the test writes itself. */
async function campaign(h: Harness) {
  const t = await createTenant(h);
  const [c] = await h.store.query<{ id: string }>(
    'select id from campaigns where org_id = $1 and code = $2',
    [t.orgId, t.code],
  );
  return { orgId: t.orgId, id: c!.id, numbers: t.numbers };
}

describe('pool observation', () => {
  it('counts held numbers, arrivals and sessions as the rows say, sessions overlapping on shared numbers', async () => {
    const c = await campaign(h);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 60 }), async (rows) => {
        run++;
        await h.store.query('delete from dni_sessions where campaign_id = $1', [c.id]);
        for (const [i, r] of rows.entries()) {
          await h.store.query(
            `insert into dni_sessions (id, org_id, campaign_id, visitor_id, tracking_number, kind,
               created_at, expires_at, last_seen_at, hits)
             values ($1, $2, $3, $4, $5, $6, $7, $8, $7, $9)`,
            [
              `ds_obs_${run}_${i}`,
              c.orgId,
              c.id,
              `v${i}`,
              c.numbers[r.number],
              r.kind,
              new Date(r.created),
              new Date(r.expires),
              r.hits,
            ],
          );
        }
        const o: PoolObservation = await observePool(
          h.store.db,
          c.id,
          new Date(SINCE),
          new Date(NOW),
        );
        const m = model(rows);
        expect(o.hours).toEqual(m.hours);
        expect(o.sessions).toEqual(m.sessions);
        if (m.meanHoldSeconds === null) expect(o.meanHoldSeconds).toBeNull();
        else expect(o.meanHoldSeconds).toBeCloseTo(m.meanHoldSeconds, 6);
        // To the last digit: avg() over each session's seconds, as the endpoint read it before.
        const [avg] = await h.store.query<{ m: string | null }>(
          `select avg(extract(epoch from expires_at - created_at)) filter (where kind <> 'overflow') as m
             from dni_sessions where campaign_id = $1 and created_at >= $2 and created_at <= $3`,
          [c.id, new Date(SINCE), new Date(NOW)],
        );
        expect(o.meanHoldSeconds).toBe(avg?.m == null ? null : Number(avg.m));
      }),
      { numRuns: 40 },
    );
  });
});
