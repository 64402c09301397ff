import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { AppDeps } from '../../../deps.js';
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
import { importConsentsCsv } from '../../../domain/consents/import.js';
import type { ConsentLog } from '../../../domain/consents/ports.js';
import { countCsvRecords } from '../../../domain/outbound/csv.js';
import { normalizeE164 } from '../../../domain/phone/e164.js';
import type { Executor } from '../../../domain/ports.js';
import { errors } from '../../../errors.js';
import { errorLine } from '../../../http/error-handler.js';
import { requireMediaType } from '../../../http/validate.js';
import { adminRoute } from '../shared/openapi.js';
import { ORG_PREFIX } from '../shared/org-scope.js';
import { OrgIdParams } from '../shared/params.js';
import {
  ConsentImportSummary,
  ConsentParams,
  ConsentStanding,
  PutConsent,
  RevokeConsent,
} from './schema.js';

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
  const postConsentsImport = adminRoute(
    'consents',
    'Import consent events from a CSV file (text/csv)',
    {
      params: OrgIdParams,
      body: Type.String({
        description:
          'A header row, then one grant per line: e164,tier,captured_at,source,… (docs/consent.md). At most 32 MiB.',
        examples: [
          'e164,tier,captured_at,source\n+14155550100,pewc,2026-01-05T10:00:00Z,web-form\n',
        ],
      }),
      bodyMedia: ['text/csv'],
      answer: ConsentImportSummary,
      media: {
        [NDJSON]: Type.String({
          description:
            'With `Accept: application/x-ndjson`: one JSON object a line, `{"progress":…}` then `{"summary":…}` or `{"status","error"}`.',
        }),
      },
      description:
        'Every row is checked first: a file with a bad header or an unreadable row is a 422 and imports nothing. Rows already on file are skipped. ' +
        IMPORT_DESCRIPTION,
    },
  );
  admin.post(
    `${ORG_PREFIX}/consents/import`,
    {
      ...postConsentsImport.options,
      preHandler: [postConsentsImport.options.preHandler, requireMediaType(['text/csv'])],
      bodyLimit: IMPORT_BODY_LIMIT,
    },
    async (req, reply) => {
      const { params } = postConsentsImport.read(req);
      const text = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
      const options = {
        orgId: params.org_id,
        nowMs: deps.clock.now(),
        actor: ACTOR,
        requestId: req.id,
      };
      if (!wantsProgress(req.headers.accept)) {
        const result = await importConsentsCsv(deps.repos, text, options);
        if (!result.ok) throw headerError(result.problems);
        return result.summary;
      }
      return importWithProgress(req, reply, deps, text, options);
    },
  );
}

const IMPORT_DESCRIPTION =
  'Answers the summary once every row is stored. With `Accept: application/x-ndjson` the ' +
  'answer is a stream of JSON lines instead, from the moment the header is accepted: ' +
  '`{"progress":{"rows","total","imported","duplicates","rejected"}}` at the start and after ' +
  'every batch stored, then `{"summary":{…}}` (the same object), or `{"status","error"}` when ' +
  'the import failed after the stream began (nothing is stored then). A bad header is still ' +
  'a 422 with a JSON body.';

const NDJSON = 'application/x-ndjson';

/** The client asked for progress lines (the CLI does on a terminal). */
function wantsProgress(accept: string | undefined): boolean {
  return accept?.split(',').some((t) => t.split(';')[0]?.trim().toLowerCase() === NDJSON) ?? false;
}

const headerError = (problems: string[]) =>
  errors.fields(problems.map((msg) => ({ loc: ['body'], msg, input: null })));

/**
 * The import with its progress as NDJSON lines. The status is sent with the first line, once the
 * header is accepted: a header problem is still a 422 in the usual shape. `total` is counted
 * first (quickly, without parsing the rows), so a client can show a fraction and a rate.
 */
async function importWithProgress(
  req: FastifyRequest,
  reply: FastifyReply,
  deps: AppDeps,
  text: string,
  options: Parameters<typeof importConsentsCsv>[2],
) {
  const total = Math.max(0, (await countCsvRecords(text)) - 1);
  const out = new PassThrough();
  let started: () => void = () => {};
  const firstLine = new Promise<'started'>((resolve) => {
    started = () => resolve('started');
  });
  const running = importConsentsCsv(deps.repos, text, {
    ...options,
    onProgress: (p) => {
      out.write(`${JSON.stringify({ progress: { ...p, total } })}\n`);
      started();
    },
  });
  const first = await Promise.race([firstLine, running]);
  if (first !== 'started') {
    if (!first.ok) throw headerError(first.problems);
  }
  running.then(
    (result) => {
      // The header was accepted (the stream began), so the result is a summary.
      if (result.ok) out.end(`${JSON.stringify({ summary: result.summary })}\n`);
      else out.end(errorLine(headerError(result.problems), req));
    },
    (err: unknown) => out.end(errorLine(err, req)),
  );
  return reply.header('content-type', NDJSON).send(out);
}
