import { seg } from '../client.js';
import { download } from '../download.js';
import { type Answer, EXIT, formatValue, table, type View } from '../output.js';
import type { CliSession, CommandGroup } from './shared.js';

type Row = Record<string, unknown>;

/** The columns a person reads first; --json and --csv carry every counter. */
const COLUMNS = {
  traffic: [
    ['sessions', 'SESSIONS'],
    ['calls', 'CALLS'],
    ['unique_callers', 'UNIQUE'],
    ['calls_first_time', 'FIRST'],
    ['buyer_success', 'SUCCESS'],
    ['buyer_rejected', 'REJECTED'],
    ['call_to_success_rate', 'CALL→SALE'],
    ['calls_billable', 'BILLABLE'],
    ['revenue', 'REVENUE'],
  ],
  touches: [
    ['touches', 'TOUCHES'],
    ['placed', 'PLACED'],
    ['blocked', 'BLOCKED'],
    ['delivered', 'DELIVERED'],
    ['failed', 'FAILED'],
  ],
} as const;

const cell = (metric: string, v: unknown) =>
  metric.endsWith('_rate') && typeof v === 'number' ? `${(v * 100).toFixed(1)}%` : formatValue(v);

/** Day and hour buckets read best as local wall time; the offset is in the header. */
const when = (iso: unknown) => (typeof iso === 'string' ? iso.slice(0, 16).replace('T', ' ') : '-');

const BAR = 30;
/** One bar per bucket of the chart's counter, summed over the groups. */
export function chart(rows: Row[], metric: string): string {
  const per = new Map<string, number>();
  for (const r of rows) {
    const k = when(r.bucket_start);
    per.set(k, (per.get(k) ?? 0) + (Number(r[metric]) || 0));
  }
  if (per.size < 2) return '';
  const max = Math.max(1, ...per.values());
  const lines = [...per].map(([k, n]) => {
    const len = Math.round((n / max) * BAR);
    return `${k}  ${'█'.repeat(len)}${len === 0 && n > 0 ? '▏' : ''} ${n}`;
  });
  return `${metric} per ${rows.length > 0 ? 'bucket' : ''}\n${lines.join('\n')}`;
}

export function reportView(kind: 'traffic' | 'touches'): View {
  return {
    primary: (b) => (b.rows as Row[]).length,
    human: (b: Answer) => {
      const groups = b.group_by as string[];
      const rows = b.rows as Row[];
      const bucketed = b.bucket !== 'none';
      const cols = COLUMNS[kind];
      const head = [
        ...(bucketed ? ['BUCKET'] : []),
        ...groups.map((g) => g.toUpperCase()),
        ...cols.map(([, h]) => h),
      ];
      // A bucket's folded groups: "(other)" under the first key (docs/reporting.md, "Many groups").
      const line = (r: Row, first: string[]) => [
        ...first,
        ...groups.map((g, i) =>
          r.other === true ? (i === 0 ? '(other)' : '') : formatValue(r[g]),
        ),
        ...cols.map(([m]) => cell(m, r[m])),
      ];
      const body = rows.map((r) => line(r, bucketed ? [when(r.bucket_start)] : []));
      // TOTAL in the first column (the bucket's, else the first group's); the group columns blank.
      const first = bucketed ? 1 : 0;
      const total = line(b.totals as Row, bucketed ? ['TOTAL'] : []).map((c, i) =>
        i === 0 && !bucketed && groups.length > 0
          ? 'TOTAL'
          : i >= first && i < first + groups.length
            ? ''
            : c,
      );
      const title = `${kind} of ${b.org_id}, ${b.from} to ${b.to} (${b.time_zone}), by ${b.bucket}${groups.length ? ` × ${groups.join(' × ')}` : ''}`;
      const parts = [title, table(head, [...body, total])];
      const folded = Number(b.groups_folded ?? 0);
      if (folded > 0)
        parts.push(
          `${folded} more groups are summed in the (other) rows: the largest ${String(b.groups_listed)} are listed (--groups asks for fewer).`,
        );
      if (bucketed) {
        const c = chart(rows, kind === 'traffic' ? 'calls' : 'touches');
        if (c) parts.push(c);
      }
      return parts.join('\n\n');
    },
  };
}

interface ReportOptions {
  from?: string;
  to?: string;
  bucket?: string;
  groupBy?: string;
  campaign?: string;
  source?: string;
  timeZone?: string;
  groups?: string;
  csv?: boolean;
}

const queryOf = (o: ReportOptions) => ({
  from: o.from,
  to: o.to,
  bucket: o.bucket,
  group_by: o.groupBy,
  campaign: o.campaign,
  source: o.source,
  time_zone: o.timeZone,
  groups: o.groups,
});

async function csv(s: CliSession, path: string, o: ReportOptions): Promise<number> {
  const done = await download(
    s,
    () => s.open({ method: 'GET', path, query: { ...queryOf(o), format: 'csv' } }),
    { mode: s.mode, out: undefined, progress: false },
  );
  return done.kind === 'failed' ? done.exitCode : EXIT.ok;
}

const AFTER = `
Buckets are in the organization's time zone (org update --time-zone), or
--time-zone's. --json prints the API's answer; --csv the CSV file on stdout.
docs/reporting.md defines every counter.`;

export const reportCommands: CommandGroup = (program, ctx) => {
  const report = program.command('report').description('traffic and touch reports');
  for (const kind of ['traffic', 'touches'] as const) {
    const c = report
      .command(kind)
      .description(
        kind === 'traffic'
          ? 'sessions, calls, unique and first-time callers, buyer outcomes'
          : 'outbound touches: placed, blocked and why',
      )
      .argument('<org_id>')
      .option('--from <iso>', 'start (default: 7 days before --to)')
      .option('--to <iso>', 'end, exclusive (default: now)')
      .option('--bucket <bucket>', 'none, hour, day (default), week or month')
      .option(
        '--group-by <keys>',
        kind === 'traffic'
          ? 'comma list of campaign, source, medium, utm_campaign, landing_path, attribution, tracking_number'
          : 'comma list of campaign, channel, purpose, outcome, reason, state',
      )
      .option('--campaign <code>', 'only this campaign')
      .option('--time-zone <zone>', "another IANA zone (default: the organization's)")
      .option('--csv', 'print the CSV file');
    if (kind === 'traffic') {
      c.option('--source <source>', 'only this source');
      c.option('--groups <n>', 'list the largest N groups, the rest summed as (other)');
    }
    c.addHelpText('after', AFTER).action((orgId: string, o: ReportOptions, cmd) => {
      const path = `/admin/orgs/${seg(orgId)}/reports/${kind}`;
      if (o.csv) return ctx.stream(cmd, (s) => csv(s, path, o));
      return ctx.send(cmd, { method: 'GET', path, query: queryOf(o) }, reportView(kind));
    });
  }
};
