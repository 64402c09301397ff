import { versionWarning } from '../domain/conversions/api-versions.js';
import type { OrgContext } from './context.js';
import { type Html, html } from './html.js';
import type { ConsoleRouter } from './router.js';

/**
 * A warning for each of the organization's conversion destinations whose platform API version
 * is retired, or will be within 60 days (src/domain/conversions/api-versions.ts): an upload
 * path that stops on a vendor's date should be seen before the date, where people look first.
 */
export async function versionWarnings(router: ConsoleRouter, ctx: OrgContext): Promise<Html> {
  const destinations = await router.deps.queries.conversions.listDestinations(ctx.org.id);
  const notes = destinations.flatMap((d) => {
    const w = d.enabled ? versionWarning(d.platform, d.settings, ctx.now) : null;
    return w ? [{ name: d.name, platform: d.platform, w }] : [];
  });
  if (notes.length === 0) return html``;
  return html`<section class="card version-warnings" role="alert"><h2>Conversion uploads: API versions</h2><ul>
${notes.map((n) => html`<li><strong>${n.name}</strong> (${n.platform}): ${n.w.message}. <a href="${n.w.source}" rel="noreferrer">Vendor's schedule</a></li>`)}
</ul></section>`;
}
