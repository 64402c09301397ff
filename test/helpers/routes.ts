import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Store } from '../../src/store/db.js';

/**
 * The three public endpoints, described once so the security, validation and
 * protocol suites run the same checks against each (unkey's security harness).
 */
export interface PublicRoute {
  name: string;
  scope: 'enroll' | 'execute';
  /** True when the campaign code travels in the path rather than in the body. */
  codeInPath: boolean;
  url(code: string): string;
  /** A body that passes validation, for campaign `code`. */
  body(code: string): Record<string, unknown>;
  /** The required body fields, in schema order. */
  required: string[];
}

export const ROUTES: PublicRoute[] = [
  {
    name: 'POST /dni/session',
    scope: 'enroll',
    codeInPath: false,
    url: () => '/dni/session',
    body: (code) => ({ campaign_code: code, visitor_id: 'visitor-1' }),
    required: ['campaign_code', 'visitor_id'],
  },
  {
    name: 'POST /dni/campaigns/{campaign_code}/buyer-report',
    scope: 'execute',
    codeInPath: true,
    url: (code) => `/dni/campaigns/${encodeURIComponent(code)}/buyer-report`,
    body: () => ({ call_id: 'call_0123456789abcdef', report_id: 'r-1', disposition: 'success' }),
    required: ['call_id', 'report_id', 'disposition'],
  },
  {
    name: 'POST /tracking/campaigns/{campaign_code}/outbound',
    scope: 'execute',
    codeInPath: true,
    url: (code) => `/tracking/campaigns/${encodeURIComponent(code)}/outbound`,
    body: () => ({ to_e164: '+14155550123', channel: 'call', consent_basis: 'pewc' }),
    required: ['to_e164', 'channel', 'consent_basis'],
  },
];

export const byName = (prefix: string): PublicRoute => {
  const r = ROUTES.find((x) => x.name.includes(prefix));
  if (!r) throw new Error(`no route ${prefix}`);
  return r;
};

/** A campaign code no test creates (createTenant codes start with `c`). */
export const MISSING_CODE = 'nop';

export interface SendOptions {
  /** The whole Authorization header; undefined sends none. */
  authorization?: string | undefined;
  /** An object is sent as JSON; a string or Buffer as is. */
  payload?: unknown;
  /** undefined: application/json; null: no Content-Type header at all. */
  contentType?: string | null;
  headers?: Record<string, string>;
  method?: 'POST' | 'GET' | 'PUT' | 'DELETE' | 'PATCH';
}

/** One request to `route` for campaign `code`, exactly as described. */
export function send(
  app: FastifyInstance,
  route: PublicRoute,
  code: string,
  o: SendOptions = {},
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.authorization !== undefined) headers.authorization = o.authorization;
  if (o.contentType !== null) headers['content-type'] = o.contentType ?? 'application/json';
  const raw = 'payload' in o ? o.payload : route.body(code);
  const payload =
    typeof raw === 'string' || Buffer.isBuffer(raw)
      ? raw
      : raw === undefined
        ? undefined
        : JSON.stringify(raw);
  return app.inject({
    method: o.method ?? 'POST',
    url: route.url(code),
    headers,
    ...(payload === undefined ? {} : { payload }),
  });
}

/** Sends `key` with a valid body for a missing campaign: 404 proves the key was accepted. */
export async function probe(
  app: FastifyInstance,
  route: PublicRoute,
  authorization: string,
): Promise<LightMyRequestResponse> {
  return send(app, route, MISSING_CODE, { authorization });
}

/** Row counts of every table, so a test can prove a request wrote nothing anywhere. */
export async function rowCounts(store: Store): Promise<Record<string, number>> {
  const tables = await store.query<{ table_name: string }>(
    `select table_name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
    [],
  );
  const counts: Record<string, number> = {};
  for (const { table_name } of tables) {
    const [row] = await store.query<{ n: number | string }>(
      `select count(*)::int as n from "${table_name}"`,
      [],
    );
    counts[table_name] = Number(row?.n);
  }
  return counts;
}

/**
 * Headers that legitimately differ between two otherwise identical responses.
 * `ratelimit` carries the remaining budget, one less on the second request;
 * both requests are counted alike (RateLimit-Policy is compared).
 */
const VOLATILE = new Set(['x-request-id', 'date', 'ratelimit']);

export function stableHeaders(res: LightMyRequestResponse): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(res.headers)
      .filter(([k]) => !VOLATILE.has(k))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}
