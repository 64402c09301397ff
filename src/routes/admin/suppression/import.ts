import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { importSuppressionList } from '../../../domain/suppression/import.js';
import { requireMediaType } from '../../../http/validate.js';
import { adminRoute } from '../shared/openapi.js';
import { ORG_PREFIX } from '../shared/org-scope.js';
import {
  SuppressionImportQuery,
  SuppressionImportSummary,
  SuppressionListParams,
} from './schema.js';

/** Who a list change is by, in its audit line. */
export const ACTOR = 'admin';
/** A list's date when the request names none: today, UTC. */
export const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Bulk list files: streamed, never buffered, so no body limit applies to them. */
const STREAMED_TYPES = ['text/plain', 'text/csv', 'application/octet-stream'];

/**
 * A list file, streamed: its own plugin, so the streaming body parsers apply to this route
 * only.
 */
export function suppressionImportRoute(admin: FastifyInstance, deps: AppDeps): void {
  admin.register(async (scope) => {
    scope.removeContentTypeParser(['text/plain']);
    scope.addContentTypeParser(STREAMED_TYPES, (_req, payload, done) => done(null, payload));
    const postSuppressionByListImport = adminRoute(
      'suppression',
      'Import a list file: one number per line (LF, CRLF or CR), streamed',
      {
        params: SuppressionListParams,
        query: SuppressionImportQuery,
        body: Type.String({
          description:
            'One number per line, E.164 or 10 US digits; a state list line may add `,XX`. Any size: streamed, never buffered.',
          examples: ['+14155550100\n4155550101\n'],
        }),
        bodyMedia: STREAMED_TYPES,
        answer: SuppressionImportSummary,
        description:
          '`mode=add` adds the lines; `mode=replace` makes the list exactly the file. Rejected lines are counted and the first ones listed with their line numbers; the rest are imported.',
      },
    );
    scope.post(
      `${ORG_PREFIX}/suppression/:list/import`,
      {
        ...postSuppressionByListImport.options,
        preHandler: [
          postSuppressionByListImport.options.preHandler,
          requireMediaType(STREAMED_TYPES),
        ],
      },
      async (req) => {
        const { params, query } = postSuppressionByListImport.read(req);
        const nowMs = deps.clock.now();
        // An empty body never reaches the parser: an empty file.
        const body = (req.body as Readable | undefined) ?? Readable.from([]);
        return importSuppressionList(deps.repos, body, {
          orgId: params.org_id,
          list: params.list,
          mode: query.mode ?? 'add',
          source: query.source ?? `import:${params.list}`,
          listedOn: query.list_date ?? isoDay(nowMs),
          state: query.state ?? null,
          nowMs,
          now: () => deps.clock.now(),
          actor: ACTOR,
          requestId: req.id,
        });
      },
    );
  });
}
