import type { TrafficRow } from '../../domain/reports/types.js';
import type { TrafficGroup } from '../../domain/reports/vocabulary.js';
import { lineChart } from '../chart.js';
import { type OrgContext, reportRange } from '../context.js';
import { type Html, html } from '../html.js';
import { type Column, csvLink, numberColumn, orgPath, table } from '../layout.js';
import type { ConsoleRouter, PageResult } from '../router.js';
import { addDays, type DayRange, dayCell, previousRange } from '../time.js';

const COLOURS = { sessions: '#1d4ed8', calls: '#b45309', success: '#047857' } as const;

const KPIS = [
  ['sessions', 'Sessions'],
  ['calls', 'Calls'],
  ['unique_callers', 'Unique callers'],
  ['buyer_success', 'Buyer successes'],
] as const;

function delta(ctx: OrgContext, now: number, before: number): Html {
  if (before === 0)
    return html`<span class="delta">${now === 0 ? 'no change' : 'new this period'}</span>`;
  const change = (now - before) / before;
  const dir = change > 0 ? 'up' : change < 0 ? 'down' : '';
  const sign = change > 0 ? '+' : '';
  return html`<span class="delta ${dir}">${sign}${ctx.pct(change)} vs previous ${ctx.range.days} days (${ctx.num(before)})</span>`;
}

/** The ranked table of one group key, with conversion rates. */
function groupColumns(ctx: OrgContext, key: TrafficGroup, label: string): Column<TrafficRow>[] {
  return [
    { label, value: (r) => r.keys[key] ?? '(none)' },
    numberColumn('Sessions', (r) => r.metrics.sessions, ctx.num),
    numberColumn('Calls', (r) => r.metrics.calls, ctx.num),
    numberColumn('Session → call', (r) => r.rates.session_to_call_rate, ctx.pct),
    numberColumn('Buyer successes', (r) => r.metrics.buyer_success, ctx.num),
    numberColumn('Call → success', (r) => r.rates.call_to_success_rate, ctx.pct),
  ];
}

const byCalls = (a: TrafficRow, b: TrafficRow) =>
  b.metrics.calls - a.metrics.calls || b.metrics.sessions - a.metrics.sessions;

/** Every local day of the range, so days without traffic show as zeros in the chart. */
function daysOf(r: DayRange): string[] {
  const out: string[] = [];
  for (let d = r.from; d <= r.to; d = addDays(d, 1)) out.push(d);
  return out;
}

