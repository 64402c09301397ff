import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { importConsentsCsv } from '../../../domain/consents/import.js';
import { countCsvRecords } from '../../../domain/text/csv-reader.js';
import { errors } from '../../../errors.js';
import { errorLine } from '../../../http/error-handler.js';
import { requireMediaType } from '../../../http/validate.js';
import { adminRoute } from '../shared/openapi.js';
import { ORG_PREFIX } from '../shared/org-scope.js';
import { OrgIdParams } from '../shared/params.js';
import { ConsentImportSummary } from './schema.js';

const ACTOR = 'admin';
/** Bulk files are far larger than API bodies; 32 MiB is about 300 000 rows. */
const IMPORT_BODY_LIMIT = 32 * 1024 * 1024;

/**
 * Consent events from a CSV file: checked whole before anything is stored, answered with a
 * summary or, on request, with NDJSON progress lines.
 */
export function consentImportRoute(admin: FastifyInstance, deps: AppDeps): void {
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
      else out.end(errorLine(headerError(result.problems), req, deps.storeFailure));
    },
    (err: unknown) => out.end(errorLine(err, req, deps.storeFailure)),
  );
  return reply.header('content-type', NDJSON).send(out);
}
