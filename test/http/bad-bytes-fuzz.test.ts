/**
 * Point 6 of issue 7: ≥ 10,000 generated malformed requests across the three public endpoints
 * never get a 5xx and always get a body in the spec's shape; a correct request works afterwards.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { BuyerReportBody } from '../../src/routes/buyer-report/schema.js';
import { DniSessionBody } from '../../src/routes/dni-session/schema.js';
import { OutboundBody } from '../../src/routes/outbound/schema.js';
import { createTenant, type Tenant, useHarness } from '../helpers/harness.js';
import { recordCall } from '../helpers/reports.js';
import { ROUTES } from '../helpers/routes.js';
import { expectSpecShape } from '../helpers/spec-shape.js';

const h = useHarness();
let t: Tenant;
beforeAll(async () => {
  t = await createTenant(h, { rateLimit: 1_000_000 });
});

/** Requests per endpoint: three endpoints make over 10,000. */
const RUNS = 3_400;

const FIELDS: Record<string, string[]> = {
  'POST /dni/session': Object.keys(DniSessionBody.properties),
  'POST /dni/campaigns/{campaign_code}/buyer-report': Object.keys(BuyerReportBody.properties),
  'POST /tracking/campaigns/{campaign_code}/outbound': Object.keys(OutboundBody.properties),
};

/** JSON text fragments Python's json module reads but nothing downstream can keep. */
const BAD_SCALAR = fc.constantFrom(
  'NaN',
  'Infinity',
  '-Infinity',
  '1e400',
  '-1e400',
  '1e-400',
  '123456789012345678901234567890',
  `1${'0'.repeat(4400)}`,
  '"\\u0000"',
  '"\\ud800"',
  '"\\udfff"',
  '"\\udbff\\u0041"',
  '"a\\u0000\\ud800"',
  '"\\ud83d\\ude00"',
  '[NaN]',
  '{"\\u0000":1}',
  '{"\\ud800":NaN}',
  '{"a":{"b":[Infinity,"\\udc00"]}}',
  `${'['.repeat(2000)}${']'.repeat(2000)}`,
);

/** A JSON string literal around a mix of normal text and bad code units. */
const BAD_STRING = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'binary', maxLength: 8 }),
      fc.constantFrom('\u0000', '\ud800', '\udfff', '\ufffe', '\u2028', '"', '\\'),
    ),
    { maxLength: 6 },
  )
  .map((parts) => JSON.stringify(parts.join('')));

const FRAGMENT = fc.oneof(
  { weight: 3, arbitrary: BAD_SCALAR },
  { weight: 3, arbitrary: BAD_STRING },
  { weight: 1, arbitrary: fc.json({ maxDepth: 2 }) },
  {
    weight: 1,
    arbitrary: fc
      .dictionary(BAD_STRING, BAD_SCALAR, { maxKeys: 3 })
      .map((d) => `{${Object.entries(d).map(([k, v]) => `${k}:${v}`)}}`),
  },
);

type Mutation = (text: string) => Buffer;

/** Whole-body damage: cut, spliced bytes, other encodings, a BOM. */
const BYTES: fc.Arbitrary<Mutation> = fc.oneof(
  fc.nat().map((n) => (s: string) => Buffer.from(s.slice(0, n % (s.length + 1)))),
  fc
    .tuple(fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 6 }))
    .map(([n, bytes]) => (s: string) => {
      const b = Buffer.from(s);
      const at = n % (b.length + 1);
      return Buffer.concat([b.subarray(0, at), Buffer.from(bytes), b.subarray(at)]);
    }),
  fc.constant((s: string) => Buffer.from(`\ufeff${s}`, 'utf16le')),
  fc.constant((s: string) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(s)])),
  fc.constant((s: string) => Buffer.from(s.replace(/"/, '"\u0000'))),
  fc.constant((_s: string) => Buffer.from([0xed, 0xa0, 0x80, 0xc3, 0x28])),
);

const CONTENT_TYPE = fc.constantFrom(
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/vnd.api+json',
);

/** A path campaign code: normal, long, or percent-encoded bytes that are not text. */
const PATH_CODE = fc.oneof(
  fc.constant('CODE'),
  fc.string({ maxLength: 5 }).map(encodeURIComponent),
  fc.constantFrom('%00', 'a%00b', '%ED%A0%80', '%C3%28', '%E0%A4%A', '%', 'x'.repeat(300)),
);

const REQUEST = fc.record({
  edits: fc.array(fc.tuple(fc.nat(), FRAGMENT), { minLength: 1, maxLength: 3 }),
  extraKey: fc.option(BAD_STRING, { freq: 4 }),
  bytes: fc.option(BYTES, { freq: 3 }),
  contentType: CONTENT_TYPE,
  code: PATH_CODE,
});

describe.each(ROUTES)('$name: malformed bodies', (route) => {
  it(`answers ${RUNS} generated bad requests in the spec's shape, never 5xx`, async () => {
    const fields = FIELDS[route.name] as string[];
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(REQUEST, async (r) => {
        const entries = Object.entries(route.body(t.code)).map(
          ([k, v]) => [JSON.stringify(k), JSON.stringify(v)] as [string, string],
        );
        for (const [n, fragment] of r.edits) {
          const key = JSON.stringify(fields[n % fields.length]);
          const at = entries.findIndex(([k]) => k === key);
          if (at >= 0) entries[at] = [key, fragment];
          else entries.push([key, fragment]);
        }
        if (r.extraKey !== null) entries.push([r.extraKey, '1']);
        const text = `{${entries.map(([k, v]) => `${k}:${v}`).join(',')}}`;
        const payload = r.bytes === null ? Buffer.from(text) : r.bytes(text);
        const code = r.code === 'CODE' ? t.code : r.code;
        const url = route.codeInPath ? route.url('@').replace('%40', code) : route.url(code);
        const res = await h.app.inject({
          method: 'POST',
          url,
          headers: { authorization: `Bearer ${t.key}`, 'content-type': r.contentType },
          payload,
        });
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        if (res.statusCode >= 500) throw new Error(`${res.statusCode}: ${res.body}`);
        expectSpecShape(res.statusCode, res.headers['content-type'], res.rawPayload);
      }),
      { numRuns: RUNS },
    );
    // The generator must mostly produce requests the service refuses, not successes.
    expect(statuses.get(422) ?? 0).toBeGreaterThan(RUNS / 2);

    // A correct request still does its work: a session, a stored report, a decided touch.
    const body = route.body(t.code);
    if ('call_id' in body) body.call_id = await recordCall(h, t);
    const ok = await h.app.inject({
      method: 'POST',
      url: route.url(t.code),
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    expect([200, 201]).toContain(ok.statusCode);
    expect(ok.statusCode === 201 || route.name.includes('outbound')).toBe(true);
  }, 120_000);
});
