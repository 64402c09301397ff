/**
 * The reports computed again from raw rows, for the property test
 * (test/http/reports-property.test.ts). Written apart from the service's
 * code: bucket starts come from Intl offsets here, the source and the landing
 * path from the rules of docs/reporting.md, not from the SQL functions.
 */

const fmt = new Map<string, Intl.DateTimeFormat>();
function parts(zone: string, ms: number) {
  let f = fmt.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    fmt.set(zone, f);
  }
  const p: Record<string, number> = {};
  for (const x of f.formatToParts(new Date(ms)))
    if (x.type !== 'literal') p[x.type] = Number(x.value);
  return p as {
    year: number;
    month: number;
    day: number;
    hour: number;
    minute: number;
    second: number;
  };
}

const offset = (zone: string, ms: number) => {
  const p = parts(zone, ms);
  return (
    Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(ms / 1000) * 1000
  );
};

/** The instant of a local wall time (the later offset wins when two apply, the earlier in a gap). */
function fromWall(zone: string, wall: number): number {
  const guesses = [offset(zone, wall - 86_400_000), offset(zone, wall + 86_400_000)];
  const fits = guesses.map((o) => wall - o).filter((t) => t + offset(zone, t) === wall);
  return fits.length > 0 ? Math.max(...fits) : wall - guesses[0]!;
}

export type Bucket = 'none' | 'hour' | 'day' | 'week' | 'month';

export function bucketStart(zone: string, bucket: Bucket, ms: number): number | null {
  if (bucket === 'none') return null;
  const p = parts(zone, ms);
  if (bucket === 'hour') return ms - (p.minute * 60 + p.second) * 1000 - (ms % 1000);
  let wall = Date.UTC(p.year, p.month - 1, p.day);
  if (bucket === 'week') wall -= ((new Date(wall).getUTCDay() + 6) % 7) * 86_400_000;
  if (bucket === 'month') wall = Date.UTC(p.year, p.month - 1, 1);
  return fromWall(zone, wall);
}

/** A network's other names (docs/reporting.md#sources). */
const ALIASES: Record<string, string> = { facebook: 'meta', fb: 'meta', bing: 'microsoft' };

export function sourceOf(s: Record<string, unknown>): string {
  const v = (k: string) => (typeof s[k] === 'string' && s[k] !== '' ? (s[k] as string) : null);
  const utm = v('utm_source')
    ?.replace(/[ \t\r\n]+/g, ' ')
    .replace(/^ | $/g, '')
    .toLowerCase();
  if (utm) return ALIASES[utm] ?? utm;
  if (v('gclid') || v('gbraid') || v('wbraid')) return 'google';
  if (v('fbclid') || v('fbc')) return 'meta';
  if (v('msclkid')) return 'microsoft';
  return 'direct';
}

export function pathOf(url: unknown): string | null {
  if (typeof url !== 'string' || url === '') return null;
  const p = new URL(url).pathname;
  return p === '' ? '/' : p;
}

export interface Fact {
  at: number;
  keys: Record<string, string | null>;
  counts: Record<string, number>;
  /** For distinct counts. */
  caller?: string;
}

/** Rows keyed by bucket and keys, summed; unique callers distinct per row. */
export function aggregate(
  facts: Fact[],
  o: { zone: string; bucket: Bucket; groupBy: string[]; from: number; to: number },
) {
  const rows = new Map<string, { counts: Record<string, number>; callers: Set<string> }>();
  for (const f of facts) {
    if (f.at < o.from || f.at >= o.to) continue;
    const key = JSON.stringify([
      bucketStart(o.zone, o.bucket, f.at),
      ...o.groupBy.map((g) => f.keys[g] ?? null),
    ]);
    let r = rows.get(key);
    if (!r) {
      r = { counts: {}, callers: new Set() };
      rows.set(key, r);
    }
    for (const [k, n] of Object.entries(f.counts)) r.counts[k] = (r.counts[k] ?? 0) + n;
    if (f.caller) r.callers.add(f.caller);
  }
  return rows;
}
