import { readFileSync } from 'node:fs';

/**
 * Summarises a V8 .cpuprofile (written by `BENCH_CPU_PROF=dir npm run bench`
 * for each row's measured window): self time by package / file and the
 * hottest functions, per operation when the row's operation count is given,
 * so "what bounds this row" has an answer without opening DevTools.
 *   npx tsx bench/profile-summary.ts <file.cpuprofile> [operations] [top]
 */
interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
  children?: number[];
}
interface Profile {
  nodes: Node[];
  startTime: number;
  endTime: number;
  samples: number[];
}

function where(url: string): string {
  if (!url) return '(native / idle / gc)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return url;
  const own = /\/(src|bench)\/(.*)$/.exec(url);
  return own ? `${own[1]}/${own[2]}` : url;
}

/**
 * Where a file's self time goes in the request's life (issue 23's table):
 * the first pattern that matches a place (see `where`) names its phase.
 */
const PHASES: [string, RegExp][] = [
  ['idle', /^\(idle\)$/],
  ['garbage collection', /^\(garbage collector\)$/],
  [
    'HTTP parsing and sockets',
    /^node:(_http|net|internal\/stream|internal\/http|stream|buffer|internal\/buffer|events)|^\(native/,
  ],
  [
    'routing and hooks (Fastify)',
    /^(fastify|find-my-way|avvio|@fastify\/|fast-querystring|process-warning)/,
  ],
  ['validation', /^src\/http\/(pydantic\/validate|validate)|^typebox/],
  ['authentication', /^src\/(http\/auth|domain\/auth)/],
  ['batcher and driver', /^src\/(domain\/dni|store)|^(pg|pg-protocol|pg-pool|pg-types|postgres-)/],
  ['serialisation', /^src\/http\/pydantic\/pyjson|^fast-json-stringify|^secure-json-parse/],
  ['logging', /^(pino|@pinojs|sonic-boom|thread-stream)|^src\/(logger|log-privacy)/],
  ['metrics', /^prom-client|^src\/http\/metrics/],
  ['timers and microtasks', /^node:internal\/(process|timers)|^\(program\)/],
];

function phaseOf(place: string): string {
  return PHASES.find(([, re]) => re.test(place))?.[0] ?? `other (${place})`;
}

function main(): void {
  const [file, opsArg, topArg] = process.argv.slice(2);
  if (!file) throw new Error('usage: profile-summary <file.cpuprofile> [operations] [top]');
  const ops = Number(opsArg ?? 0);
  const top = Number(topArg ?? 25);
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const totalMs = (p.endTime - p.startTime) / 1000;
  const msPerSample = totalMs / p.samples.length;
  const byPlace = new Map<string, number>();
  const byFn = new Map<string, number>();
  const byPhase = new Map<string, number>();
  for (const n of p.nodes) {
    const ms = n.hitCount * msPerSample;
    const place = n.callFrame.functionName.startsWith('(')
      ? n.callFrame.functionName
      : where(n.callFrame.url);
    byPlace.set(place, (byPlace.get(place) ?? 0) + ms);
    const phase = phaseOf(place);
    byPhase.set(phase, (byPhase.get(phase) ?? 0) + ms);
    const fn = `${n.callFrame.functionName || '(anonymous)'} ${where(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + ms);
  }
  const show = (title: string, m: Map<string, number>) => {
    console.log(`\n${title}`);
    for (const [k, ms] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      const perOp = ops > 0 ? `${((ms * 1000) / ops).toFixed(1).padStart(7)} µs/op  ` : '';
      console.log(
        `${((ms / totalMs) * 100).toFixed(1).padStart(6)}%  ${ms.toFixed(0).padStart(7)} ms  ${perOp}${k}`,
      );
    }
  };
  console.log(`${file}: ${totalMs.toFixed(0)} ms profiled${ops > 0 ? `, ${ops} operations` : ''}`);
  show('self time by phase of the request', byPhase);
  show('self time by package / file', byPlace);
  show('self time by function', byFn);
}

main();
