import { randomUUID } from 'node:crypto';
import { errors } from '../../errors.js';
import { evaluateTouch, LONGEST_WINDOW_HOURS, type TouchDecision } from '../compliance/index.js';
import { canonicalJson, sha256Hex } from '../consents/canonical-json.js';
import { engineConsent } from '../consents/consents.js';
import { buildPayload } from '../dispatch/payload.js';
import { newId } from '../ids.js';
import { normalizeE164 } from '../phone/e164.js';
import type { Executor } from '../ports.js';
import { type CampaignConfig, storedConfigProblems, touchConfig } from './campaign-config.js';
import type { IdempotencyScope, NewTouch, TouchRepos } from './ports.js';
import type { TouchRequest } from './touch-request.js';

export interface TouchCaller {
  orgId: string;
  /** Who acts, for the audit trail (`key:<key id>`). */
  actor: string;
  requestId: string | null;
}

export type TouchStatus = 'queued' | 'blocked' | 'would_queue' | 'would_block';

export interface TouchReply {
  statusCode: 200 | 202;
  /** The JSON body, byte for byte what a replay sends again. */
  body: string;
  status: TouchStatus;
  touchId: string | null;
  replayed: boolean;
}

export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
/** A pending key older than this belongs to a request that died before committing. */
export const IDEMPOTENCY_STALE_MS = 60_000;
const HISTORY_MS = LONGEST_WINDOW_HOURS * 3600_000;

function reply(
  status: TouchStatus,
  touchId: string | null,
  req: TouchRequest,
  d: TouchDecision,
): TouchReply {
  const body = JSON.stringify({
    touch_id: touchId,
    status,
    channel: req.channel,
    reasons: d.reasons,
    checks: d.checks,
    next_allowed_at: d.next_allowed_at,
    variant: req.funnel_node ?? null,
    cadence_step: req.cadence_step ?? null,
  });
  return { statusCode: status === 'queued' ? 202 : 200, body, status, touchId, replayed: false };
}

interface Prepared {
  campaignId: string;
  config: NonNullable<ReturnType<typeof touchConfig>>;
  to: string;
}

async function decide(
  repos: TouchRepos,
  ex: Executor,
  caller: TouchCaller,
  p: Prepared,
  req: TouchRequest,
  nowMs: number,
) {
  const state = await repos.touches.contactState(
    ex,
    caller.orgId,
    p.to,
    new Date(nowMs - HISTORY_MS),
  );
  const suppression = await repos.suppression.suppressionFacts(ex, caller.orgId, p.to);
  const { records, revocations: consentRevocations } = engineConsent(state.consent);
  // An internal do-not-call entry is a revocation too (Part A point 2: consent_revoked).
  const internal = suppression.hits.filter((h) => h.list === 'internal');
  const revocations = [
    ...consentRevocations,
    ...internal.map((h) => ({ kind: 'internal_dnc' as const, at: `${h.listed_on}T00:00:00Z` })),
  ];
  return evaluateTouch(
    {
      to_e164: p.to,
      channel: req.channel,
      consent_basis: req.consent_basis,
      ...(req.lead_timezone !== undefined ? { lead_timezone: req.lead_timezone } : {}),
      records,
      revocations,
      history: state.history,
      config: p.config,
      suppression,
    },
    nowMs,
  );
}

type Decided = Awaited<ReturnType<typeof decide>>;

/** The touch row a decision writes, placed or blocked, with its reasons and checks. */
function newTouch(
  touchId: string,
  caller: TouchCaller,
  p: Prepared,
  req: TouchRequest,
  d: Decided,
  status: NewTouch['status'],
  at: Date,
): NewTouch {
  return {
    id: touchId,
    orgId: caller.orgId,
    campaignId: p.campaignId,
    toE164: p.to,
    channel: req.channel,
    status,
    placed: d.allowed,
    consentBasis: req.consent_basis,
    variant: req.funnel_node ?? null,
    cadenceStep: req.cadence_step ?? null,
    scenarioRef: req.scenario_ref ?? null,
    templateId: req.template_id ?? null,
    dynamicVariables: req.dynamic_variables ?? null,
    leadTimezone: req.lead_timezone ?? null,
    idempotencyKey: req.idempotency_key ?? null,
    reasons: d.reasons,
    checks: d.checks,
    nextAllowedAt: d.next_allowed_at ? new Date(d.next_allowed_at) : null,
    decidedAt: at,
    actor: caller.actor,
    requestId: caller.requestId,
    dispatchStatus: d.allowed ? 'pending' : null,
  };
}

/**
 * The decision and its records in one transaction: the contact lock and reads, then the touch,
 * its dispatch job, the audit line and the idempotency record, committed together or not at all.
 */
