import {
  addCampaignNumbers,
  createCampaign,
  updateCampaign,
} from '../../domain/admin/campaigns.js';
import type { AdminContext } from '../../domain/admin/orgs-keys.js';
import { actorOf } from '../../domain/console/accounts.js';
import { poolHealthView } from '../../domain/dni/pool-health.js';
import { normalizeE164 } from '../../domain/phone/e164.js';
import { AppError, errors } from '../../errors.js';
import { barChart } from '../chart.js';
import type { OrgContext } from '../context.js';
import { html } from '../html.js';
import { type Column, csvLink, numberColumn, orgPath, table } from '../layout.js';
import { type ConsoleRouter, own, type PageResult } from '../router.js';
import { timeCell } from '../time.js';

const DAY_MS = 86_400_000;
/** The pool answer's accuracy target (the admin API's default). */
const TARGET = 0.99;

const NOTICES: Record<string, string> = {
  created: 'Campaign created. Put its numbers on your site with the website kit.',
  added: 'Numbers added to the pool.',
  removed: 'Number removed. A visitor holding it keeps it until their session ends.',
};

/** Numbers typed one per line or separated by commas, each made E.164. */
function numbersOf(text: string): string[] {
  const raw = text
    .split(/[\s,;]+/)
    .filter(Boolean)
    .slice(0, 1000);
  const bad = raw.filter((n) => normalizeE164(n) === null);
  if (bad.length > 0)
    throw errors.field(
      ['body', 'numbers'],
      `not a phone number: ${bad.slice(0, 3).join(', ')}`,
      bad,
    );
  return raw.map((n) => normalizeE164(n)!);
}

