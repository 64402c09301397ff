import type { ConsoleRouter } from '../router.js';
import { html } from '../html.js';

export function compliancePages(router: ConsoleRouter): void {
  router.orgPage('/compliance', 'compliance', async () => ({ title: 'Compliance', body: html`<p class="empty">Coming.</p>` }));
}
