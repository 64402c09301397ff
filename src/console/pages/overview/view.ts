import type { TrafficRow } from '../../../domain/reports/types.js';
import type { TrafficGroup } from '../../../domain/reports/vocabulary.js';
import { lineChart } from '../../chart.js';
import type { OrgContext } from '../../context.js';
import { type Html, html } from '../../html.js';
import { orgPath } from '../../layout.js';
import type { PageResult } from '../../router.js';
import { type Column, csvLink, numberColumn, table } from '../../table.js';
import { addDays, type DayRange, dayCell } from '../../time.js';
import { callOutcomes } from '../shared/outcomes.js';
import type { OverviewData } from './read.js';

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

/** The ranked table of one group key, with conversion rates, missed calls and ambiguity. */
function groupColumns(ctx: OrgContext, key: TrafficGroup, label: string): Column<TrafficRow>[] {
  const keep = { from: ctx.range.from, to: ctx.range.to };
  const callsLink = (r: TrafficRow, extra: Record<string, string>) =>
    `${orgPath(ctx.org.id, 'calls')}?${new URLSearchParams({ ...keep, [key === 'campaign' ? 'campaign' : 'source']: r.keys[key] ?? '', ...extra }).toString()}`;
  return [
    {
      label,
      value: (r) => r.keys[key] ?? '(none)',
      cell: (r) =>
        key === 'campaign' && r.keys.campaign
          ? html`<a href="${orgPath(ctx.org.id, `campaigns/${encodeURIComponent(r.keys.campaign)}`)}?${new URLSearchParams(keep).toString()}">${r.keys.campaign}</a>`
          : (r.keys[key] ?? '(none)'),
    },
    numberColumn('Sessions', (r) => r.metrics.sessions, ctx.num),
    {
      ...numberColumn('Calls', (r) => r.metrics.calls, ctx.num),
      cell: (r) =>
        r.keys[key] && r.metrics.calls > 0
          ? html`<a href="${callsLink(r, {})}">${ctx.num(r.metrics.calls)}</a>`
          : ctx.num(r.metrics.calls),
    },
    {
      ...numberColumn('Missed', (r) => r.metrics.calls_missed, ctx.num),
      cell: (r) =>
        r.keys[key] && r.metrics.calls_missed > 0
          ? html`<a href="${callsLink(r, { status: 'missed' })}">${ctx.num(r.metrics.calls_missed)}</a>`
          : ctx.num(r.metrics.calls_missed),
    },
    numberColumn('Session → call', (r) => r.rates.session_to_call_rate, ctx.pct),
    numberColumn('Buyer successes', (r) => r.metrics.buyer_success, ctx.num),
    numberColumn('Call → success', (r) => r.rates.call_to_success_rate, ctx.pct),
    {
      ...numberColumn('On a shared number', (r) => r.metrics.calls_on_shared_number, ctx.num),
      low: true,
    },
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

interface DayRow {
  day: string;
  sessions: number;
  calls: number;
  success: number;
}

/** The range's days with their counts, and the chart's label of each. */
function perDay(ctx: OrgContext, daily: OverviewData['daily']) {
  const days = daysOf(ctx.range);
  // Bucket starts are local midnights: their local day is the key.
  const byDay = new Map(
    daily.rows.map((r) => [
      new Intl.DateTimeFormat('en-CA', { timeZone: ctx.zone }).format(r.bucketStart!),
      r.metrics,
    ]),
  );
  const count = (d: string, m: 'sessions' | 'calls' | 'buyer_success') => byDay.get(d)?.[m] ?? 0;
  const dayLabel = new Intl.DateTimeFormat(ctx.locale, {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });
  const labels = days.map((d) => dayLabel.format(new Date(`${d}T00:00:00Z`)));
  const rows: DayRow[] = days.map((d) => ({
    day: d,
    sessions: count(d, 'sessions'),
    calls: count(d, 'calls'),
    success: count(d, 'buyer_success'),
  }));
  const columns: Column<DayRow>[] = [
    { label: 'Day', value: (r) => r.day, cell: (r) => dayCell(r.day) },
    numberColumn('Sessions', (r) => r.sessions, ctx.num),
    numberColumn('Calls', (r) => r.calls, ctx.num),
    numberColumn('Buyer successes', (r) => r.success, ctx.num),
  ];
  return { labels, rows, columns };
}

/** The totals with their change on the previous range, then answering and ambiguity. */
function kpis(
  ctx: OrgContext,
  { daily, previous }: OverviewData,
  keep: Record<string, string>,
): Html {
  const t = daily.totals.metrics;
  const p = previous.totals.metrics;
  const outcomes = callOutcomes(t);
  return html`<section class="kpis" aria-label="Totals for the range">
${KPIS.map(
  ([key, label]) =>
    html`<div class="kpi"><div class="label">${label}</div><div class="value" data-metric="${key}">${ctx.num(t[key])}</div>${delta(ctx, t[key], p[key])}</div>`,
)}
<div class="kpi"><div class="label">Revenue (${ctx.org.currency})</div><div class="value" data-metric="revenue">${daily.totals.money.revenue}</div><span class="delta">${previous.totals.money.revenue} the previous ${ctx.range.days} days</span></div>
</section>
<section class="kpis" aria-label="Answering and ambiguity for the range">
<div class="kpi"><div class="label">Missed calls</div><div class="value" data-metric="calls_missed"><a href="${orgPath(ctx.org.id, 'calls')}?${new URLSearchParams({ ...keep, status: 'missed' }).toString()}">${ctx.num(t.calls_missed)}</a></div>${delta(ctx, t.calls_missed, p.calls_missed)}</div>
<div class="kpi"><div class="label">Answer rate</div><div class="value" data-metric="answer_rate">${ctx.pct(outcomes.answerRate)}</div><span class="delta">${ctx.num(outcomes.answered)} answered of ${ctx.num(outcomes.answered + outcomes.missed)} with an outcome</span></div>
<div class="kpi"><div class="label">Ambiguous sessions</div><div class="value" data-metric="sessions_ambiguous">${ctx.num(t.sessions_ambiguous)}</div><span class="delta">${ctx.pct(daily.totals.rates.ambiguous_share)} of sessions shared a number</span></div>
<div class="kpi"><div class="label">Calls on a shared number</div><div class="value" data-metric="calls_on_shared_number">${ctx.num(t.calls_on_shared_number)}</div><span class="delta">their visit is uncertain: <a href="${orgPath(ctx.org.id, 'campaigns')}">is the pool big enough?</a></span></div>
</section>`;
}

/** Sessions, calls and buyer successes per day, drawn and as a table. */
function dayChart(
  ctx: OrgContext,
  days: ReturnType<typeof perDay>,
  keep: Record<string, string>,
  path: string,
): Html {
  return html`<section class="chart">
<h2>Sessions, calls and buyer successes per day</h2>
<div class="chart-box">${lineChart({
    title: `Sessions, calls and buyer successes per day, ${ctx.range.from} to ${ctx.range.to}`,
    labels: days.labels,
    series: [
      { name: 'Sessions', colour: COLOURS.sessions, values: days.rows.map((r) => r.sessions) },
      { name: 'Calls', colour: COLOURS.calls, values: days.rows.map((r) => r.calls) },
      { name: 'Buyer successes', colour: COLOURS.success, values: days.rows.map((r) => r.success) },
    ],
    format: (n) => ctx.num(n),
  })}</div>
<ul class="legend"><li><span class="sw1"></span>Sessions</li><li><span class="sw2"></span>Calls</li><li><span class="sw3"></span>Buyer successes</li></ul>
<details><summary>The numbers per day</summary>
${table({ caption: 'Per day', columns: days.columns, rows: days.rows, empty: '', csv: csvLink(keep, path, 'days') })}
</details>
</section>`;
}

/** What to do first, while the organization has no campaign. */
function gettingStarted(ctx: OrgContext): Html {
  return html`<section class="card"><h2>Get started</h2><ol>
<li>Create your first campaign under <a href="${orgPath(ctx.org.id, 'campaigns')}">Campaigns and pools</a>, with the tracking numbers your site will show.</li>
<li>Ask your operator for an API key with the <code>enroll</code> scope, and add the website kit to your pages: each visit asks <code>POST /dni/session</code> for a number.</li>
<li>Calls to those numbers, and your buyers’ reports, show here.</li>
</ol></section>`;
}

/** The overview page from what readOverview read. */
export function overviewView(ctx: OrgContext, data: OverviewData): PageResult {
  const keep = { from: ctx.range.from, to: ctx.range.to };
  const days = perDay(ctx, data.daily);
  const sourceColumns = groupColumns(ctx, 'source', 'Source');
  const campaignColumns = groupColumns(ctx, 'campaign', 'Campaign');
  const topSources = data.sources.rows.sort(byCalls).slice(0, 10);
  const topCampaigns = data.campaigns.rows.sort(byCalls).slice(0, 10);
  const path = orgPath(ctx.org.id, 'overview');
  const nothingYet = data.known.length === 0 ? gettingStarted(ctx) : '';
  return {
    title: 'Overview',
    tables: {
      days: { columns: days.columns, rows: days.rows },
      sources: { columns: sourceColumns, rows: topSources },
      campaigns: { columns: campaignColumns, rows: topCampaigns },
    },
    body: html`${data.versions}${nothingYet}
${kpis(ctx, data, keep)}
${dayChart(ctx, days, keep, path)}
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
}
