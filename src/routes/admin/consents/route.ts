import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../../deps.js';
import { consentEventView } from '../../../domain/admin/views.js';
import {
  consentStanding,
  eventView,
  type FieldProblem,
  grantEvent,
  grantProblems,
  type NewConsentEvent,
  recordConsentEvent,
  revocationEvent,
  revocationProblems,
} from '../../../domain/consents/consents.js';
import type { ConsentLog } from '../../../domain/consents/ports.js';
import { normalizeE164 } from '../../../domain/phone/e164.js';
import type { Executor } from '../../../domain/ports.js';
import { errors } from '../../../errors.js';
import { rangeOf } from '../shared/filters.js';
import { listRoute, opaqueCursor } from '../shared/list-route.js';
import { adminRoute } from '../shared/openapi.js';
import { ORG_PREFIX } from '../shared/org-scope.js';
import { OrgIdParams } from '../shared/params.js';
import { consentImportRoute } from './import.js';
import {
  ConsentEventItem,
  ConsentListQuery,
  ConsentParams,
  ConsentStanding,
  PutConsent,
  RevokeConsent,
} from './schema.js';

const ACTOR = 'admin';

async function consentView(
  r: ConsentLog,
  ex: Executor,
  orgId: string,
  e164: string,
  nowMs: number,
) {
  const history = await r.consents.contactHistory(ex, orgId, e164);
  return {
    org_id: orgId,
    e164,
    ...consentStanding(history, nowMs, e164),
    history: history.map(eventView).reverse(),
  };
}

function reject<B extends object>(problems: FieldProblem[], body: B): void {
  if (problems.length === 0) return;
  const input = new Map(Object.entries(body));
  throw errors.fields(
    problems.map((p) => ({ loc: ['body', p.field], msg: p.message, input: input.get(p.field) })),
  );
}

/**
 * Consent records (contract §6, compliance-rules.md Part A point 1): every grant and revocation
 * is a new event, so history is never rewritten; each change writes an audit line with it.
 */
export function consentRoutes(admin: FastifyInstance, deps: AppDeps): void {
  const record = async (req: FastifyRequest, orgId: string, event: NewConsentEvent) => {
    const nowMs = deps.clock.now();
    const at = new Date(nowMs);
    return deps.repos.transaction(async (tx) => {
      const by = { orgId, actor: ACTOR, requestId: req.id, at };
      await recordConsentEvent(deps.repos, tx, by, event);
      return consentView(deps.repos, tx, orgId, event.e164, nowMs);
    });
  };
  const e164Of = (raw: string) => normalizeE164(raw) ?? raw;

  const getConsentsByE164 = adminRoute('consents', 'A contact’s consent standing and history', {
    params: ConsentParams,
    answer: ConsentStanding,
  });
  admin.get(`${ORG_PREFIX}/consents/:e164`, getConsentsByE164.options, async (req) => {
    const { params } = getConsentsByE164.read(req);
    return consentView(
      deps.repos,
      deps.repos.db,
      params.org_id,
      e164Of(params.e164),
      deps.clock.now(),
    );
  });
  const putConsentsByE164 = adminRoute('consents', 'Record a consent grant (a new event)', {
    params: ConsentParams,
    body: PutConsent,
    answer: ConsentStanding,
  });
  admin.put(`${ORG_PREFIX}/consents/:e164`, putConsentsByE164.options, async (req) => {
    const { params, body } = putConsentsByE164.read(req);
    const nowMs = deps.clock.now();
    reject(grantProblems(body, nowMs), body);
    const event = grantEvent(e164Of(params.e164), body, nowMs);
    const view = await record(req, params.org_id, event);
    // After the commit, off the response: the RND query is slow; the schedule retries failures.
    void deps.rnd?.checkSoon({
      e164: event.e164,
      consent_date: event.capturedAt.toISOString().slice(0, 10),
    });
    return view;
  });
  const postConsentsByE164Revoke = adminRoute(
    'consents',
    'Record a revocation, opt-out or internal DNC (a new event)',
    {
      params: ConsentParams,
      body: RevokeConsent,
      bodyOptional: true,
      answer: ConsentStanding,
    },
  );
  admin.post(
    `${ORG_PREFIX}/consents/:e164/revoke`,
    postConsentsByE164Revoke.options,
    async (req) => {
      const { params, body } = postConsentsByE164Revoke.read(req);
      const nowMs = deps.clock.now();
      reject(revocationProblems(body, nowMs), body);
      const event = revocationEvent(e164Of(params.e164), body, nowMs);
      return record(req, params.org_id, event);
    },
  );
  consentImportRoute(admin, deps);
  consentEventListRoute(admin, deps);
}

/** Every consent event as recorded, newest first. */
function consentEventListRoute(admin: FastifyInstance, deps: AppDeps): void {
  listRoute(
    admin,
    `${ORG_PREFIX}/consents`,
    'consents',
    'List consent events (grants and revocations), newest first',
    {
      doc: {
        params: OrgIdParams,
        query: ConsentListQuery,
        answer: ConsentEventItem,
        description:
          'Every event as recorded; `since`/`until` apply to the time it was recorded. A contact’s standing is at GET …/consents/{e164}.',
      },
      cursor: opaqueCursor(/^[1-9][0-9]{0,15}$/),
      rows: ({ params, query, after, take }) =>
        deps.queries.activity.listConsentEvents(params.org_id, {
          limit: take,
          after: after === undefined ? undefined : Number(after),
          e164: query.e164 ? (normalizeE164(query.e164) ?? query.e164) : undefined,
          kind: query.kind,
          ...rangeOf(query),
        }),
      keyOf: (r) => String(r.seq),
      view: (r) => consentEventView(r.e164, r),
    },
  );
}
