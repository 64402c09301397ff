import { actorOf } from '../../../domain/console/accounts.js';
import { type PlanInput, putPlan } from '../../../domain/routing/plans.js';
import type { Buyer, Plan } from '../../../domain/routing/types.js';
import {
  FALLBACKS,
  type Fallback,
  RING_TIMEOUT_DEFAULT,
  RING_TIMEOUT_MAX,
  RING_TIMEOUT_MIN,
  WEIGHT_MAX,
  WEIGHT_MIN,
} from '../../../domain/routing/vocabulary.js';
import { AppError, ValidationFailed } from '../../../errors.js';
import type { OrgContext } from '../../context.js';
import { emptyForm, type FormState, fieldError, formProblems, invalid } from '../../forms.js';
import { type Html, html } from '../../html.js';
import { orgPath } from '../../layout.js';
import { type ConsoleRouter, own, type PageResult } from '../../router.js';
import { type Column, table } from '../../table.js';
import { csrfField } from '../shared/admin.js';

/** The admin API's bounds of a target's priority (1 is offered first). */
const PRIORITY_MAX = 100;

const FALLBACK_WORDS: Record<Fallback, string> = {
  forward_to: 'Ring the campaign’s own “Forward calls to” number',
  hangup: 'Hang up',
};

const NOTICES: Record<string, string> = {
  saved: 'Routing plan saved: the next call is offered by it.',
};

/** A form's field names for one buyer: its id is `buy_` and base32, safe in a name and an id. */
const priorityField = (b: Buyer) => `priority.${b.id}`;
const weightField = (b: Buyer) => `weight.${b.id}`;

/** A whole number in [min, max] as typed, or the message for its field. */
function wholeNumber(text: string, min: number, max: number): number | string {
  const t = text.trim();
  if (!/^\d{1,4}$/.test(t)) return `Enter a whole number from ${min} to ${max}.`;
  const n = Number(t);
  return n < min || n > max ? `Enter a whole number from ${min} to ${max}.` : n;
}

/** The plan the form asks for, or the form's problems in `f.errors` (and null). */
function readPlan(f: FormState, buyers: Buyer[]): PlanInput | null {
  const targets: PlanInput['targets'] = [];
  for (const b of buyers) {
    const p = f.values[priorityField(b)] ?? '';
    const w = f.values[weightField(b)] ?? '';
    if (!p.trim()) {
      if (w.trim()) f.errors[priorityField(b)] = 'Give a priority, or clear the weight too.';
      continue;
    }
    const priority = wholeNumber(p, 1, PRIORITY_MAX);
    if (typeof priority === 'string') f.errors[priorityField(b)] = priority;
    const weight = w.trim() ? wholeNumber(w, WEIGHT_MIN, WEIGHT_MAX) : 1;
    if (typeof weight === 'string') f.errors[weightField(b)] = weight;
    if (typeof priority === 'number' && typeof weight === 'number')
      targets.push({ buyer_id: b.id, priority, weight });
  }
  const timeoutText = f.values.ring_timeout_seconds ?? '';
  const timeout = timeoutText.trim()
    ? wholeNumber(timeoutText, RING_TIMEOUT_MIN, RING_TIMEOUT_MAX)
    : RING_TIMEOUT_DEFAULT;
  if (typeof timeout === 'string') f.errors.ring_timeout_seconds = timeout;
  const fallback = FALLBACKS.find((x) => x === f.values.fallback);
  if (!fallback) f.errors.fallback = 'Choose where a call no buyer took goes.';
  if (Object.keys(f.errors).length > 0 || typeof timeout === 'string' || !fallback) return null;
  return { targets, ring_timeout_seconds: timeout, fallback };
}

/** The form's values for a stored plan (or for none: no targets, the defaults). */
function valuesOf(plan: Plan | null, buyers: Buyer[]): Record<string, string> {
  const values: Record<string, string> = {
    ring_timeout_seconds: String(plan?.ringTimeoutSeconds ?? RING_TIMEOUT_DEFAULT),
    fallback: plan?.fallback ?? 'forward_to',
  };
  for (const b of buyers) {
    const t = plan?.targets.find((x) => x.buyerId === b.id);
    values[priorityField(b)] = t ? String(t.priority) : '';
    values[weightField(b)] = t ? String(t.weight) : '';
  }
  return values;
}

