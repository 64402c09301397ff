import { barChart } from '../../chart.js';
import type { OrgContext } from '../../context.js';
import { emptyForm, type FormState, fieldError, formProblems, invalid } from '../../forms.js';
import { type Html, html } from '../../html.js';
import { orgPath } from '../../layout.js';
import type { PageResult } from '../../router.js';
import { type Column, csvLink, table, timeColumn } from '../../table.js';
import { csrfField } from '../shared/admin.js';
import { callOutcomes } from '../shared/outcomes.js';
import { COUNTRY_HINT, canChange } from './fields.js';
import { type CampaignData, POOL_MAX_DAYS } from './pool.js';

type N = CampaignData['numbers'][number];

/** The forms sent back with their problems; absent, the campaign's current values. */
export interface CampaignForms {
  settings?: FormState;
  add?: FormState;
}

function numberColumns(ctx: OrgContext, base: string): Column<N>[] {
  return [
    { label: 'Number', value: (n) => n.number.e164 },
    { label: 'Role', value: (n) => n.number.role },
    { label: 'Held now', value: (n) => (n.sessionId ? 'yes' : 'no') },
    timeColumn('Last handed out', (n) => n.number.lastAssignedAt, ctx.zone),
    ...(canChange(ctx)
      ? [
          {
            label: 'Remove',
            value: () => '',
            cell: (n: N) =>
              n.number.role === 'pool'
                ? html`<form method="post" action="${base}/numbers/remove" class="inline">${csrfField(ctx)}<input type="hidden" name="number" value="${n.number.e164}"><button type="submit" class="secondary" data-confirm="Remove this number from the pool?" aria-label="Remove ${n.number.e164}">Remove</button></form>`
                : '',
          },
        ]
      : []),
  ];
}

function kpis(ctx: OrgContext, d: CampaignData, spanWords: string): Html {
  const { c, pool, heldNow } = d;
  const t = d.totals;
  return html`<section class="kpis" aria-label="Calls in the range">
<div class="kpi"><div class="label">Calls</div><div class="value" data-metric="calls">${ctx.num(t.calls)}</div></div>
<div class="kpi"><div class="label">Missed calls</div><div class="value" data-metric="calls_missed"><a href="${orgPath(ctx.org.id, 'calls')}?${new URLSearchParams({ from: ctx.range.from, to: ctx.range.to, campaign: c.code, status: 'missed' }).toString()}">${ctx.num(t.calls_missed)}</a></div></div>
<div class="kpi"><div class="label">Answer rate</div><div class="value" data-metric="answer_rate">${ctx.pct(callOutcomes(t).answerRate)}</div></div>
<div class="kpi"><div class="label">Calls on a shared number</div><div class="value" data-metric="calls_on_shared_number">${ctx.num(t.calls_on_shared_number)}</div><span class="delta">${ctx.num(t.sessions_ambiguous)} of ${ctx.num(t.sessions)} sessions ambiguous</span></div>
</section>
<section class="kpis" aria-label="Pool">
<div class="kpi"><div class="label">Pool numbers</div><div class="value" data-metric="pool_numbers">${ctx.num(pool.numbers)}</div></div>
<div class="kpi"><div class="label">Held now</div><div class="value" data-metric="held_now">${ctx.num(heldNow)}</div></div>
<div class="kpi"><div class="label">Peak held, ${spanWords}</div><div class="value" data-metric="peak_held">${ctx.num(pool.peak_held)}</div></div>
<div class="kpi"><div class="label">Calls matched to the right visit (estimate)</div><div class="value" data-metric="accuracy">${ctx.pct(pool.accuracy.estimated)}</div></div>
</section>`;
}

function sizing(ctx: OrgContext, d: CampaignData, spanWords: string): Html {
  const { pool } = d;
  const r = pool.recommendation;
  const holdMinutes = r.mean_hold_seconds === null ? null : Math.round(r.mean_hold_seconds / 60);
  return html`<section class="card" id="sizing"><h2>Is this pool big enough?</h2>
<p data-advice>${
    r.size === null
      ? (r.note ?? 'No advice yet.')
      : r.size <= pool.numbers
        ? html`Yes. To match ${ctx.pct(r.target)} of calls to the visit that made them, this campaign needs <strong>${ctx.num(r.size)}</strong> numbers, and it has ${ctx.num(pool.numbers)}.`
        : html`No. To match ${ctx.pct(r.target)} of calls to the visit that made them, this campaign needs <strong>${ctx.num(r.size)}</strong> numbers; it has ${ctx.num(pool.numbers)}. Add ${ctx.num(r.size - pool.numbers)} below.`
  }</p>
${
  r.size !== null
    ? html`<p class="hint">From ${spanWords}: the busiest hour brought ${ctx.num(r.busiest_hour_new_sessions)} new visitors, and a visitor kept a number for about ${ctx.num(holdMinutes)} minutes.</p>`
    : ''
}
<details><summary>How this is worked out</summary><p class="hint">${pool.accuracy.method}. docs/pool-sizing.md explains the model.</p></details>
</section>`;
}

