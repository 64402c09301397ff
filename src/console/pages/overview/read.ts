import { type OrgContext, reportRange } from '../../context.js';
import type { ConsoleRouter } from '../../router.js';
import { previousRange } from '../../time.js';
import { versionWarnings } from '../../version-warnings.js';

/**
 * What the overview shows: the range's traffic per day, the previous range of the same length
 * (for the deltas), traffic by source and by campaign, whether any campaign exists yet, and the
 * carrier or platform version warnings.
 */
export async function readOverview(router: ConsoleRouter, ctx: OrgContext) {
  const { reports } = router;
  const base = { kind: 'traffic' as const, ...reportRange(ctx) };
  const prev = previousRange(ctx.range);
  const [daily, previous, sources, campaigns, known, versions] = await Promise.all([
    reports.trafficReport(ctx.org.id, { ...base, bucket: 'day', groupBy: [] }),
    reports.trafficReport(ctx.org.id, {
      ...base,
      from: prev.since,
      to: prev.until,
      bucket: 'none',
      groupBy: [],
    }),
    reports.trafficReport(ctx.org.id, { ...base, bucket: 'none', groupBy: ['source'] }),
    reports.trafficReport(ctx.org.id, { ...base, bucket: 'none', groupBy: ['campaign'] }),
    router.deps.queries.config.listCampaigns(ctx.org.id, { limit: 1 }),
    versionWarnings(router, ctx),
  ]);
  return { daily, previous, sources, campaigns, known, versions };
}

export type OverviewData = Awaited<ReturnType<typeof readOverview>>;
