import { WebhookAdmin } from '../../../domain/admin/webhooks.js';
import { actorOf } from '../../../domain/console/accounts.js';
import { collectExport, openConversionExport } from '../../../domain/exports/index.js';
import { AppError, errors } from '../../../errors.js';
import type { OrgContext } from '../../context.js';
import { html } from '../../html.js';
import { orgPath } from '../../layout.js';
import type { ActionHandler, ConsoleRouter, PageHandler } from '../../router.js';

const webhookAdmin = (router: ConsoleRouter, ctx: OrgContext, requestId: string) =>
  new WebhookAdmin(
    {
      repos: router.deps.repos,
      keyring: router.deps.keyring,
      now: () => ctx.now,
      requestId,
      actor: actorOf(ctx.viewer.user),
    },
    router.deps.webhooks,
  );

/** A download, not a page: the same file as the admin API's conversion export. */
export const exportDownload =
  (router: ConsoleRouter): PageHandler<OrgContext> =>
  async (ctx, q) => {
    const format = q.export === 'meta' ? 'meta' : 'google-ads';
    const opened = await openConversionExport(router.deps.repos, {
      orgId: ctx.org.id,
      campaignCode: q.campaign ?? '',
      format,
      since: ctx.range.since,
      now: ctx.now,
    });
    if (opened.kind === 'campaign_not_found') throw new AppError('Not Found');
    if (opened.kind === 'invalid_config')
      throw errors.conflict(`conversion_config_invalid: ${opened.problem}`);
    const file = await collectExport(opened.export);
    return {
      title: '',
      body: html``,
      download: {
        type: opened.export.contentType,
        name: `conversions-${q.campaign}-${format}.${opened.export.extension}`,
        body: file,
      },
    };
  };

/** The admin API's replay: another organization's endpoint is a 404, the audit line says who. */
export const replayAction =
  (router: ConsoleRouter): ActionHandler<OrgContext> =>
  async (ctx, form, p, req) => {
    const since = new Date(form.get('since') ?? '');
    if (Number.isNaN(since.getTime()))
      throw errors.field(['body', 'since'], 'not a time', form.get('since'));
    // The admin API's replay: another organization's endpoint is a 404, the audit line says who.
    const n = await webhookAdmin(router, ctx, req.id).replay(
      ctx.org.id,
      p.endpoint ?? '',
      { since },
      { since: since.toISOString() },
    );
    return `${orgPath(ctx.org.id, 'webhooks')}?notice=${n > 0 ? 'replayed' : 'nothing'}`;
  };
