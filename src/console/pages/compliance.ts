import { html } from '../html.js';
import type { ConsoleRouter } from '../router.js';

export function compliancePages(router: ConsoleRouter): void {
  router.orgPage('/compliance', 'compliance', async () => ({
    title: 'Compliance',
    body: html`<p class="empty">Coming.</p>`,
  }));
}
