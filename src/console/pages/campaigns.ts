import {
  addCampaignNumbers,
  createCampaign,
  updateCampaign,
} from '../../domain/admin/campaigns.js';
import type { AdminContext } from '../../domain/admin/orgs-keys.js';
import { actorOf } from '../../domain/console/accounts.js';
import { poolHealthView } from '../../domain/dni/pool-health.js';
import type { PoolObservation } from '../../domain/dni/ports.js';
import { AppError, errors } from '../../errors.js';
import { barChart } from '../chart.js';
import { type OrgContext, reportRange } from '../context.js';
import { emptyForm, type FormState, fieldError, formProblems, invalid } from '../forms.js';
import { html } from '../html.js';
import { type Column, csvLink, numberColumn, orgPath, table, timeColumn } from '../layout.js';
import { readNumber, readNumbers } from '../phone.js';
import { type ConsoleRouter, own, type PageResult } from '../router.js';
import { callOutcomes } from './outcomes.js';

/** The pool answer's accuracy target (the admin API's default). */
const TARGET = 0.99;
/** The longest window the pool model reads (its cost grows with the hours). */
export const POOL_MAX_DAYS = 90;

const NOTICES: Record<string, string> = {
  created: 'Campaign created. Put its numbers on your site with the website kit.',
  added: 'Numbers added to the pool.',
  removed: 'Number removed. A visitor holding it keeps it until their session ends.',
  saved: 'Campaign settings saved.',
};

const COUNTRY_HINT = (ctx: OrgContext) =>
  `Numbers without a country code are read as ${ctx.org.phoneCountry} numbers.`;

/** The numbers of a box, or the message for the field (what could not be read, as typed). */
function numbersField(
  f: FormState,
  name: string,
  text: string,
  country: string,
  required: boolean,
): string[] {
  const { numbers, bad } = readNumbers(text, country);
  if (bad.length > 0)
    f.errors[name] =
      `Not a phone number: ${bad.slice(0, 3).join(', ')}${bad.length > 3 ? ` and ${bad.length - 3} more` : ''}. The others are kept; correct or remove these.`;
  else if (required && numbers.length === 0) f.errors[name] = 'Enter at least one number.';
  return numbers;
}

function oneNumber(f: FormState, name: string, text: string, country: string): string | null {
  const t = text.trim();
  if (!t) return null;
  const n = readNumber(t, country);
  if (n === null) f.errors[name] = `Not a phone number: ${t}`;
  return n;
}