export function overviewPage(router: ConsoleRouter): void {
  const { reports } = router;
  router.orgPage('/overview', 'overview', async (ctx): Promise<PageResult> => {
    const base = { kind: 'traffic' as const, ...reportRange(ctx) };
    const prev = previousRange(ctx.range);
    const [daily, previous, sources, campaigns, known] = await Promise.all([
      reports.trafficReport(ctx.org.id, { ...base, bucket: 'day', groupBy: [] }),
      reports.trafficReport(ctx.org.id, {
        ...base,
        from: prev.since,
        to: prev.until,
        bucket: 'none',
        groupBy: [],
      }),
      reports.trafficReport(ctx.org.id, { ...base, bucket: 'none', groupBy: ['source'] }),
      reports.trafficReport(ctx.org.id, { ...base, bucket: 'none', groupBy: ['campaign'] }),
      router.deps.queries.config.listCampaigns(ctx.org.id, { limit: 1 }),
    ]);
    const t = daily.totals.metrics;
    const p = previous.totals.metrics;
    const days = daysOf(ctx.range);
    // Bucket starts are local midnights: their local day is the key.
    const byDay = new Map(
      daily.rows.map((r) => [
        new Intl.DateTimeFormat('en-CA', { timeZone: ctx.zone }).format(r.bucketStart!),
        r.metrics,
      ]),
    );
    const series = (m: 'sessions' | 'calls' | 'buyer_success') =>
      days.map((d) => byDay.get(d)?.[m] ?? 0);
    const dayLabel = new Intl.DateTimeFormat(ctx.locale, {
      month: 'short',
      day: 'numeric',
      timeZone: 'UTC',
    });
    const labels = days.map((d) => dayLabel.format(new Date(`${d}T00:00:00Z`)));
    const dayRows = days.map((d, i) => ({
      day: d,
      sessions: series('sessions')[i]!,
      calls: series('calls')[i]!,
      success: series('buyer_success')[i]!,
    }));
    type DayRow = (typeof dayRows)[number];
    const dayColumns: Column<DayRow>[] = [
      { label: 'Day', value: (r) => r.day, cell: (r) => dayCell(r.day) },
      numberColumn('Sessions', (r) => r.sessions, ctx.num),
      numberColumn('Calls', (r) => r.calls, ctx.num),
      numberColumn('Buyer successes', (r) => r.success, ctx.num),
    ];
    const sourceColumns = groupColumns(ctx, 'source', 'Source');
    const campaignColumns = groupColumns(ctx, 'campaign', 'Campaign');
    const topSources = sources.rows.sort(byCalls).slice(0, 10);
    const topCampaigns = campaigns.rows.sort(byCalls).slice(0, 10);
    const path = orgPath(ctx.org.id, 'overview');
    const keep = { from: ctx.range.from, to: ctx.range.to };
    const nothingYet =
      known.length === 0
        ? html`<section class="card"><h2>Get started</h2><ol>
<li>Create your first campaign under <a href="${orgPath(ctx.org.id, 'campaigns')}">Campaigns and pools</a>, with the tracking numbers your site will show.</li>
<li>Ask your operator for an API key with the <code>enroll</code> scope, and add the website kit to your pages: each visit asks <code>POST /dni/session</code> for a number.</li>
<li>Calls to those numbers, and your buyers’ reports, show here.</li>
</ol></section>`
        : '';
    return {
      title: 'Overview',
      tables: {
        days: { columns: dayColumns, rows: dayRows },
        sources: { columns: sourceColumns, rows: topSources },
        campaigns: { columns: campaignColumns, rows: topCampaigns },
      },
      body: html`${nothingYet}
<section class="kpis" aria-label="Totals for the range">
${KPIS.map(
  ([key, label]) =>
    html`<div class="kpi"><div class="label">${label}</div><div class="value" data-metric="${key}">${ctx.num(t[key])}</div>${delta(ctx, t[key], p[key])}</div>`,
)}
<div class="kpi"><div class="label">Revenue (${ctx.org.currency})</div><div class="value" data-metric="revenue">${daily.totals.money.revenue}</div><span class="delta">${previous.totals.money.revenue} the previous ${ctx.range.days} days</span></div>
</section>
<section class="chart">
<h2>Sessions, calls and buyer successes per day</h2>
<div class="scroll" tabindex="0" role="region" aria-label="Chart">${lineChart({
        title: `Sessions, calls and buyer successes per day, ${ctx.range.from} to ${ctx.range.to}`,
        labels,
        series: [
          { name: 'Sessions', colour: COLOURS.sessions, values: series('sessions') },
          { name: 'Calls', colour: COLOURS.calls, values: series('calls') },
          { name: 'Buyer successes', colour: COLOURS.success, values: series('buyer_success') },
        ],
        format: (n) => ctx.num(n),
      })}</div>
<ul class="legend"><li><span class="sw1"></span>Sessions</li><li><span class="sw2"></span>Calls</li><li><span class="sw3"></span>Buyer successes</li></ul>
<details><summary>The numbers per day</summary>
${table({ caption: 'Per day', columns: dayColumns, rows: dayRows, empty: '', csv: csvLink(keep, path, 'days') })}
</details>
</section>
${table({
  caption: 'Top sources',
  columns: sourceColumns,
  rows: topSources,
  csv: csvLink(keep, path, 'sources'),
  empty:
    'No sessions or calls in this range. Sources come from utm_source, or the click id’s network (gclid: google, fbclid: meta, msclkid: microsoft), else direct.',
})}
${table({
  caption: 'Top campaigns',
  columns: campaignColumns,
  rows: topCampaigns,
  csv: csvLink(keep, path, 'campaigns'),
  empty:
    'No campaign had traffic in this range. Widen the range, or check the website kit is on your pages.',
})}`,
    };
  });
}
