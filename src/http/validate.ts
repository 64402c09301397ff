import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { isSupportedCountry } from 'libphonenumber-js/max';
import type { Static, TObject, TSchema } from 'typebox';
import { currencyProblem } from '../domain/conversions/destinations.js';
import { configChecks } from '../domain/outbound/config-checks.js';
import { e164Problem } from '../domain/phone/e164.js';
import { usStateProblem } from '../domain/routing/states.js';
import { errors, type PydanticError, ValidationFailed } from '../errors.js';
import {
  type Check,
  compileValidator,
  decodeBody,
  fromPlain,
  jsonInvalidError,
  missingError,
  type PyValue,
  type Validator,
} from './pydantic/index.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's Content-Type header, as sent (see `keepContentType`). */
    contentTypeHeader?: string;
  }
}

/**
 * Fastify answers a Content-Type it cannot parse (`json`, `a/b/c`) with 415
 * before any route code runs, where FastAPI reads the body as text and
 * answers 422. Every body is read raw anyway, so Fastify parses under a
 * neutral type and the body decoder gets the caller's header.
 */
export function keepContentType(app: FastifyInstance): void {
  app.addHook('preParsing', async (request, _reply, payload) => {
    const given = request.headers['content-type'];
    if (given !== undefined) {
      request.contentTypeHeader = given;
      request.raw.headers['content-type'] = 'application/octet-stream';
    }
    return payload;
  });
}

/** The Content-Type the caller sent, before `keepContentType` neutralised it for Fastify. */
export function contentTypeOf(request: FastifyRequest): string | undefined {
  return request.contentTypeHeader ?? request.headers['content-type'];
}

/**
 * A preHandler that answers 415 unless the caller sent one of `types` (bulk files), before any
 * lookup the route makes, as the handler's own check did.
 */
export function requireMediaType(types: readonly string[]): preHandlerAsyncHookHandler {
  return async (request) => {
    const type =
      String(contentTypeOf(request) ?? '')
        .split(';')[0]
        ?.trim()
        .toLowerCase() ?? '';
    if (!types.includes(type)) throw errors.unsupportedMediaType();
  };
}

/**
 * A body read as text because of its Content-Type gets FastAPI's 422 byte for byte
 * (`model_attributes_type` at `["body"]`: fastapi-422-parity.md §8), which does not say why a
 * JSON object "is not a dictionary". The reason goes in a header, so the body keeps its shape.
 */
export const HINT_HEADER = 'x-error-hint';

function contentTypeHint(given: string | undefined): string {
  return given === undefined
    ? 'the request has no Content-Type, so its body was read as text, not JSON: send Content-Type: application/json'
    : `Content-Type ${JSON.stringify(given.slice(0, 100))} is not JSON, so the body was read as text: send Content-Type: application/json`;
}

/** The instants a timestamp of this service may name: 1970 up to the end of 2999. */
const FIRST_INSTANT = Date.UTC(1970, 0, 1);
const END_INSTANT = Date.UTC(3000, 0, 1);

/**
 * A real calendar date and time (2026-02-31 is not one), with a zone, within
 * FIRST_INSTANT..END_INSTANT: a year 0 or 9999-12-31T23:00-05:00 (year
 * 10000 in UTC) would be taken by JavaScript and refused by the database.
 */
function isoDatetimeProblem(v: unknown): string | null {
  const m =
    typeof v === 'string'
      ? /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.exec(v)
      : null;
  if (!m) return 'must be an ISO 8601 timestamp with a zone, such as 2026-01-31T15:04:05Z';
  const [y, mo, d, hh, mm] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as number[];
  const day = new Date(Date.UTC(y!, mo! - 1, d!));
  const ms = Date.parse(v as string);
  if (
    day.getUTCFullYear() !== y ||
    day.getUTCMonth() !== mo! - 1 ||
    day.getUTCDate() !== d ||
    hh! > 23 ||
    mm! > 59 ||
    Number.isNaN(ms)
  )
    return 'must be an ISO 8601 timestamp with a zone, such as 2026-01-31T15:04:05Z';
  if (ms < FIRST_INSTANT || ms >= END_INSTANT) return 'must be between 1970 and the end of 2999';
  return null;
}

