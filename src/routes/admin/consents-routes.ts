import type { FastifyInstance, FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { AppDeps } from '../../deps.js';
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
} from '../../domain/consents/consents.js';
import { importConsentsCsv } from '../../domain/consents/import.js';
import type { ConsentLog } from '../../domain/consents/ports.js';
import { normalizeE164 } from '../../domain/phone/e164.js';
import type { Executor } from '../../domain/ports.js';
import { errors } from '../../errors.js';
import { requireMediaType } from '../../http/validate.js';
import { adminRoute } from './openapi.js';
import { ORG_PREFIX } from './org-scope.js';
import * as S from './schemas.js';
import * as V from './view-schemas.js';

const ACTOR = 'admin';
/** Bulk files are far larger than API bodies; 32 MiB is about 300 000 rows. */
const IMPORT_BODY_LIMIT = 32 * 1024 * 1024;

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
    ...consentStanding(history, nowMs),
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
    params: S.ConsentParams,
    answer: V.ConsentStanding,
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
    params: S.ConsentParams,
    body: S.PutConsent,
    answer: V.ConsentStanding,
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
      params: S.ConsentParams,
      body: S.RevokeConsent,
      bodyOptional: true,
      answer: V.ConsentStanding,
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
  const postConsentsImport = adminRoute(
    'consents',
    'Import consent events from a CSV file (text/csv)',
    {
      params: S.OrgIdParams,
      body: Type.String({
        description:
          'A header row, then one grant per line: e164,tier,captured_at,source,… (docs/consent.md). At most 32 MiB.',
        examples: [
          'e164,tier,captured_at,source\n+14155550100,pewc,2026-01-05T10:00:00Z,web-form\n',
        ],
      }),
      bodyMedia: ['text/csv'],
      answer: V.ConsentImportSummary,
      description:
        'Every row is checked first: a file with a bad header or an unreadable row is a 422 and imports nothing. Rows already on file are skipped.',
    },
  );
  admin.post(
    `${ORG_PREFIX}/consents/import`,
    {
      ...postConsentsImport.options,
      preHandler: [postConsentsImport.options.preHandler, requireMediaType(['text/csv'])],
      bodyLimit: IMPORT_BODY_LIMIT,
    },
    async (req) => {
      const { params } = postConsentsImport.read(req);
      const text = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
      const result = await importConsentsCsv(deps.repos, text, {
        orgId: params.org_id,
        nowMs: deps.clock.now(),
        actor: ACTOR,
        requestId: req.id,
      });
      if (!result.ok) {
        throw errors.fields(result.problems.map((msg) => ({ loc: ['body'], msg, input: null })));
      }
      return result.summary;
    },
  );
}
