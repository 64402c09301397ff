import { addCampaignNumbers, updateCampaign } from '../../../domain/admin/campaigns.js';
import { AppError, errors } from '../../../errors.js';
import type { OrgContext } from '../../context.js';
import { emptyForm } from '../../forms.js';
import { orgPath } from '../../layout.js';
import { readNumbers } from '../../phone.js';
import type { ActionHandler, ConsoleRouter } from '../../router.js';
import { adminOf } from '../shared/admin.js';
import { conflictField, LOOP_MESSAGE, numbersField, oneNumber } from './fields.js';
import { readCampaign } from './pool.js';
import { campaignView } from './view.js';

const config = (router: ConsoleRouter) => router.deps.queries.config;

/** Name, call forwarding and the overflow number. */
export const saveSettings =
  (router: ConsoleRouter): ActionHandler<OrgContext> =>
  async (ctx, form, p, req) => {
    const c = await config(router).findCampaign(ctx.org.id, p.code ?? '');
    if (!c) throw new AppError('Not Found');
    const values = Object.fromEntries(
      ['name', 'forward_to', 'overflow_number'].map((k) => [k, (form.get(k) ?? '').slice(0, 200)]),
    );
    const f = emptyForm(values);
    const country = ctx.org.phoneCountry;
    const forward = oneNumber(f, 'forward_to', values.forward_to!, country);
    const overflow = oneNumber(f, 'overflow_number', values.overflow_number!, country);
    const own = (await config(router).listNumbers(c.id, { limit: 10_000, now: ctx.now })).map(
      (n) => n.number.e164,
    );
    if (forward && (own.includes(forward) || forward === overflow))
      f.errors.forward_to = LOOP_MESSAGE;
    if (!values.name!.trim()) f.errors.name = 'Enter a name.';
    if (Object.keys(f.errors).length === 0) {
      try {
        await updateCampaign(adminOf(router.deps, ctx, req.id), ctx.org.id, c.code, {
          name: values.name!.trim(),
          forward_to: forward,
          overflow_number: overflow,
        });
        return `${orgPath(ctx.org.id, `campaigns/${encodeURIComponent(c.code)}`)}?notice=saved`;
      } catch (err) {
        if (!conflictField(f, err, { overflow_number: overflow ?? '' })) throw err;
      }
    }
    return {
      ...campaignView(ctx, await readCampaign(router, ctx, c.code), null, { settings: f }),
      status: 422,
    };
  };

/** More numbers for the pool. */
export const addNumbers =
  (router: ConsoleRouter): ActionHandler<OrgContext> =>
  async (ctx, form, p, req) => {
    const c = await config(router).findCampaign(ctx.org.id, p.code ?? '');
    if (!c) throw new AppError('Not Found');
    const f = emptyForm({ numbers: (form.get('numbers') ?? '').slice(0, 20_000) });
    const numbers = numbersField(f, 'numbers', f.values.numbers!, ctx.org.phoneCountry, true);
    if (Object.keys(f.errors).length === 0) {
      try {
        await addCampaignNumbers(adminOf(router.deps, ctx, req.id), ctx.org.id, c.code, numbers);
        return `${orgPath(ctx.org.id, `campaigns/${encodeURIComponent(c.code)}`)}?notice=added`;
      } catch (err) {
        if (!conflictField(f, err, { numbers: f.values.numbers! })) throw err;
      }
    }
    return {
      ...campaignView(ctx, await readCampaign(router, ctx, c.code), null, { add: f }),
      status: 422,
    };
  };

/** A number out of the pool; a pool keeps at least one. */
export const removeNumber =
  (router: ConsoleRouter): ActionHandler<OrgContext> =>
  async (ctx, form, p, req) => {
    const c = await config(router).findCampaign(ctx.org.id, p.code ?? '');
    if (!c) throw new AppError('Not Found');
    const gone = readNumbers(form.get('number') ?? '', ctx.org.phoneCountry).numbers;
    const pool = (
      await config(router).listNumbers(c.id, { limit: 10_000, now: ctx.now, role: 'pool' })
    ).map((n) => n.number.e164);
    const keep = pool.filter((n) => !gone.includes(n));
    if (keep.length === 0)
      throw errors.field(['body', 'number'], 'a pool keeps at least one number', gone);
    await updateCampaign(adminOf(router.deps, ctx, req.id), ctx.org.id, c.code, { numbers: keep });
    return `${orgPath(ctx.org.id, `campaigns/${encodeURIComponent(c.code)}`)}?notice=removed`;
  };
