/**
 * OpenAPI conformance of every answer the HTTP suites see (issue 19 point 3):
 * each app the tests build checks, in an `onSend` hook, that the status, the
 * media type, the JSON body and the headers it is about to send are declared
 * for that operation in the document it publishes (GET /openapi.json or
 * GET /admin/openapi.json). A violation is recorded here; the setup file
 * (conformance-setup.ts) fails the test that caused it. Objects are checked
 * closed: a field the document does not name is a violation, though the
 * document itself leaves `additionalProperties` unsaid.
 */

import Ajv2020Module, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// CommonJS modules: their default export is under `default` when imported from ESM.
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

type Doc = {
  paths: Record<string, Record<string, Operation>>;
  [k: string]: unknown;
};
type Operation = { responses?: Record<string, ResponseDoc> };
type ResponseDoc = {
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: unknown }>;
};

export interface Violation {
  app: string;
  request: string;
  status: number;
  problem: string;
}

const violations: Violation[] = [];

/** The violations recorded since the last call, which forgets them. */
export function takeViolations(): Violation[] {
  return violations.splice(0, violations.length);
}

export function formatViolations(v: Violation[]): string {
  return [
    `${v.length} answer(s) do not match the published OpenAPI document:`,
    ...v.map((x) => `  [${x.app}] ${x.request} → ${x.status}: ${x.problem}`),
  ].join('\n');
}

const PROTOCOL_ERRORS = [
  'bad_request',
  'invalid_url_encoding',
  'request_timeout',
  'uri_too_long',
  'request_header_fields_too_large',
];

/** Headers every answer may carry that a document does not declare (transport and framework). */
const TRANSPORT = new Set([
  'content-type',
  'content-length',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'vary',
  'cache-control',
  'etag',
  'last-modified',
  'access-control-allow-origin',
]);

/** Closes every object schema that does not say what else it allows. */
function closeObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closeObjects);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = closeObjects(v);
  if (
    out.properties &&
    typeof out.properties === 'object' &&
    !('additionalProperties' in out) &&
    !('patternProperties' in out) &&
    !('unevaluatedProperties' in out)
  ) {
    out.additionalProperties = false;
  }
  return out;
}

/** Ajv's errors in a line each; a value that matches no branch of a union is said once, with the value. */
function describe(errors: ErrorObject[], value: unknown): string[] {
  const unions = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  return errors
    .filter((e) => e.keyword === 'anyOf' || !unions.has(e.instancePath))
    .map((e) => {
      const at = `body${e.instancePath}`;
      if (e.keyword === 'anyOf') {
        return `${at} is ${JSON.stringify(valueAt(value, e.instancePath))}, which the document does not allow`;
      }
      if (e.keyword === 'additionalProperties') {
        const name = (e.params as { additionalProperty: string }).additionalProperty;
        return `${at} has the field ${name}, which the document does not declare`;
      }
      return `${at} ${e.message}`;
    });
}

function valueAt(value: unknown, path: string): unknown {
  let v = value;
  for (const part of path.split('/').slice(1)) {
    const key = part.replaceAll('~1', '/').replaceAll('~0', '~');
    v = v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
  }
  return v;
}

const DOC_ID = 'https://conformance.invalid/openapi.json';

const pointer = (parts: string[]) =>
  parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

class Checker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly doc: Doc) {
    addFormats(this.ajv);
    // The document as one schema resource: each body schema is compiled by a pointer into it,
    // so its `#/components/schemas/…` references resolve.
    this.ajv.addSchema(closeObjects(doc) as object, DOC_ID);
  }

  check(request: FastifyRequest, reply: FastifyReply, payload: unknown): string[] {
    const url = request.routeOptions.url;
    const method = request.method.toLowerCase();
    if (!url || method === 'head' || method === 'options') return [];
    if ((request.routeOptions.schema as { hide?: boolean } | undefined)?.hide) return [];
    const path = url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const op = this.doc.paths[path]?.[method];
    if (!op) {
      // Routes outside the document: Swagger UI's own pages.
      if (/\/docs(\/|$)/.test(url)) return [];
      return [`the operation ${method.toUpperCase()} ${path} is not in the document`];
    }
    const status = reply.statusCode;
    // Framing errors (no Host, a bad request line, timeouts) are the HTTP layer's, before any
    // operation runs: the documents describe them in prose (src/errors.ts, protocol-errors.ts).
    if (PROTOCOL_ERRORS.some((code) => String(payload ?? '').includes(`"detail":"${code}"`))) {
      return [];
    }
    const key = [String(status), `${String(status)[0]}XX`, 'default'].find(
      (k) => op.responses?.[k],
    );
    if (!key) return [`status ${status} is not declared`];
    const declared = op.responses![key]!;
    const problems: string[] = [];

    const declaredHeaders = new Set(
      Object.keys(declared.headers ?? {}).map((h) => h.toLowerCase()),
    );
    for (const name of Object.keys(reply.getHeaders())) {
      const h = name.toLowerCase();
      if (!TRANSPORT.has(h) && !declaredHeaders.has(h))
        problems.push(`header ${name} is not declared`);
    }

    const type = String(reply.getHeader('content-type') ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    const body =
      payload == null
        ? ''
        : typeof payload === 'string' || Buffer.isBuffer(payload)
          ? payload.toString()
          : null;
    if (body === '' && !type) {
      if (declared.content && status !== 204)
        problems.push('the answer has no body, the document declares one');
      return problems;
    }
    const media = declared.content?.[type];
    if (!media) {
      problems.push(
        `media type ${type || '(none)'} is not declared (declared: ${Object.keys(declared.content ?? {}).join(', ') || 'no body'})`,
      );
      return problems;
    }
    if (type !== 'application/json' || body === null) return problems;
    const validate = this.validator(path, method, key, type);
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      return [...problems, 'the body is not JSON'];
    }
    if (!validate(value)) problems.push(...describe(validate.errors ?? [], value));
    return problems;
  }

  private validator(path: string, method: string, status: string, media: string) {
    const id = `${path} ${method} ${status} ${media}`;
    const known = this.compiled.get(id);
    if (known) return known;
    const at = pointer(['paths', path, method, 'responses', status, 'content', media, 'schema']);
    const v = this.ajv.compile({ $ref: `${DOC_ID}#/${at}` });
    this.compiled.set(id, v);
    return v;
  }
}

// One checker per distinct document: every harness of a run serves the same two.
const checkers = new Map<string, Checker>();
function checkerFor(doc: Doc): Checker {
  const key = JSON.stringify(doc);
  let c = checkers.get(key);
  if (!c) {
    c = new Checker(doc);
    checkers.set(key, c);
  }
  return c;
}

/**
 * Checks every answer of `app` against the document it serves. Call before `ready()`; the
 * document is read (from `app.swagger()`) at the first answer.
 */
export function checkConformance(app: FastifyInstance, name: 'public' | 'admin'): void {
  let checker: Checker | undefined;
  app.addHook('onSend', async (request, reply, payload) => {
    try {
      checker ??= checkerFor(app.swagger() as unknown as Doc);
      for (const problem of checker.check(request, reply, payload)) {
        violations.push({
          app: name,
          request: `${request.method} ${request.url}`,
          status: reply.statusCode,
          problem,
        });
      }
    } catch (err) {
      violations.push({
        app: name,
        request: `${request.method} ${request.url}`,
        status: reply.statusCode,
        problem: `the check failed: ${(err as Error).message}`,
      });
    }
    return payload;
  });
}
