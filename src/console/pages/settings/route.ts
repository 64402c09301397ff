import { getCountries } from 'libphonenumber-js/max';
import { updateOrg } from '../../../domain/admin/orgs-keys.js';
import { actorOf } from '../../../domain/console/accounts.js';
import { checks } from '../../../http/validate.js';
import type { OrgContext } from '../../context.js';
import { emptyForm, type FormState, fieldError, formProblems, invalid } from '../../forms.js';
import { html } from '../../html.js';
import { orgPath } from '../../layout.js';
import type { ConsoleRouter, PageResult } from '../../router.js';
import { localTime } from '../../time.js';

/** Every zone this runtime knows, UTC first: the choices of the zone field. */
const ZONES = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')];
const regionName = new Intl.DisplayNames(['en'], { type: 'region' });
/** Countries with a calling code, by English name: the choices of the country field. */
const COUNTRIES = getCountries()
  .map((code) => ({ code, name: regionName.of(code) ?? code }))
  .sort((a, b) => a.name.localeCompare(b.name));

/**
 * The organization's settings a manager changes from the console: the time
 * zone every page, report and CSV of it is in, and the country numbers typed
 * without a country code are read in.
 */
export function settingsPages(router: ConsoleRouter): void {
  const { deps } = router;

  const settingsPage = (ctx: OrgContext, notice: string | null, f: FormState): PageResult => {
    const v = f.values;
    const canChange = ctx.role !== 'viewer';
    const zone = v.time_zone ?? ctx.org.timeZone;
    const country = v.phone_country ?? ctx.org.phoneCountry;
    return {
      title: 'Organization settings',
      range: false,
      notice,
      body: html`<section class="card"><h2>Time zone and phone numbers</h2>
<p>Every day, hour and time in this organization’s pages, reports and CSV files is in its time zone, labelled with it. It is now ${localTime(ctx.now, ctx.org.timeZone)} there.</p>
${formProblems(f)}
${
  canChange
    ? html`<form method="post" action="${orgPath(ctx.org.id, 'settings')}" class="grid-form pairs" novalidate><input type="hidden" name="_csrf" value="${ctx.csrf}">
<label for="o-zone">Time zone</label>
<div class="field"><select id="o-zone" name="time_zone"${invalid(f, 'time_zone', 'o-zone')}>${ZONES.map(
        (z) => html`<option value="${z}"${z === zone ? html` selected` : ''}>${z}</option>`,
      )}</select>${fieldError(f, 'time_zone', 'o-zone')}</div>
<label for="o-country">Country of phone numbers</label>
<div class="field"><select id="o-country" name="phone_country" aria-describedby="o-country-hint"${invalid(f, 'phone_country', 'o-country')}>${COUNTRIES.map(
        (c) =>
          html`<option value="${c.code}"${c.code === country ? html` selected` : ''}>${c.name} (${c.code})</option>`,
      )}</select>
<span class="hint" id="o-country-hint">A number typed without its country code (212-555-0312) is read as a number of this country.</span>${fieldError(f, 'phone_country', 'o-country')}</div>
<div></div><div><button type="submit">Save settings</button></div>
</form>`
    : html`<dl class="facts"><dt>Time zone</dt><dd>${ctx.org.timeZone}</dd><dt>Country of phone numbers</dt><dd>${ctx.org.phoneCountry}</dd></dl><p class="hint">A manager of this organization can change these.</p>`
}
</section>`,
    };
  };

  router.orgPage('/settings', 'settings', async (ctx, q) =>
    settingsPage(ctx, q.notice === 'saved' ? 'Settings saved.' : null, emptyForm()),
  );

  router.orgAction('/settings', async (ctx, form, _p, req) => {
    const values = {
      time_zone: (form.get('time_zone') ?? '').trim().slice(0, 64),
      phone_country: (form.get('phone_country') ?? '').trim().toUpperCase().slice(0, 2),
    };
    const f = emptyForm(values);
    if (checks.iana_zone!(values.time_zone) !== null)
      f.errors.time_zone = 'Choose a time zone from the list.';
    if (checks.phone_country!(values.phone_country) !== null)
      f.errors.phone_country = 'Choose a country from the list.';
    if (Object.keys(f.errors).length > 0)
      return { ...settingsPage(ctx, null, f), status: 422, current: 'settings' };
    await updateOrg(
      {
        repos: deps.repos,
        keyring: deps.keyring,
        now: () => new Date(deps.clock.now()),
        requestId: req.id,
        actor: actorOf(ctx.viewer.user),
      },
      ctx.org.id,
      values,
    );
    return `${orgPath(ctx.org.id, 'settings')}?notice=saved`;
  });
}
