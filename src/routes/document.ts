import type { SwaggerOptions } from '@fastify/swagger';
import { openApiWebhooks } from '../domain/webhooks/schemas.js';
import { buyerReportSchemas } from './buyer-report/schema.js';
import { commonSchemas } from './common.js';
import { dniSessionSchemas } from './dni-session/schema.js';
import { documentFrame, type Named } from './openapi.js';
import { outboundSchemas } from './outbound/schema.js';
import { systemSchemas } from './system/route.js';

/** Every named schema of the public API, registered once with `app.addSchema`. */
export const publicSchemas: Named[] = [
  ...commonSchemas,
  ...dniSessionSchemas,
  ...buyerReportSchemas,
  ...outboundSchemas,
  ...systemSchemas,
];

const description = `DNI sessions, buyer reports and governed outbound touches for call tracking.

Authenticate with \`Authorization: Bearer svc_live_<40 hex>\`; a key carries the scopes \`enroll\` (sessions) and \`execute\` (buyer reports, outbound touches). Checks run in this order: 401 credential, 403 \`tracking_disabled\`, 403 \`insufficient_scope\`, 429 (session creation only), 422 validation, 404, the operation.

Every response is \`application/json\` and carries \`X-Request-Id\`. Errors are \`{"detail":"<code>"}\`, except 422, which has FastAPI's shape \`{"detail":[{type, loc, msg, input, ctx?}]}\` listing every failing field. Unknown routes answer 404 \`{"detail":"Not Found"}\`, a wrong method 405 \`{"detail":"Method Not Allowed"}\`.`;

type Doc = {
  paths?: Record<string, Record<string, { requestBody?: { content?: Record<string, Media> } }>>;
  components?: { schemas?: Record<string, { examples?: unknown[] }> };
};
type Media = { schema?: { $ref?: string }; example?: unknown };

/**
 * The resolver drops keywords beside a body's `$ref`, so the request example
 * is set here: the first of the referenced schema's `examples`.
 */
function withBodyExamples<T>(doc: T): T {
  const d = doc as Doc;
  for (const item of Object.values(d.paths ?? {})) {
    for (const op of Object.values(item)) {
      for (const media of Object.values(op.requestBody?.content ?? {})) {
        const name = media.schema?.$ref?.split('/').pop();
        const example = name ? d.components?.schemas?.[name]?.examples?.[0] : undefined;
        if (example !== undefined) media.example = example;
      }
    }
  }
  return doc;
}

// The events an organization's webhook endpoints receive (docs/webhooks.md).
const events = openApiWebhooks();

export const openapiOptions: SwaggerOptions = {
  openapi: {
    ...documentFrame('Call tracking API', description, 'public'),
    tags: [
      { name: 'dni', description: 'Dynamic number insertion: a tracking number per visitor' },
      { name: 'buyer-reports', description: "A buyer's disposition of a delivered call" },
      { name: 'outbound', description: 'Governed outbound calls, SMS and voicemail drops' },
      { name: 'system', description: 'Health of the service' },
    ],
    // @fastify/swagger passes `webhooks` through; its OpenAPI 3.0 types do not know the field.
    ...({ webhooks: events.webhooks } as object),
    components: {
      schemas: events.schemas as never,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key issued by the provider: `svc_live_` and 40 lowercase hex',
        },
      },
    },
  },
  // Only an OpenAPI document is built (never Swagger 2).
  transformObject: (doc) => withBodyExamples((doc as { openapiObject: object }).openapiObject),
  // Name each shared schema by its $id instead of def-0, def-1…
  refResolver: {
    buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`),
  },
};