export function campaignPages(router: ConsoleRouter): void {
  const { deps } = router;
  const { config, pool: poolReads } = deps.queries;
  const admin = (ctx: OrgContext, requestId: string): AdminContext<typeof deps.repos> => ({
    repos: deps.repos,
    keyring: deps.keyring,
    now: () => new Date(deps.clock.now()),
    requestId,
    actor: actorOf(ctx.viewer.user),
  });
  const csrf = (ctx: OrgContext) =>
    html`<input type="hidden" name="_csrf" value="${ctx.viewer.session.csrfToken}">`;
  const canChange = (ctx: OrgContext) => ctx.role !== 'viewer';

  router.orgPage('/campaigns', 'campaigns', async (ctx, q): Promise<PageResult> => {
    const rows = await config.listCampaigns(ctx.org.id, { limit: 500 });
    type Row = (typeof rows)[number];
    const columns: Column<Row>[] = [
      {
        label: 'Code',
        value: (r) => r.campaign.code,
        cell: (r) =>
          html`<a href="${orgPath(ctx.org.id, `campaigns/${encodeURIComponent(r.campaign.code)}`)}">${r.campaign.code}</a>`,
      },
      { label: 'Name', value: (r) => r.campaign.name },
      numberColumn('Pool numbers', (r) => r.poolSize, ctx.num),
      { label: 'Overflow number', value: (r) => r.overflowNumber ?? '' },
      { label: 'Session minutes', value: (r) => r.campaign.sessionTtlSeconds / 60, numeric: true },
    ];
    const path = orgPath(ctx.org.id, 'campaigns');
    return {
      title: 'Campaigns and pools',
      range: false,
      notice: own(NOTICES, q.notice) ?? null,
      tables: { campaigns: { columns, rows } },
      body: html`${table({
        caption: 'Campaigns',
        columns,
        rows,
        csv: csvLink({}, path, 'campaigns'),
        stacked: true,
        empty: canChange(ctx)
          ? 'No campaign yet. Create the first one below with the tracking numbers your site will show.'
          : 'No campaign yet. A manager of this organization can create one.',
      })}
${
  canChange(ctx)
    ? html`<section class="card"><h2>New campaign</h2>
<form method="post" action="${path}" class="grid-form">${csrf(ctx)}
<label>Code (1–3 characters) <input name="code" required minlength="1" maxlength="3" pattern="[A-Za-z0-9_-]{1,3}"></label>
<label>Name <input name="name" required maxlength="200"></label>
<label>Tracking numbers (one per line) <textarea name="numbers" rows="4" required></textarea></label>
<label>Overflow number (optional) <input name="overflow_number"></label>
<div><button type="submit">Create campaign</button></div>
</form></section>`
    : ''
}`,
    };
  });

  router.orgAction('/campaigns', async (ctx, form, _p, req) => {
    const code = (form.get('code') ?? '').trim();
    if (!/^[A-Za-z0-9_-]{1,3}$/.test(code))
      throw errors.field(['body', 'code'], 'use 1 to 3 letters, digits, - or _', code);
    const overflow = (form.get('overflow_number') ?? '').trim();
    await createCampaign(admin(ctx, req.id), ctx.org.id, {
      code,
      name: (form.get('name') ?? '').trim().slice(0, 200) || code,
      numbers: numbersOf(form.get('numbers') ?? ''),
      ...(overflow ? { overflow_number: numbersOf(overflow)[0]! } : {}),
    });
    return `${orgPath(ctx.org.id, `campaigns/${encodeURIComponent(code)}`)}?notice=created`;
  });

  router.orgPage('/campaigns/:code', 'campaigns', async (ctx, q, p): Promise<PageResult> => {
    const c = await config.findCampaign(ctx.org.id, p.code ?? '');
    if (!c) throw new AppError('Not Found');
    const days = Math.min(ctx.range.days, 90);
    const since = new Date(ctx.now.getTime() - days * DAY_MS);
    const [observed, numbers] = await Promise.all([
      poolReads.observePool(c.id, since, ctx.now),
      config.listNumbers(c.id, { limit: 2000, now: ctx.now }),
    ]);
    const pool = poolHealthView(c.code, observed, { days, target: TARGET, since, now: ctx.now });
    type N = (typeof numbers)[number];
    const base = orgPath(ctx.org.id, `campaigns/${encodeURIComponent(c.code)}`);
    const numberColumns: Column<N>[] = [
      { label: 'Number', value: (n) => n.number.e164 },
      { label: 'Role', value: (n) => n.number.role },
      { label: 'Held now', value: (n) => (n.sessionId ? 'yes' : 'no') },
      {
        label: 'Last handed out',
        value: (n) => n.number.lastAssignedAt?.toISOString() ?? '',
        cell: (n) => timeCell(n.number.lastAssignedAt, ctx.zone),
      },
      ...(canChange(ctx)
        ? [
            {
              label: 'Remove',
              value: () => '',
              cell: (n: N) =>
                n.number.role === 'pool'
                  ? html`<form method="post" action="${base}/numbers/remove" class="inline">${csrf(ctx)}<input type="hidden" name="number" value="${n.number.e164}"><button type="submit" class="secondary" data-confirm="Remove this number from the pool?" aria-label="Remove ${n.number.e164}">Remove</button></form>`
                  : '',
            },
          ]
        : []),
    ];
    const hourLabel = new Intl.DateTimeFormat(ctx.locale, {
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      timeZone: ctx.zone,
    });
    const r = pool.recommendation;
    return {
      title: `Campaign ${c.code}: ${c.name}`,
      range: true,
      notice: own(NOTICES, q.notice) ?? null,
      tables: { numbers: { columns: numberColumns, rows: numbers } },
      body: html`<p><a href="${orgPath(ctx.org.id, 'campaigns')}">← All campaigns</a></p>
<section class="kpis" aria-label="Pool">
<div class="kpi"><div class="label">Pool numbers</div><div class="value">${ctx.num(pool.numbers)}</div></div>
<div class="kpi"><div class="label">Held now</div><div class="value">${ctx.num(pool.held_now)}</div></div>
<div class="kpi"><div class="label">Peak held (${days} days)</div><div class="value">${ctx.num(pool.peak_held)}</div></div>
<div class="kpi"><div class="label">Estimated attribution accuracy</div><div class="value">${ctx.pct(pool.accuracy.estimated)}</div></div>
</section>
<section class="card"><h2>Sizing advice</h2>
<p>${
        r.size === null
          ? (r.note ?? 'No advice yet.')
          : html`For ${ctx.pct(r.target)} accuracy this pool needs <strong>${ctx.num(r.size)}</strong> numbers (it has ${ctx.num(pool.numbers)}); predicted accuracy at that size ${ctx.pct(r.predicted_accuracy)}.`
      }</p>
<p class="hint">${pool.accuracy.method}. Busiest hour: ${ctx.num(r.busiest_hour_new_sessions)} new sessions; mean hold ${ctx.num(r.mean_hold_seconds)} s.</p>
</section>
<section class="chart"><h2>Peak numbers held per hour</h2>
${
  pool.hourly.length === 0
    ? html`<p class="empty">No sessions in the last ${days} days. Once the website kit asks for numbers, this shows how many were held at once.</p>`
    : html`<div class="scroll" tabindex="0" role="region" aria-label="Chart">${barChart({
        title: `Peak numbers held per hour over the last ${days} days, against the pool size`,
        labels: pool.hourly.map((h) => hourLabel.format(new Date(h.hour))),
        values: pool.hourly.map((h) => h.peak_held),
        limit: pool.numbers,
        colour: '#1d4ed8',
        format: (n) => ctx.num(n),
      })}</div>`
}
</section>
${table({ caption: 'Numbers', columns: numberColumns, rows: numbers, csv: csvLink({}, base, 'numbers'), stacked: true, empty: 'No numbers.' })}
${
  canChange(ctx)
    ? html`<section class="card"><h2>Add numbers</h2>
<form method="post" action="${base}/numbers" class="stack">${csrf(ctx)}
<label for="add-numbers">Numbers (one per line)</label><textarea id="add-numbers" name="numbers" rows="3" required></textarea>
<button type="submit">Add to pool</button></form></section>`
    : ''
}`,
    };
  });

  router.orgAction('/campaigns/:code/numbers', async (ctx, form, p, req) => {
    await addCampaignNumbers(
      admin(ctx, req.id),
      ctx.org.id,
      p.code!,
      numbersOf(form.get('numbers') ?? ''),
    );
    return `${orgPath(ctx.org.id, `campaigns/${encodeURIComponent(p.code!)}`)}?notice=added`;
  });

  router.orgAction('/campaigns/:code/numbers/remove', async (ctx, form, p, req) => {
    const c = await config.findCampaign(ctx.org.id, p.code ?? '');
    if (!c) throw new AppError('Not Found');
    const gone = numbersOf(form.get('number') ?? '');
    const pool = (
      await config.listNumbers(c.id, { limit: 10_000, now: ctx.now, role: 'pool' })
    ).map((n) => n.number.e164);
    const keep = pool.filter((n) => !gone.includes(n));
    if (keep.length === 0)
      throw errors.field(['body', 'number'], 'a pool keeps at least one number', gone);
    await updateCampaign(admin(ctx, req.id), ctx.org.id, c.code, { numbers: keep });
    return `${orgPath(ctx.org.id, `campaigns/${encodeURIComponent(c.code)}`)}?notice=removed`;
  });
}
