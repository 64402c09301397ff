import { html } from '../html.js';
import type { ConsoleRouter } from '../router.js';

export function webhookPages(router: ConsoleRouter): void {
  router.orgPage('/webhooks', 'webhooks', async () => ({
    title: 'Webhooks and exports',
    body: html`<p class="empty">Coming.</p>`,
  }));
}
