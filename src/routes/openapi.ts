import type { TSchema } from 'typebox';

/**
 * The OpenAPI side of the route schemas. A body schema is a TypeBox constant
 * with an `$id`: validation uses the constant itself, and the document names
 * it under `components.schemas` because the route refers to it by `$ref`
 * (`app.addSchema` registers it, and @fastify/swagger's resolver names each
 * shared schema by its `$id`). One definition, so a generated client's types
 * are the validator's.
 */
export type Named = TSchema;

function idOf(schema: Named): string {
  const id = (schema as { $id?: unknown }).$id;
  if (typeof id !== 'string') throw new Error('a shared schema needs an $id');
  return id;
}

const firstExample = (schema: Named): unknown => (schema as { examples?: unknown[] }).examples?.[0];

/** The `$ref` a route schema uses for a registered schema. */
export const ref = (schema: Named) => ({ $ref: `${idOf(schema)}#` });

// Flat: @fastify/swagger moves a header's schema under `schema` itself.
export const header = (
  description: string,
  schema: Record<string, unknown> = { type: 'string' },
) => ({
  ...schema,
  description,
});

/** X-Request-Id, as both APIs send it; `more` follows the common description. */
export const requestIdHeader = (more = '') =>
  header(
    `The request's id: the caller's X-Request-Id when it is 1–128 characters of [A-Za-z0-9._:-], else a generated one.${more}`,
    { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
  );
export const wwwAuthenticateHeader = header('Always `Bearer`.', {
  type: 'string',
  enum: ['Bearer'],
});

/**
 * The frame both documents share: OpenAPI 3.1, the service's version and licence, and a relative
 * server, so that Swagger UI's "Try it out" goes to the host and port the page was loaded from,
 * whatever the listener's address or a proxy in front.
 */
export function documentFrame(title: string, description: string, listener: string) {
  return {
    openapi: '3.1.0',
    info: { title, version: '0.1.0', description, license: { name: 'MIT', identifier: 'MIT' } },
    servers: [{ url: '/', description: `The ${listener} listener this document was loaded from` }],
  };
}

/** Every header the public API sends, as OpenAPI response headers. */
export const headers = {
  'X-Request-Id': requestIdHeader(' Quote it when reporting a problem.'),
  'WWW-Authenticate': wwwAuthenticateHeader,
  'Retry-After': header(
    'Seconds to wait before trying again. On a 429 it is the seconds until the rate-limit window resets: the `t` of the RateLimit header.',
    { type: 'integer', minimum: 1 },
  ),
  RateLimit: header(
    'The remaining budget, as draft-ietf-httpapi-ratelimit-headers-11 §4: `"default";r=<requests left in this window>;t=<seconds until it resets>`. Counted per organization; shared by every process when the service runs with Redis.',
    { type: 'string', pattern: '^"default";r=\\d+;t=\\d+$', examples: ['"default";r=297;t=42'] },
  ),
  'RateLimit-Policy': header(
    'The quota, as draft-ietf-httpapi-ratelimit-headers-11 §3: `"default";q=<requests per window>;w=60`. Windows are fixed one-minute windows aligned to the wall clock.',
    { type: 'string', pattern: '^"default";q=\\d+;w=\\d+$', examples: ['"default";q=300;w=60'] },
  ),
  'X-Error-Hint': header(
    'On a 422 for a body read as text (no Content-Type, or one that is not JSON): why, and what to send. The body keeps FastAPI’s shape.',
  ),
  'Idempotent-Replayed': header(
    'Present, and `true`, when this answer replays the first answer to the same idempotency_key.',
    { type: 'string', enum: ['true'] },
  ),
};

export type HeaderName = keyof typeof headers;

/**
 * A JSON response: its description, its headers (X-Request-Id always) and a
 * media example, by default the first of the schema's `examples`.
 */
export function reply(
  description: string,
  schema: Named,
  o: { headers?: HeaderName[]; example?: unknown } = {},
) {
  const names: HeaderName[] = ['X-Request-Id', ...(o.headers ?? [])];
  const example = o.example ?? firstExample(schema);
  return {
    description,
    headers: Object.fromEntries(names.map((n) => [n, headers[n]])),
    content: {
      'application/json': {
        schema: ref(schema),
        ...(example === undefined ? {} : { example }),
      },
    },
  };
}
