import type { ConsoleRouter } from '../../router.js';
import { callPage } from './call.js';
import { callsPage } from './list.js';

/** The calls of an organization, and one call with everything recorded about it. */
export function callPages(router: ConsoleRouter): void {
  router.orgPage('/calls', 'calls', callsPage(router));
  router.orgPage('/calls/:id', 'calls', callPage(router));
}