function decideAndRecord(
  repos: TouchRepos,
  caller: TouchCaller,
  p: Prepared,
  req: TouchRequest,
  nowMs: number,
  idem: { scope: IdempotencyScope; owner: string } | null,
): Promise<TouchReply> {
  return repos.transaction(async (tx) => {
    const d = await decide(repos, tx, caller, p, req, nowMs);
    const touchId = newId('tch', nowMs);
    const out = reply(d.allowed ? 'queued' : 'blocked', touchId, req, d);
    const at = new Date(nowMs);
    const completed = await repos.touches.recordDecision(tx, {
      touch: newTouch(touchId, caller, p, req, d, out.status, at),
      jobPayload: d.allowed ? buildPayload(touchId, { ...req, to: p.to }, p.config) : null,
      audit: {
        orgId: caller.orgId,
        actor: caller.actor,
        action: d.allowed ? 'touch.queued' : 'touch.blocked',
        subjectType: 'touch',
        subjectId: touchId,
        detail: {
          campaign_id: p.campaignId,
          to_e164: p.to,
          channel: req.channel,
          reasons: d.reasons.map((r) => r.code),
          consent_basis: req.consent_basis,
          tier_on_file: d.checks.consent.tier_on_file,
          variant: req.funnel_node ?? null,
          cadence_step: req.cadence_step ?? null,
          next_allowed_at: d.next_allowed_at,
          idempotency_key: req.idempotency_key ?? null,
        },
        requestId: caller.requestId,
        at,
      },
      idempotency: idem && { ...idem, statusCode: out.statusCode, response: out.body },
    });
    // Another request took the key over as stale: roll back rather than decide twice.
    if (!completed) throw errors.idempotencyKeyInUse();
    if (d.allowed) {
      await repos.events.emitTouchQueued(
        tx,
        {
          touchId,
          orgId: caller.orgId,
          campaignId: p.campaignId,
          toE164: p.to,
          channel: req.channel,
          consentBasis: req.consent_basis,
          variant: req.funnel_node ?? null,
          cadenceStep: req.cadence_step ?? null,
        },
        at,
      );
    }
    return out;
  });
}

/** Campaign lookup and the checks that need it: 404, then 422 at funnel_node. */
async function prepare(
  repos: TouchRepos,
  caller: TouchCaller,
  campaignCode: string,
  req: TouchRequest,
): Promise<Prepared> {
  const campaign = await repos.touches.findCampaign(repos.db, caller.orgId, campaignCode);
  if (!campaign) throw errors.campaignNotFound();
  const problems = storedConfigProblems(campaign.config);
  // The admin API rejects such configs on write; one stored before that is an operator problem.
  if (problems.length > 0) {
    throw new Error(`campaign ${campaign.id} has an invalid config: ${problems.join('; ')}`);
  }
  const config = touchConfig(campaign.config as CampaignConfig, req.funnel_node);
  if (!config) {
    throw errors.field(
      ['body', 'funnel_node'],
      'no variant of that name in the campaign configuration',
      req.funnel_node,
    );
  }
  return { campaignId: campaign.id, config, to: normalizeE164(req.to_e164) ?? req.to_e164 };
}

/**
 * `POST /tracking/campaigns/{campaign_code}/outbound` without HTTP: the benchmark calls it
 * directly. Dry runs read and decide but write nothing and ignore `idempotency_key`.
 */
export async function executeTouch(
  repos: TouchRepos,
  caller: TouchCaller,
  campaignCode: string,
  req: TouchRequest,
  nowMs: number,
): Promise<TouchReply> {
  const p = await prepare(repos, caller, campaignCode, req);
  if (req.dry_run) {
    const d = await decide(repos, repos.db, caller, p, req, nowMs);
    return reply(d.allowed ? 'would_queue' : 'would_block', null, req, d);
  }
  if (req.idempotency_key === undefined) {
    return decideAndRecord(repos, caller, p, req, nowMs, null);
  }
  const scope = { orgId: caller.orgId, campaignId: p.campaignId, key: req.idempotency_key };
  const owner = randomUUID();
  const r = await repos.touches.reserveKey(repos.db, scope, {
    hash: sha256Hex(canonicalJson(req)),
    owner,
    nowMs,
    ttlMs: IDEMPOTENCY_TTL_MS,
    staleMs: IDEMPOTENCY_STALE_MS,
  });
  if (r.kind === 'mismatch') {
    throw errors.field(
      ['body', 'idempotency_key'],
      'this idempotency_key was used with a different request body',
      req.idempotency_key,
    );
  }
  if (r.kind === 'in_flight') throw errors.idempotencyKeyInUse();
  if (r.kind === 'done') {
    const status = (JSON.parse(r.response) as { status: TouchStatus; touch_id: string }).status;
    const touchId = (JSON.parse(r.response) as { touch_id: string | null }).touch_id;
    return {
      statusCode: r.statusCode as 200 | 202,
      body: r.response,
      status,
      touchId,
      replayed: true,
    };
  }
  try {
    return await decideAndRecord(repos, caller, p, req, nowMs, { scope, owner });
  } catch (err) {
    await repos.touches.releaseKey(repos.db, scope, owner).catch(() => {});
    throw err;
  }
}