/**
 * A campaign's routing plan (contract §11, docs/routing.md): which buyers its calls are offered
 * to, in which order and shares, how long each rings, and where a call no buyer took goes.
 * Managers change it here as `PUT …/campaigns/{code}/routing` does (the same domain call, the
 * same audit line with the person as actor); viewers read it.
 */
export function routingPlanPages(router: ConsoleRouter): void {
  const { deps } = router;
  const { config } = deps.queries;
  const { db, buyers: buyerRepo, routing } = deps.repos;

  const load = async (ctx: OrgContext, code: string) => {
    const campaign = await config.findCampaign(ctx.org.id, code);
    if (!campaign) throw new AppError('Not Found');
    const [buyers, plan] = await Promise.all([
      buyerRepo.listBuyers(db, ctx.org.id, 1000),
      routing.getPlan(db, ctx.org.id, campaign.id),
    ]);
    return { campaign, buyers, plan };
  };

  const editor = (ctx: OrgContext, action: string, buyers: Buyer[], f: FormState): Html => {
    const v = f.values;
    const rows = buyers.map((b, i) => {
      const p = `r-p${i}`;
      const w = `r-w${i}`;
      return html`<div class="routing-buyer"><strong>${b.name}</strong><br><span class="hint">${b.forwardTo}${b.status === 'paused' ? ', paused: not offered until resumed' : ''}</span></div>
<div class="field">
<label for="${p}">Priority for ${b.name}</label><input id="${p}" name="${priorityField(b)}" inputmode="numeric" value="${v[priorityField(b)] ?? ''}" aria-describedby="r-priority-hint"${invalid(f, priorityField(b), p)}>${fieldError(f, priorityField(b), p)}
<label for="${w}">Weight for ${b.name}</label><input id="${w}" name="${weightField(b)}" inputmode="numeric" value="${v[weightField(b)] ?? ''}" aria-describedby="r-weight-hint"${invalid(f, weightField(b), w)}>${fieldError(f, weightField(b), w)}
</div>`;
    });
    return html`<section class="card" id="routing-editor"><h2>Change the plan</h2>
${formProblems(f)}
<p class="hint" id="r-priority-hint">Priority 1 is offered first, then 2, and so on (1 to ${PRIORITY_MAX}); leave it empty to not offer this buyer calls.</p>
<p class="hint" id="r-weight-hint">Among buyers of one priority, weight is each one’s share of the calls (${WEIGHT_MIN} to ${WEIGHT_MAX}, default 1).</p>
<form method="post" action="${action}" class="grid-form pairs" novalidate>${csrfField(ctx)}
${rows}
<label for="r-timeout">Ring each buyer for (seconds)</label>
<div class="field"><input id="r-timeout" name="ring_timeout_seconds" inputmode="numeric" value="${v.ring_timeout_seconds ?? ''}" aria-describedby="r-timeout-hint"${invalid(f, 'ring_timeout_seconds', 'r-timeout')}>
<span class="hint" id="r-timeout-hint">${RING_TIMEOUT_MIN} to ${RING_TIMEOUT_MAX}; then the next buyer is offered the call.</span>${fieldError(f, 'ring_timeout_seconds', 'r-timeout')}</div>
<label for="r-fallback">When no buyer takes the call</label>
<div class="field"><select id="r-fallback" name="fallback"${invalid(f, 'fallback', 'r-fallback')}>${FALLBACKS.map(
      (x) =>
        html`<option value="${x}"${v.fallback === x ? html` selected` : html``}>${FALLBACK_WORDS[x]}</option>`,
    )}</select>${fieldError(f, 'fallback', 'r-fallback')}</div>
<div></div><div><button type="submit">Save routing plan</button></div>
</form></section>`;
  };

  const page = async (
    ctx: OrgContext,
    code: string,
    notice: string | null,
    form?: FormState,
  ): Promise<PageResult> => {
    const { campaign, buyers, plan } = await load(ctx, code);
    const names = new Map(buyers.map((b) => [b.id, b]));
    type T = Plan['targets'][number];
    const targets = [...(plan?.targets ?? [])].sort(
      (a, b) => a.priority - b.priority || b.weight - a.weight,
    );
    const columns: Column<T>[] = [
      { label: 'Buyer', value: (t) => names.get(t.buyerId)?.name ?? t.buyerId },
      { label: 'Rings', value: (t) => names.get(t.buyerId)?.forwardTo ?? '' },
      { label: 'Priority', value: (t) => t.priority, numeric: true },
      { label: 'Weight', value: (t) => t.weight, numeric: true },
    ];
    const base = orgPath(ctx.org.id, `campaigns/${encodeURIComponent(campaign.code)}`);
    const f = form ?? emptyForm(valuesOf(plan, buyers));
    const fallback = plan?.fallback ?? 'forward_to';
    return {
      title: `Routing plan of ${campaign.code}: ${campaign.name}`,
      range: false,
      notice,
      tables: { targets: { columns, rows: targets } },
      body: html`<p><a href="${base}">← Campaign ${campaign.code}</a> · <a href="${orgPath(ctx.org.id, 'buyers')}">Buyers</a></p>
<p data-plan-summary>${
        targets.length === 0
          ? html`No routing plan: calls ring the campaign’s “Forward calls to” number (${campaign.forwardTo ?? 'not set'}).`
          : html`Each call is offered to the buyers below that are open and under their caps, priority 1 first, each ringing ${ringWords(plan)}; ${fallback === 'hangup' ? 'when none takes it, the call ends' : html`when none takes it, it rings ${campaign.forwardTo ?? 'the campaign’s forward-to number (not set: the caller hears no one is available)'}`}.`
      }</p>
${table({ caption: 'Buyers offered this campaign’s calls', columns, rows: targets, stacked: true, empty: 'No buyer is offered this campaign’s calls.' })}
${
  ctx.role === 'viewer'
    ? ''
    : buyers.length === 0
      ? html`<p class="hint">No buyer yet. Add one with <code>tracking-admin buyer create</code> or <code>POST /admin/orgs/{org_id}/buyers</code>, then set the plan here.</p>`
      : editor(ctx, `${base}/routing`, buyers, f)
}`,
    };
  };

  router.orgPage('/campaigns/:code/routing', 'campaigns', async (ctx, q, p) =>
    page(ctx, p.code ?? '', own(NOTICES, q.notice) ?? null),
  );

  router.orgAction('/campaigns/:code/routing', async (ctx, form, p, req) => {
    const { campaign, buyers } = await load(ctx, p.code ?? '');
    const names = [
      'ring_timeout_seconds',
      'fallback',
      ...buyers.flatMap((b) => [priorityField(b), weightField(b)]),
    ];
    const f = emptyForm(
      Object.fromEntries(names.map((k) => [k, (form.get(k) ?? '').slice(0, 20)])),
    );
    const input = readPlan(f, buyers);
    if (input) {
      try {
        await putPlan(
          {
            repos: deps.repos,
            now: new Date(deps.clock.now()),
            requestId: req.id,
            actor: actorOf(ctx.viewer.user),
          },
          ctx.org.id,
          campaign,
          input,
        );
        return `${orgPath(ctx.org.id, `campaigns/${encodeURIComponent(campaign.code)}/routing`)}?notice=saved`;
      } catch (err) {
        // A buyer removed while the form was open: named at its field, the rest kept.
        if (!(err instanceof ValidationFailed)) throw err;
        for (const e of err.errors) {
          const b = buyers.find((x) => x.id === e.input);
          if (b) f.errors[priorityField(b)] = 'This buyer cannot take calls of this organization.';
        }
        if (Object.keys(f.errors).length === 0) throw err;
      }
    }
    return { ...(await page(ctx, campaign.code, null, f)), status: 422 };
  });
}

const ringWords = (plan: Plan | null) =>
  `${plan?.ringTimeoutSeconds ?? RING_TIMEOUT_DEFAULT} seconds`;
