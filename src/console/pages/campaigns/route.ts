import { emptyForm } from '../../forms.js';
import { type ConsoleRouter, own } from '../../router.js';
import { addNumbers, removeNumber, saveSettings } from './actions.js';
import { NOTICES } from './fields.js';
import { createAction, listPage } from './list.js';
import { readCampaign } from './pool.js';
import { campaignView } from './view.js';

/** Campaigns and their number pools: the list, one campaign, and the changes a manager makes. */
export function campaignPages(router: ConsoleRouter): void {
  router.orgPage('/campaigns', 'campaigns', async (ctx, q) =>
    listPage(router, ctx, own(NOTICES, q.notice) ?? null, emptyForm()),
  );
  router.orgAction('/campaigns', createAction(router));
  router.orgPage('/campaigns/:code', 'campaigns', async (ctx, q, p) =>
    campaignView(
      ctx,
      await readCampaign(router, ctx, p.code ?? ''),
      own(NOTICES, q.notice) ?? null,
      {},
    ),
  );
  router.orgAction('/campaigns/:code/settings', saveSettings(router));
  router.orgAction('/campaigns/:code/numbers', addNumbers(router));
  router.orgAction('/campaigns/:code/numbers/remove', removeNumber(router));
}
