import type { AppDeps } from '../../../deps.js';
import type { TimeRange } from '../../../domain/admin/queries.js';
import { errors } from '../../../errors.js';

type RangeQ = { since?: string; until?: string };

/** A list's `since`/`until` as dates. */
export const rangeOf = (q: RangeQ): TimeRange => ({
  since: q.since ? new Date(q.since) : undefined,
  until: q.until ? new Date(q.until) : undefined,
});

/**
 * What the call and touch lists filter alike: the page, the campaign, the status, the time. A
 * campaign filter names the campaign by code; a code the organization lacks is a 404.
 */
export async function commonFilter<St>(
  deps: AppDeps,
  p: {
    params: { org_id: string };
    query: RangeQ & { campaign?: string | undefined; status?: St };
    after: string | undefined;
    take: number;
  },
) {
  let campaignId: string | undefined;
  if (p.query.campaign !== undefined) {
    const c = await deps.queries.config.findCampaign(p.params.org_id, p.query.campaign);
    if (!c) throw errors.campaignNotFound();
    campaignId = c.id;
  }
  return {
    limit: p.take,
    after: p.after,
    campaignId,
    status: p.query.status,
    ...rangeOf(p.query),
  };
}