/** Named checks a schema can ask for with `'x-check'`; each gives a Pydantic `value_error`. */
export const checks: Record<string, Check> = {
  e164: e164Problem,
  iana_zone: (v) => {
    if (typeof v !== 'string' || (!v.includes('/') && v !== 'UTC'))
      return 'must be an IANA time zone name, such as America/Chicago';
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: v });
      return null;
    } catch {
      return 'must be an IANA time zone name, such as America/Chicago';
    }
  },
  phone_country: (v) =>
    typeof v === 'string' && isSupportedCountry(v)
      ? null
      : 'must be an ISO 3166 country code with a calling code, such as US',
  iso_datetime: isoDatetimeProblem,
  dynamic_variables: (v) => {
    if (typeof v !== 'object' || v === null) return null;
    // Value types are the schema's union; this adds the bounds Pydantic would put in a validator.
    if (Object.keys(v).length > 50) return 'must have at most 50 keys';
    return Buffer.byteLength(JSON.stringify(v)) > 8192 ? 'must be at most 8 KiB as JSON' : null;
  },
  // The campaign config's (src/domain/outbound/config-schema.ts)
  ...configChecks,
  iso_4217: currencyProblem,
  us_state: usStateProblem,
};

/** The schemas of one route's request parts; validation answers `Static<...>` of each. */
export interface RequestSchemas {
  params?: TSchema;
  query?: TSchema;
  body?: TSchema;
  /** An absent body reads as `{}` (admin rows whose fields are all optional). */
  bodyOptional?: boolean;
}

/** Keys of fields with a `default` (`withDefault` in src/routes/common.ts): always present. */
type DefaultedKeys<P> = { [K in keyof P]: P[K] extends { default: unknown } ? K : never }[keyof P];
type Filled<O, K extends keyof O> = Omit<O, K> & { [Q in K]-?: Exclude<O[Q], undefined> };
type Part<T> =
  T extends TObject<infer P>
    ? Filled<Static<T>, DefaultedKeys<P> & keyof Static<T>>
    : T extends TSchema
      ? Static<T>
      : undefined;

/** What a route's handler reads once its request passed validation. */
export interface Valid<S extends RequestSchemas> {
  params: Part<S['params']>;
  query: Part<S['query']>;
  body: Part<S['body']>;
}

/** The `preHandler` that validates, and `read` for the handler behind it. */
export interface RequestValidator<S extends RequestSchemas> {
  hook: preHandlerAsyncHookHandler;
  /** The validated parts; throws (a bug) if this validator's hook did not run on `request`. */
  read(request: FastifyRequest): Valid<S>;
}

const options = { checks, storable: true };

/**
 * Compiles the schemas now (an unsupported keyword throws at start-up, naming its place) and
 * returns the hook that validates in FastAPI's order: a body that is not JSON is answered alone;
 * otherwise path errors, then query, then body errors, all of them in one 422. The hook runs after
 * authentication (contract §2), so a caller that cannot authenticate learns nothing about the body.
 */
export function validateRequest<S extends RequestSchemas>(spec: S): RequestValidator<S>;
// The validators answer each part's `Static` type (compileValidator), so the parts are `Valid<S>`.
export function validateRequest(spec: RequestSchemas): RequestValidator<RequestSchemas> {
  const params = spec.params && compileValidator(spec.params, options);
  const query = spec.query && compileValidator(spec.query, options);
  const body = spec.body && compileValidator(spec.body, options);
  const results = new WeakMap<FastifyRequest, Valid<RequestSchemas>>();
  const hook: preHandlerAsyncHookHandler = async (request, reply) => {
    const decoded = body
      ? decodeBody(contentTypeOf(request), request.body as Buffer | undefined)
      : undefined;
    if (decoded?.kind === 'undecodable') throw errors.bodyUndecodable();
    if (decoded?.kind === 'json_invalid')
      throw new ValidationFailed([jsonInvalidError(decoded.pos, decoded.msg)]);

    const found: PydanticError[] = [];
    const run = <T>(validator: Validator<T> | undefined, value: PyValue, loc: string) => {
      if (!validator) return undefined;
      const r = validator(value, [loc]);
      if (r.ok) return r.value;
      found.push(...r.errors);
      return undefined;
    };
    const valid: Valid<RequestSchemas> = {
      params: run(params, fromPlain(request.params), 'path'),
      query: run(query, fromPlain(request.query), 'query'),
      body: undefined,
    };
    if (decoded?.kind === 'missing') {
      if (spec.bodyOptional) valid.body = run(body, fromPlain({}), 'body');
      else found.push(missingError(['body']));
    } else if (decoded) valid.body = run(body, decoded.value, 'body');
    if (found.length > 0) {
      if (decoded?.kind === 'raw')
        reply.header(HINT_HEADER, contentTypeHint(contentTypeOf(request)));
      throw new ValidationFailed(found);
    }
    results.set(request, valid);
  };
  return {
    hook,
    read(request) {
      const valid = results.get(request);
      if (!valid) throw new Error('the route did not run this validator as its preHandler');
      return valid;
    },
  };
}
