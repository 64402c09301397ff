import { describe, expect, it } from 'vitest';
import { checkAdvice } from '../../sim/evaluate.js';
import { DEFAULT_SHAPE, OFFICE_CURVE, type TrafficShape } from '../../sim/traffic.js';
import { useHarness } from '../helpers/harness.js';
import { storeKind } from '../helpers/store.js';

// Small shapes so the whole file stays under a minute in CI; many callers so
// the accuracy is measured on enough calls to resolve a percent.
const FLAT = Array.from({ length: 24 }, () => 1);
// Calls hours after the visit (late and repeat callers) make accuracy grow
// slowly with the pool, too slowly for a few hundred calls to place the
// smallest sufficient pool within 15 % (docs/pool-sizing.md): these shapes
// have callers who call during or within the hour after the visit.
const prompt = { lateCallShare: 0, repeatCallShare: 0, returnShare: 0.1 };
const SHAPES: { shape: TrafficShape; target: number; within15: boolean }[] = [
  {
    target: 0.97,
    within15: false,
    shape: {
      ...DEFAULT_SHAPE,
      ...prompt,
      name: 'steady',
      peakPerHour: 60,
      hours: 12,
      dailyCurve: FLAT,
      callShare: 0.3,
      seed: 11,
    },
  },
  {
    target: 0.97,
    within15: false,
    shape: {
      ...DEFAULT_SHAPE,
      ...prompt,
      name: 'office day',
      peakPerHour: 80,
      hours: 24,
      dailyCurve: OFFICE_CURVE,
      callShare: 0.25,
      seed: 12,
    },
  },
  {
    target: 0.9,
    within15: true,
    shape: {
      ...DEFAULT_SHAPE,
      name: 'long visits, late and repeat callers',
      peakPerHour: 40,
      hours: 12,
      dailyCurve: FLAT,
      visitMeanMin: 15,
      callAfterMeanMin: 25,
      callShare: 0.3,
      seed: 13,
    },
  },
];

// The simulator replays on the embedded store (what `npm run simulate` uses);
// on PostgreSQL it would measure the same SQL function again, slower.
describe.skipIf(storeKind !== 'pglite')('pool size advice holds in simulation', () => {
  const h = useHarness();

  it.each(SHAPES)(
    '$shape.name: the recommended size reaches $target (and 15% fewer do not, where asserted)',
    async ({ shape, target, within15 }) => {
      const a = await checkAdvice(h.store, shape, target);
      // The figures of docs/pool-sizing.md's table.
      console.log(
        JSON.stringify({
          shape: shape.name,
          target,
          recommended: a.recommended,
          accuracy: a.atRecommended?.accuracy,
          below: a.below?.size,
          belowAccuracy: a.below?.accuracy,
          reference: [a.reference.size, a.reference.accuracy],
          rules: a.reference.health.rules_of_thumb.map((r) => [r.source, r.size]),
        }),
      );
      expect(a.recommended, JSON.stringify(a.reference.health.recommendation)).not.toBeNull();
      expect(a.atRecommended!.accuracy).toBeGreaterThanOrEqual(target);
      // Not yet met where callers call promptly: the model over-counts errors on
      // shared numbers there and advises up to ~25 % too many (docs/pool-sizing.md).
      if (within15) expect(a.below!.accuracy).toBeLessThan(target);
    },
    120_000,
  );
});
