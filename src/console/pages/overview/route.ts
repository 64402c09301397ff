import type { ConsoleRouter } from '../../router.js';
import { readOverview } from './read.js';
import { overviewView } from './view.js';

/** The organization's overview: totals with deltas, traffic per day, top sources and campaigns. */
export function overviewPage(router: ConsoleRouter): void {
  router.orgPage('/overview', 'overview', async (ctx) =>
    overviewView(ctx, await readOverview(router, ctx)),
  );
}
