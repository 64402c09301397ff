import { createCampaign } from '../../../domain/admin/campaigns.js';
import type { OrgContext } from '../../context.js';
import { emptyForm, type FormState, fieldError, formProblems, invalid } from '../../forms.js';
import { html } from '../../html.js';
import { orgPath } from '../../layout.js';
import type { ActionHandler, ConsoleRouter, PageResult } from '../../router.js';
import { type Column, csvLink, numberColumn, table } from '../../table.js';
import { adminOf, csrfField } from '../shared/admin.js';
import {
  COUNTRY_HINT,
  canChange,
  conflictField,
  LOOP_MESSAGE,
  numbersField,
  oneNumber,
} from './fields.js';

function createForm(ctx: OrgContext, path: string, f: FormState) {
  const v = f.values;
  return html`<section class="card" id="new-campaign"><h2>New campaign</h2>
${formProblems(f)}
<form method="post" action="${path}" class="grid-form pairs" novalidate>${csrfField(ctx)}
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
}

/** The campaigns of the organization, and the form for a new one (sent back with its problems). */
export async function listPage(
  router: ConsoleRouter,
  ctx: OrgContext,
  notice: string | null,
  f: FormState,
): Promise<PageResult> {
  const rows = await router.deps.queries.config.listCampaigns(ctx.org.id, { limit: 500 });
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
}

/** Makes a campaign from the list page's form; the form comes back with its problems. */
export const createAction =
  (router: ConsoleRouter): ActionHandler<OrgContext> =>
  async (ctx, form, _p, req) => {
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
      f.errors.forward_to = LOOP_MESSAGE;
    if (Object.keys(f.errors).length === 0) {
      try {
        await createCampaign(adminOf(router.deps, ctx, req.id), ctx.org.id, {
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
    return { ...(await listPage(router, ctx, null, f)), status: 422, current: 'campaigns' };
  };