function poolChart(ctx: OrgContext, d: CampaignData, spanWords: string): Html {
  const { pool } = d;
  const hourLabel = new Intl.DateTimeFormat(ctx.locale, {
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    timeZone: ctx.zone,
  });
  return html`<section class="chart"><h2>Peak numbers held per hour, ${spanWords}</h2>
${
  pool.hourly.length === 0 || pool.sessions.allocated + pool.sessions.sticky === 0
    ? html`<p class="empty">No sessions from ${spanWords}. Once the website kit asks for numbers, this shows how many were held at once.</p>`
    : html`<div class="chart-box">${barChart({
        title: `Peak numbers held per hour from ${spanWords}, against the pool size`,
        labels: pool.hourly.map((h) => hourLabel.format(new Date(h.hour))),
        values: pool.hourly.map((h) => h.peak_held),
        limit: pool.numbers,
        colour: '#1d4ed8',
        format: (n) => ctx.num(n),
      })}</div>`
}
</section>`;
}

/** Call forwarding, the overflow number and adding numbers: for those who may change them. */
function changeForms(ctx: OrgContext, d: CampaignData, base: string, forms: CampaignForms): Html {
  const { c, numbers } = d;
  const settings =
    forms.settings ??
    emptyForm({
      name: c.name,
      forward_to: c.forwardTo ?? '',
      overflow_number: numbers.find((n) => n.number.role === 'overflow')?.number.e164 ?? '',
    });
  const add = forms.add ?? emptyForm();
  return html`<section class="card" id="settings"><h2>Call forwarding and settings</h2>
${formProblems(settings)}
<form method="post" action="${base}/settings" class="grid-form pairs" novalidate>${csrfField(ctx)}
<label for="s-name">Name</label>
<div class="field"><input id="s-name" name="name" required maxlength="200" value="${settings.values.name ?? ''}"${invalid(settings, 'name', 's-name')}>${fieldError(settings, 'name', 's-name')}</div>
<label for="s-forward">Forward calls to</label>
<div class="field"><input id="s-forward" name="forward_to" inputmode="tel" autocomplete="tel" value="${settings.values.forward_to ?? ''}" aria-describedby="s-forward-hint"${invalid(settings, 'forward_to', 's-forward')}>
<span class="hint" id="s-forward-hint">The phone that rings when someone calls this campaign’s numbers. ${COUNTRY_HINT(ctx)} Empty: calls are not answered.</span>${fieldError(settings, 'forward_to', 's-forward')}</div>
<label for="s-overflow">Overflow number</label>
<div class="field"><input id="s-overflow" name="overflow_number" inputmode="tel" value="${settings.values.overflow_number ?? ''}"${invalid(settings, 'overflow_number', 's-overflow')}>${fieldError(settings, 'overflow_number', 's-overflow')}</div>
<div></div><div><button type="submit">Save settings</button></div>
</form></section>
<section class="card" id="add-numbers-card"><h2>Add numbers</h2>
${formProblems(add)}
<form method="post" action="${base}/numbers" class="stack" novalidate>${csrfField(ctx)}
<label for="add-numbers">Numbers (one per line)</label><textarea id="add-numbers" name="numbers" rows="3" required aria-describedby="add-numbers-hint"${invalid(add, 'numbers', 'add-numbers')}>${add.values.numbers ?? ''}</textarea>
<span class="hint" id="add-numbers-hint">${COUNTRY_HINT(ctx)}</span>${fieldError(add, 'numbers', 'add-numbers')}
<button type="submit">Add to pool</button></form></section>`;
}

/** One campaign's page: its calls, whether its pool is big enough, its numbers and settings. */
export function campaignView(
  ctx: OrgContext,
  d: CampaignData,
  notice: string | null,
  forms: CampaignForms,
): PageResult {
  const { c, numbers, clamped } = d;
  const base = orgPath(ctx.org.id, `campaigns/${encodeURIComponent(c.code)}`);
  const columns = numberColumns(ctx, base);
  const spanWords = `${ctx.range.from} to ${ctx.range.to}`;
  return {
    title: `Campaign ${c.code}: ${c.name}`,
    range: true,
    notice,
    tables: { numbers: { columns, rows: numbers } },
    body: html`<p><a href="${orgPath(ctx.org.id, 'campaigns')}">← All campaigns</a> · <a href="${base}/routing">Routing plan: which buyers take its calls</a></p>
${
  c.forwardTo
    ? ''
    : html`<p class="error" role="alert">Calls to this campaign are not forwarded: callers hear that no one is available. Set “Forward calls to” below.</p>`
}
${clamped ? html`<p class="notice" role="status">The pool is read over the last ${POOL_MAX_DAYS} days of the range (${ctx.range.days} days were asked for); the call counts cover the whole range.</p>` : ''}
${kpis(ctx, d, spanWords)}
${sizing(ctx, d, spanWords)}
${poolChart(ctx, d, spanWords)}
${table({ caption: 'Numbers', columns, rows: numbers, csv: csvLink({}, base, 'numbers'), stacked: true, empty: 'No numbers.' })}
${canChange(ctx) ? changeForms(ctx, d, base, forms) : ''}`,
  };
}
