import type { ConsoleRouter } from '../../router.js';
import { exportDownload, replayAction } from './actions.js';
import { webhooksPage } from './page.js';

/** Webhooks and exports: deliveries, endpoints, conversion files, and replaying failures. */
export function webhookPages(router: ConsoleRouter): void {
  router.orgPage('/webhooks', 'webhooks', webhooksPage(router));
  router.orgPage('/webhooks/export', 'webhooks', exportDownload(router));
  router.orgAction('/webhooks/:endpoint/replay', replayAction(router));
}
