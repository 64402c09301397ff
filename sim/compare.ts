import { parseArgs } from 'node:util';
import { trafficProfile } from '../src/domain/dni/pool-health.js';
import { predictErrors } from '../src/domain/dni/pool-sizing.js';
import { openStore } from '../src/store/db.js';
import { busyHourLoad } from './evaluate.js';
import { isPolicy, type Policy } from './policy.js';
import { type RunResult, replay } from './replay.js';
import { TABLE_SHAPES } from './shapes.js';
import { generateTrace } from './traffic.js';

/**
 * Allocation policies side by side on docs/pool-sizing.md's traffic shapes:
 * the same trace replayed at several pool sizes with each policy, and the
 * sizing model's prediction at each size (from an ample pool's observation).
 *
 *   npx tsx sim/compare.ts [--policies clock,lrr] [--shapes steady,…] [--sizes 0.9,1,1.1 (× busy-hour load)]
 */
const { values } = parseArgs({
  options: {
    policies: { type: 'string', default: 'clock,lrr' },
    shapes: { type: 'string' },
    sizes: { type: 'string', default: '0.75,0.9,1,1.1,1.25,1.5,2' },
  },
});
const policies = values.policies.split(',');
for (const p of policies) if (!isPolicy(p)) throw new Error(`unknown policy ${p}`);
const wanted = values.shapes?.split(',');
const factors = values.sizes.split(',').map(Number);

const store = await openStore({});
await store.migrate();
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
for (const { shape, target } of TABLE_SHAPES) {
  if (wanted && !wanted.some((w) => shape.name.startsWith(w))) continue;
  const trace = generateTrace(shape);
  const load = busyHourLoad(shape);
  const ample = await replay(store, shape, trace, Math.ceil(load * 4) + 5, target);
  const predicted = predictErrors(trafficProfile(ample.observed).profile, Math.ceil(load * 4));
  const sizes = [...new Set(factors.map((k) => Math.max(1, Math.round(k * load))))];
  process.stdout.write(
    `\n${shape.name} (target ${pct(target)}, busy-hour load ${load.toFixed(0)}, ${ample.calls} calls; recommended ${ample.health.recommendation.size})\n`,
  );
  process.stdout.write(`| size | model | ${policies.join(' | ')} |\n`);
  for (const size of sizes) {
    const cells: string[] = [];
    for (const policy of policies) {
      const r: RunResult = await replay(store, shape, trace, size, target, policy as Policy);
      const t = r.byTiming;
      cells.push(
        `${pct(r.accuracy)} (${t.live.wrong}/${t.live.calls} ${t.grace.wrong}/${t.grace.calls} ${t.late.wrong}/${t.late.calls}, sh ${r.sharedSessions})`,
      );
    }
    // The model's accuracy, and its wrong calls by term (live, grace, late) on this many calls.
    const terms = [predicted.live, predicted.grace, predicted.late]
      .map((t) => (t[size]! * ample.calls).toFixed(1))
      .join(' ');
    const model = `${pct(1 - predicted.wrong[size]!)} (${terms})`;
    process.stdout.write(`| ${size} | ${model} | ${cells.join(' | ')} |\n`);
  }
}
await store.close();
