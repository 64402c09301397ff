import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openStore } from '../src/store/db.js';
import { chartSvg } from './chart.js';
import { busyHourLoad } from './evaluate.js';
import { isPolicy, POLICIES } from './policy.js';
import { type RunResult, replay } from './replay.js';
import { exampleDay, routingText, simulateRoutingDay } from './routing.js';
import { DEFAULT_SHAPE, generateTrace, type TrafficShape } from './traffic.js';

const HELP = `npm run simulate -- [options]

Replays synthetic DNI traffic on the embedded store through the real
allocation (dni_open_sessions) and attribution (recordInboundCalls), for several
pool sizes, and writes <out>/pool-sim.csv and <out>/pool-sim.svg.

  --peak <n>           new visitors per hour at the busy hour (${DEFAULT_SHAPE.peakPerHour})
  --hours <n>          simulated hours of arrivals (${DEFAULT_SHAPE.hours})
  --visit-min <n>      mean visit length, minutes (${DEFAULT_SHAPE.visitMeanMin})
  --return <share>     visitors who come back 1-6 h later (${DEFAULT_SHAPE.returnShare})
  --call <share>       visitors who call (${DEFAULT_SHAPE.callShare})
  --during <share>     of callers, calling during the visit (${DEFAULT_SHAPE.callDuringVisit})
  --after-min <n>      mean minutes after leaving of the other calls (${DEFAULT_SHAPE.callAfterMeanMin})
  --late <share>       of callers, calling 2-12 h later instead (${DEFAULT_SHAPE.lateCallShare})
  --repeat <share>     of callers, calling again 1-8 h later (${DEFAULT_SHAPE.repeatCallShare})
  --ttl <s>            session lifetime, seconds (${DEFAULT_SHAPE.ttlSeconds})
  --seed <n>           random seed (${DEFAULT_SHAPE.seed})
  --sizes <a,b,…>      pool sizes (default: 8 sizes from 0.5x to 4x the busy-hour load)
  --target <share>     accuracy the advice aims at (0.99)
  --policy <name>      allocation: clock (the service's), or for comparison lrr
                       (free number released longest ago, before the clock) or
                       quarantine (lrr, never reusing a number within 30 min) (clock)
  --out <dir>          output directory (sim-out)
  --routing            instead: a day of calls routed to example buyers with
                       schedules, states and caps (sim/routing.ts), through the
                       service's chooser; prints the spread and the fallbacks
                       (--calls <n>, default 2000; --seed)
`;

const NAMES = [
  'peak',
  'hours',
  'visit-min',
  'return',
  'call',
  'during',
  'after-min',
  'late',
  'repeat',
  'ttl',
  'seed',
  'sizes',
  'target',
  'policy',
  'out',
  'help',
  'routing',
  'calls',
];
const { values } = parseArgs({
  options: Object.fromEntries(
    NAMES.map((k) => [
      k,
      { type: k === 'help' || k === 'routing' ? ('boolean' as const) : ('string' as const) },
    ]),
  ),
}) as { values: Record<string, string | boolean | undefined> };
if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}
const num = (k: string, d: number) => (values[k] === undefined ? d : Number(values[k]));
if (values.routing) {
  // A Monday in March, midnight in New York.
  const day = exampleDay(Date.parse('2026-03-09T04:00:00Z'), num('calls', 2000), num('seed', 1));
  process.stdout.write(routingText(day, simulateRoutingDay(day)));
  process.exit(0);
}
const shape: TrafficShape = {
  ...DEFAULT_SHAPE,
  name: 'cli',
  peakPerHour: num('peak', DEFAULT_SHAPE.peakPerHour),
  hours: num('hours', DEFAULT_SHAPE.hours),
  visitMeanMin: num('visit-min', DEFAULT_SHAPE.visitMeanMin),
  returnShare: num('return', DEFAULT_SHAPE.returnShare),
  callShare: num('call', DEFAULT_SHAPE.callShare),
  callDuringVisit: num('during', DEFAULT_SHAPE.callDuringVisit),
  callAfterMeanMin: num('after-min', DEFAULT_SHAPE.callAfterMeanMin),
  lateCallShare: num('late', DEFAULT_SHAPE.lateCallShare),
  repeatCallShare: num('repeat', DEFAULT_SHAPE.repeatCallShare),
  ttlSeconds: num('ttl', DEFAULT_SHAPE.ttlSeconds),
  seed: num('seed', DEFAULT_SHAPE.seed),
};
const target = num('target', 0.99);
const out = String(values.out ?? 'sim-out');
const policy = String(values.policy ?? 'clock');
if (!isPolicy(policy)) {
  process.stderr.write(`--policy: one of ${POLICIES.join(', ')}\n`);
  process.exit(2);
}
const load = busyHourLoad(shape);
const sizes = values.sizes
  ? String(values.sizes).split(',').map(Number)
  : [0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4].map((k) => Math.max(1, Math.round(k * load)));

const store = await openStore({});
await store.migrate();
const trace = generateTrace(shape);
const calls = trace.events.filter((e) => e.kind === 'call').length;
process.stderr.write(
  `${trace.visitors} visitors, ${trace.events.length - calls} page requests, ${calls} calls; busy-hour load ${load.toFixed(0)} erlangs\n`,
);
const runs: RunResult[] = [];
// Largest first: the advice is read from the amplest pool, as an unstarved campaign would show it.
for (const size of [...sizes].sort((a, b) => b - a)) {
  const r = await replay(store, shape, trace, size, target, policy);
  runs.push(r);
  process.stderr.write(
    `size ${size}: accuracy ${(r.accuracy * 100).toFixed(2)}%, wrong ${r.wrongVisitor}, campaign only ${r.campaignOnly}+${r.campaignOnlyUnavoidable}, shared sessions ${r.sharedSessions}, ${r.seconds.toFixed(1)} s\n`,
  );
}
const advice = runs[0]!.health;
mkdirSync(out, { recursive: true });
const header =
  'policy,size,sessions,shared_sessions,calls,correct,wrong_visitor,wrong_live,wrong_grace,wrong_late,campaign_only,campaign_only_unavoidable,accuracy,seconds';
const lines = [...runs]
  .sort((a, b) => a.size - b.size)
  .map((r) =>
    [
      r.policy,
      r.size,
      r.sessions,
      r.sharedSessions,
      r.calls,
      r.correct,
      r.wrongVisitor,
      r.byTiming.live.wrong,
      r.byTiming.grace.wrong,
      r.byTiming.late.wrong,
      r.campaignOnly,
      r.campaignOnlyUnavoidable,
      r.accuracy.toFixed(5),
      r.seconds.toFixed(2),
    ].join(','),
  );
writeFileSync(join(out, 'pool-sim.csv'), `${[header, ...lines].join('\n')}\n`);
const markers = [
  ...(advice.recommendation.size
    ? [{ label: 'recommended', size: advice.recommendation.size }]
    : []),
  ...advice.rules_of_thumb.map((r) => ({ label: r.source, size: r.size })),
];
writeFileSync(
  join(out, 'pool-sim.svg'),
  chartSvg(
    `${shape.peakPerHour} visitors/h peak, ${shape.hours} h, ${shape.callShare * 100}% call${policy === 'clock' ? '' : `, ${policy} policy`}`,
    runs,
    target,
    markers.filter((m) => m.size <= Math.max(...sizes) * 1.5),
  ),
);
process.stdout.write(
  `${JSON.stringify({ recommendation: advice.recommendation, rules_of_thumb: advice.rules_of_thumb }, null, 2)}\n`,
);
await store.close();