/** The reason a 409 of the admin domain gives, as the field it belongs to. */
function conflictField(f: FormState, err: unknown, fields: Record<string, string>): boolean {
  if (!(err instanceof AppError) || err.code !== 'conflict') return false;
  const reason = String(err.extra.reason ?? '');
  if (reason === 'campaign_code_taken') f.errors.code = 'This code is taken: choose another.';
  else if (reason.startsWith('number_in_use')) {
    const taken = reason.replace(/^number_in_use:\s*/, '');
    const field =
      Object.entries(fields).find(([, v]) => taken.split(', ').some((n) => v.includes(n)))?.[0] ??
      'numbers';
    f.errors[field] = `Already in use by a campaign: ${taken}`;
  } else return false;
  return true;
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

  const createForm = (ctx: OrgContext, path: string, f: FormState) => {
    const v = f.values;
    return html`<section class="card" id="new-campaign"><h2>New campaign</h2>
${formProblems(f)}
<form method="post" action="${path}" class="grid-form pairs" novalidate>${csrf(ctx)}
<label for="f-code">Code (1–3 characters)</label>
<div class="field"><input id="f-code" name="code" required minlength="1" maxlength="3" pattern="[A-Za-z0-9_-]{1,3}" value="${v.code ?? ''}"${invalid(f, 'code', 'f-code')}>${fieldError(f, 'code', 'f-code')}</div>
<label for="f-name">Name</label>
<div class="field"><input id="f-name" name="name" required maxlength="200" value="${v.name ?? ''}"${invalid(f, 'name', 'f-name')}>${fieldError(f, 'name', 'f-name')}</div>
<label for="f-forward">Forward calls to</label>
<div class="field"><input id="f-forward" name="forward_to" inputmode="tel" autocomplete="tel" value="${v.forward_to ?? ''}" aria-describedby="f-forward-hint"${invalid(f, 'forward_to', 'f-forward')}>
<span class="hint" id="f-forward-hint">The phone that rings when someone calls a tracking number (your office). Without it, callers hear that no one is available.</span>${fieldError(f, 'forward_to', 'f-forward')}</div>
<label for="f-numbers">Tracking numbers (one per line)</label>
<div class="field"><textarea id="f-numbers" name="numbers" rows="4" required aria-describedby="f-numbers-hint"${invalid(f, 'numbers', 'f-numbers')}>${v.numbers ?? ''}</textarea>
<span class="hint" id="f-numbers-hint">${COUNTRY_HINT(ctx)}</span>${fieldError(f, 'numbers', 'f-numbers')}</div>
<label for="f-overflow">Overflow number (optional)</label>
<div class="field"><input id="f-overflow" name="overflow_number" inputmode="tel" value="${v.overflow_number ?? ''}"${invalid(f, 'overflow_number', 'f-overflow')}>${fieldError(f, 'overflow_number', 'f-overflow')}</div>
<div></div><div><button type="submit">Create campaign</button></div>
</form></section>`;
  };

  const listPage = async (ctx: OrgContext, notice: string | null, f: FormState) => {
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
      {
        label: 'Forwards to',
        value: (r) => r.campaign.forwardTo ?? '',
        cell: (r) =>
          r.campaign.forwardTo ?? html`<span class="warn">not set: calls are not answered</span>`,
      },
      numberColumn('Pool numbers', (r) => r.poolSize, ctx.num),
      { label: 'Overflow number', value: (r) => r.overflowNumber ?? '' },
      { label: 'Session minutes', value: (r) => r.campaign.sessionTtlSeconds / 60, numeric: true },
    ];
    const path = orgPath(ctx.org.id, 'campaigns');
    return {
      title: 'Campaigns and pools',
      range: false,
      notice,
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
${canChange(ctx) ? createForm(ctx, path, f) : ''}`,
    } satisfies PageResult;
  };

  router.orgPage('/campaigns', 'campaigns', async (ctx, q) =>
    listPage(ctx, own(NOTICES, q.notice) ?? null, emptyForm()),
  );

  router.orgAction('/campaigns', async (ctx, form, _p, req) => {
    const values = Object.fromEntries(
      ['code', 'name', 'numbers', 'overflow_number', 'forward_to'].map((k) => [
        k,
        (form.get(k) ?? '').slice(0, 20_000),
      ]),
    );
    const f = emptyForm(values);
    const country = ctx.org.phoneCountry;
    const code = values.code!.trim();
    if (!/^[A-Za-z0-9_-]{1,3}$/.test(code)) f.errors.code = 'Use 1 to 3 letters, digits, - or _.';
    const numbers = numbersField(f, 'numbers', values.numbers!, country, true);
    const overflow = oneNumber(f, 'overflow_number', values.overflow_number!, country);
    const forward = oneNumber(f, 'forward_to', values.forward_to!, country);
    if (forward && (numbers.includes(forward) || forward === overflow))
      f.errors.forward_to =
        'This is one of the campaign’s own tracking numbers: calls would ring back into it. Enter the phone that should ring.';
    if (Object.keys(f.errors).length === 0) {
      try {
        await createCampaign(admin(ctx, req.id), ctx.org.id, {
          code,
          name: values.name!.trim().slice(0, 200) || code,
          numbers,
          ...(overflow ? { overflow_number: overflow } : {}),
          ...(forward ? { forward_to: forward } : {}),
        });
        return `${orgPath(ctx.org.id, `campaigns/${encodeURIComponent(code)}`)}?notice=created`;
      } catch (err) {
        if (!conflictField(f, err, values)) throw err;
      }
    }
    return { ...(await listPage(ctx, null, f)), status: 422, current: 'campaigns' };
  });

  const campaignPage = async (
    ctx: OrgContext,
    code: string,
    notice: string | null,
    forms: { settings?: FormState; add?: FormState } = {},
  ): Promise<PageResult> => {
    const c = await config.findCampaign(ctx.org.id, code);
    if (!c) throw new AppError('Not Found');
    // The page's range, as far as it has happened, at most POOL_MAX_DAYS ending with its last day.
    const end = new Date(Math.min(ctx.range.until.getTime(), ctx.now.getTime()));
    const clamped = ctx.range.days > POOL_MAX_DAYS;
    const since = clamped
      ? new Date(ctx.range.until.getTime() - POOL_MAX_DAYS * 86_400_000)
      : ctx.range.since;
    const days = Math.min(ctx.range.days, POOL_MAX_DAYS);
    const [observed, numbers, traffic] = await Promise.all([
      since < end ? poolReads.observePool(c.id, since, end) : Promise.resolve(null),
      config.listNumbers(c.id, { limit: 2000, now: ctx.now }),
      router.reports.trafficReport(ctx.org.id, {
        kind: 'traffic',
        ...reportRange(ctx),
        bucket: 'none',
        groupBy: [],
        campaignId: c.id,
      }),
    ]);
    const empty: PoolObservation = {
      numbers: numbers.filter((n) => n.number.role === 'pool').length,
      hasOverflow: numbers.some((n) => n.number.role === 'overflow'),
      heldNow: 0,
      hours: [],
      sessions: { allocated: 0, sticky: 0, shared: 0, overflow: 0 },
      meanHoldSeconds: null,
      calls: {
        total: 0,
        holder: 0,
        grace: 0,
        repeatCaller: 0,
        campaignOnly: 0,
        onSharedNumber: 0,
      },
      graceLateness: [],
      liveCallDelaySeconds: null,
    };
    const pool = poolHealthView(c.code, observed ?? empty, {
      days,
      target: TARGET,
      since,
      now: end,
    });
    const heldNow = numbers.filter((n) => n.sessionId && n.number.role === 'pool').length;
    type N = (typeof numbers)[number];
    const base = orgPath(ctx.org.id, `campaigns/${encodeURIComponent(c.code)}`);
    const numberColumns: Column<N>[] = [
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
    const t = traffic.totals.metrics;
    const settings =
      forms.settings ??
      emptyForm({
        name: c.name,
        forward_to: c.forwardTo ?? '',
        overflow_number: numbers.find((n) => n.number.role === 'overflow')?.number.e164 ?? '',
      });
    const add = forms.add ?? emptyForm();
    const holdMinutes = r.mean_hold_seconds === null ? null : Math.round(r.mean_hold_seconds / 60);
    const spanWords = `${ctx.range.from} to ${ctx.range.to}`;
    return {
      title: `Campaign ${c.code}: ${c.name}`,
      range: true,
      notice,
      tables: { numbers: { columns: numberColumns, rows: numbers } },
      body: html`<p><a href="${orgPath(ctx.org.id, 'campaigns')}">← All campaigns</a> · <a href="${base}/routing">Routing plan: which buyers take its calls</a></p>
${
  c.forwardTo
    ? ''
    : html`<p class="error" role="alert">Calls to this campaign are not forwarded: callers hear that no one is available. Set “Forward calls to” below.</p>`
}
${clamped ? html`<p class="notice" role="status">The pool is read over the last ${POOL_MAX_DAYS} days of the range (${ctx.range.days} days were asked for); the call counts cover the whole range.</p>` : ''}
<section class="kpis" aria-label="Calls in the range">
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
</section>
<section class="card" id="sizing"><h2>Is this pool big enough?</h2>
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
</section>
<section class="chart"><h2>Peak numbers held per hour, ${spanWords}</h2>
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
</section>
${table({ caption: 'Numbers', columns: numberColumns, rows: numbers, csv: csvLink({}, base, 'numbers'), stacked: true, empty: 'No numbers.' })}
${
  canChange(ctx)
    ? html`<section class="card" id="settings"><h2>Call forwarding and settings</h2>
${formProblems(settings)}
<form method="post" action="${base}/settings" class="grid-form pairs" novalidate>${csrf(ctx)}
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
<form method="post" action="${base}/numbers" class="stack" novalidate>${csrf(ctx)}
<label for="add-numbers">Numbers (one per line)</label><textarea id="add-numbers" name="numbers" rows="3" required aria-describedby="add-numbers-hint"${invalid(add, 'numbers', 'add-numbers')}>${add.values.numbers ?? ''}</textarea>
<span class="hint" id="add-numbers-hint">${COUNTRY_HINT(ctx)}</span>${fieldError(add, 'numbers', 'add-numbers')}
<button type="submit">Add to pool</button></form></section>`
    : ''
}`,
    };
  };

  router.orgPage('/campaigns/:code', 'campaigns', async (ctx, q, p) =>
    campaignPage(ctx, p.code ?? '', own(NOTICES, q.notice) ?? null),
  );

  router.orgAction('/campaigns/:code/settings', async (ctx, form, p, req) => {
    const c = await config.findCampaign(ctx.org.id, p.code ?? '');
    if (!c) throw new AppError('Not Found');
    const values = Object.fromEntries(
      ['name', 'forward_to', 'overflow_number'].map((k) => [k, (form.get(k) ?? '').slice(0, 200)]),
    );
    const f = emptyForm(values);
    const country = ctx.org.phoneCountry;
    const forward = oneNumber(f, 'forward_to', values.forward_to!, country);
    const overflow = oneNumber(f, 'overflow_number', values.overflow_number!, country);
    const own = (await config.listNumbers(c.id, { limit: 10_000, now: ctx.now })).map(
      (n) => n.number.e164,
    );
    if (forward && (own.includes(forward) || forward === overflow))
      f.errors.forward_to =
        'This is one of the campaign’s own tracking numbers: calls would ring back into it. Enter the phone that should ring.';
    if (!values.name!.trim()) f.errors.name = 'Enter a name.';
    if (Object.keys(f.errors).length === 0) {
      try {
        await updateCampaign(admin(ctx, req.id), ctx.org.id, c.code, {
          name: values.name!.trim(),
          forward_to: forward,
          overflow_number: overflow,
        });
        return `${orgPath(ctx.org.id, `campaigns/${encodeURIComponent(c.code)}`)}?notice=saved`;
      } catch (err) {
        if (!conflictField(f, err, { overflow_number: overflow ?? '' })) throw err;
      }
    }
    return { ...(await campaignPage(ctx, c.code, null, { settings: f })), status: 422 };
  });

  router.orgAction('/campaigns/:code/numbers', async (ctx, form, p, req) => {
    const c = await config.findCampaign(ctx.org.id, p.code ?? '');
    if (!c) throw new AppError('Not Found');
    const f = emptyForm({ numbers: (form.get('numbers') ?? '').slice(0, 20_000) });
    const numbers = numbersField(f, 'numbers', f.values.numbers!, ctx.org.phoneCountry, true);
    if (Object.keys(f.errors).length === 0) {
      try {
        await addCampaignNumbers(admin(ctx, req.id), ctx.org.id, c.code, numbers);
        return `${orgPath(ctx.org.id, `campaigns/${encodeURIComponent(c.code)}`)}?notice=added`;
      } catch (err) {
        if (!conflictField(f, err, { numbers: f.values.numbers! })) throw err;
      }
    }
    return { ...(await campaignPage(ctx, c.code, null, { add: f })), status: 422 };
  });

  router.orgAction('/campaigns/:code/numbers/remove', async (ctx, form, p, req) => {
    const c = await config.findCampaign(ctx.org.id, p.code ?? '');
    if (!c) throw new AppError('Not Found');
    const gone = readNumbers(form.get('number') ?? '', ctx.org.phoneCountry).numbers;
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
