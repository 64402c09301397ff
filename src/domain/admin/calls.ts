import { errors } from '../../errors.js';
import type { InboundCallRepos } from '../carrier-inbound/ports.js';
import type { AdminContext } from './orgs-keys.js';
import type { OrgRepos } from './ports.js';

/**
 * An inbound call recorded through the admin API, as a carrier webhook would record it: the
 * same attribution, in one transaction with its audit line and its `call.received` event.
 */
export async function recordAdminCall(
  ctx: AdminContext<OrgRepos & Pick<InboundCallRepos, 'calls'>>,
  orgId: string,
  input: { to: string; from: string; started_at?: string | undefined },
) {
  const now = ctx.now();
  const [call] = await ctx.repos.transaction((tx) =>
    ctx.repos.calls.recordInboundCalls(
      tx,
      orgId,
      [
        {
          call: {
            to: input.to,
            from: input.from,
            startedAt: input.started_at ? new Date(input.started_at) : now,
          },
          requestId: ctx.requestId,
          now,
        },
      ],
      'admin',
    ),
  );
  if (!call) throw errors.numberNotFound();
  return {
    call_id: call.callId,
    campaign_code: call.campaignCode,
    dni_session_id: call.attribution.sessionId,
    attribution: call.attribution.kind,
    ambiguous: call.attribution.ambiguous,
  };
}
