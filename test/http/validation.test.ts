import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Harness, type Tenant, useHarness } from '../helpers/harness.js';
import {
  at,
  detail422,
  e,
  extra,
  jsonInvalid,
  literal,
  missing,
  NOT_A_MODEL,
  STRING_TYPE,
  tooLong,
} from '../helpers/pydantic.js';
import { MISSING_CODE, ROUTES, rowCounts, type SendOptions, send } from '../helpers/routes.js';

// Whole-body rules shared by the three routes (fastapi-422-parity.md §4, §6,
// §7, §8, §9). Field tables per route are in validation-fields.test.ts.
const h: Harness = useHarness();
let t: Tenant;
beforeAll(async () => {
  // Every request here is authenticated; keep the session rate limit out of the way.
  t = await createTenant(h, { rateLimit: 1_000_000 });
});

const BODY_MISSING = detail422(missing(['body'], null));
const notModel = (input: unknown) =>
  detail422(e('model_attributes_type', ['body'], NOT_A_MODEL, input));

/** Malformed JSON and where CPython 3.11's json.loads stops (code points, not UTF-16 units). */
const MALFORMED: [string, number, string][] = [
  ['{some broken json}', 1, 'Expecting property name enclosed in double quotes'],
  ['{"a":1,}', 7, 'Expecting property name enclosed in double quotes'],
  ["{'a':1}", 1, 'Expecting property name enclosed in double quotes'],
  ['{"a" 1}', 5, "Expecting ':' delimiter"],
  ['{"a":1 "b":2}', 7, "Expecting ',' delimiter"],
  ['{"a":1', 6, "Expecting ',' delimiter"],
  ['{"a":01}', 6, "Expecting ',' delimiter"],
  ['{"a":tru}', 5, 'Expecting value'],
  ['[1,2,]', 5, 'Expecting value'],
  ['[', 1, 'Expecting value'],
  ['{"a":"x', 5, 'Unterminated string starting at'],
  ['{"a":1}x', 7, 'Extra data'],
  ['{"a":1} {"b":2}', 8, 'Extra data'],
  ['{"a":"\\q"}', 6, 'Invalid \\escape'],
  ['{"a":"\\u12"}', 7, 'Invalid \\uXXXX escape'],
  ['{"a":"\u0001"}', 6, 'Invalid control character at'],
  ['{"é":1,}', 7, 'Expecting property name enclosed in double quotes'],
  ['{"😀":1 x}', 7, "Expecting ',' delimiter"],
  ['{"ünïcödé":"\\q"}', 12, 'Invalid \\escape'],
  ['{"a":"😀😀","b" 1}', 14, "Expecting ':' delimiter"],
];

describe.each(ROUTES)('$name', (route) => {
  const post = (o: SendOptions) =>
    send(h.app, route, route.codeInPath ? t.code : MISSING_CODE, {
      authorization: `Bearer ${t.key}`,
      ...o,
    });
  const expect422 = async (o: SendOptions, body: string) => {
    const res = await post(o);
    expect([res.statusCode, res.body]).toEqual([422, body]);
    expect(res.headers['content-type']).toBe('application/json');
  };

  describe('whole body (§4)', () => {
    it('answers an empty body with missing at ["body"], with or without a Content-Type', async () => {
      await expect422({ payload: '' }, BODY_MISSING);
      await expect422({ payload: '', contentType: null }, BODY_MISSING);
      await expect422({ payload: '', contentType: 'text/plain' }, BODY_MISSING);
    });

    it('answers JSON null like a missing body', async () => {
      await expect422({ payload: 'null' }, BODY_MISSING);
      await expect422({ payload: ' null\n' }, BODY_MISSING);
    });

    it.each([
      ['an array', '[1,2]', [1, 2]],
      ['a string', '"abc"', 'abc'],
      ['an integer', '42', 42],
      ['a float', '1.5', 1.5],
      ['true', 'true', true],
      ['a non-ASCII string', '"héllo 😀"', 'héllo 😀'],
    ])('answers %s with model_attributes_type', async (_, payload, input) => {
      await expect422({ payload }, notModel(input));
    });

    it('answers {} with one missing per required field, in schema order, input {}', async () => {
      await expect422(
        { payload: '{}' },
        detail422(...route.required.map((f) => missing(['body', f], {}))),
      );
    });
  });

  describe('malformed JSON (§7)', () => {
    it.each(MALFORMED)('answers %s with json_invalid at position %i', async (payload, pos, msg) => {
      await expect422({ payload }, jsonInvalid(pos, msg));
    });

    it('answers a whitespace-only body with Expecting value at its end', async () => {
      await expect422({ payload: '   ' }, jsonInvalid(3, 'Expecting value'));
      await expect422({ payload: ' \n\t ' }, jsonInvalid(4, 'Expecting value'));
    });

    it('answers bytes that are not UTF-8 with 400', async () => {
      for (const payload of [
        Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]),
        Buffer.from([0xc3, 0x28]),
      ]) {
        const res = await post({ payload });
        expect([res.statusCode, res.body]).toEqual([
          400,
          '{"detail":"There was an error parsing the body"}',
        ]);
      }
    });
  });

  describe('content types (§8)', () => {
    const json = JSON.stringify(route.body(MISSING_CODE));

    it.each([
      ['text/plain', json],
      ['application/x-www-form-urlencoded', 'a=1&b=%C3%A9'],
      ['multipart/form-data; boundary=x', '--x\r\n\r\n--x--'],
      ['application/jsonx', json],
      ['application/geo+json-seq', json],
      ['json', json],
      ['application/json/x', json],
      ['application/json, text/plain', json],
    ])('validates a %s body as a raw string', async (contentType, payload) => {
      await expect422({ payload, contentType }, notModel(payload));
    });

    it('validates a body without Content-Type as a raw string', async () => {
      await expect422({ payload: json, contentType: null }, notModel(json));
    });

    it("says why in a header, the body staying FastAPI's (issue 18)", async () => {
      const none = await post({ payload: json, contentType: null });
      expect([none.statusCode, none.body]).toEqual([422, notModel(json)]);
      expect(none.headers['x-error-hint']).toBe(
        'the request has no Content-Type, so its body was read as text, not JSON: send Content-Type: application/json',
      );
      const text = await post({ payload: json, contentType: 'text/plain' });
      expect(text.headers['x-error-hint']).toBe(
        'Content-Type "text/plain" is not JSON, so the body was read as text: send Content-Type: application/json',
      );
      // A JSON body with field errors needs no such hint.
      const fields = await post({ payload: { zz: 1 } });
      expect(fields.statusCode).toBe(422);
      expect(fields.headers['x-error-hint']).toBeUndefined();
    });

    it.each([
      'application/json; charset=utf-8',
      'Application/JSON',
      'application/merge-patch+json',
      ' application/json ',
    ])('parses %s as JSON', async (contentType) => {
      const res = await send(h.app, route, MISSING_CODE, {
        authorization: `Bearer ${t.key}`,
        contentType,
      });
      expect([res.statusCode, res.body]).toEqual([404, '{"detail":"campaign_not_found"}']);
    });
  });

  describe('field errors (§5, §6)', () => {
    it('lists every failing field in schema order, then unknown keys in input order', async () => {
      const valid = route.body(MISSING_CODE);
      const [first, ...rest] = route.required;
      const body: Record<string, unknown> = { zz: 1 };
      for (const f of rest) body[f] = valid[f];
      body.aa = 'x';
      body[rest[0] as string] = 5;
      // The second required field gets a number: a string_type error, or a
      // literal_error where the field is a Literal (outbound channel).
      const wrong =
        rest[0] === 'channel'
          ? at(['body', 'channel'], literal('call', 'sms', 'voicemail'), 5)
          : at(['body', rest[0] as string], STRING_TYPE, 5);
      await expect422(
        { payload: body },
        detail422(
          missing(['body', first as string], body),
          wrong,
          extra('zz', 1),
          extra('aa', 'x'),
        ),
      );
    });

    it('keeps the first position of a duplicated unknown key and its last value', async () => {
      const valid = JSON.stringify(route.body(MISSING_CODE)).slice(1, -1);
      await expect422(
        { payload: `{"b":1,${valid},"a":2,"b":3}` },
        detail422(extra('b', 3), extra('a', 2)),
      );
    });

    it('treats __proto__ and constructor as ordinary unknown keys', async () => {
      const valid = JSON.stringify(route.body(MISSING_CODE)).slice(1, -1);
      await expect422(
        { payload: `{"__proto__":{"x":1},${valid},"constructor":null}` },
        detail422(extra('__proto__', { x: 1 }), extra('constructor', null)),
      );
    });
  });

  it('writes nothing for a rejected request', async () => {
    const before = await rowCounts(h.store);
    const valid = route.body(t.code);
    const rejected: SendOptions[] = [
      { payload: '' },
      { payload: '{"broken' },
      { payload: { ...valid, zz: 1 } },
      { payload: { ...valid, [route.required[0] as string]: null } },
      { payload: JSON.stringify(valid), contentType: 'text/plain' },
    ];
    for (const o of rejected) {
      const res = await send(h.app, route, t.code, { authorization: `Bearer ${t.key}`, ...o });
      expect(res.statusCode).toBe(422);
    }
    expect(await rowCounts(h.store)).toEqual(before);
  });
});

describe.each(ROUTES.filter((r) => r.codeInPath))('$name path (§9)', (route) => {
  it('lists a campaign_code over 3 characters before body errors', async () => {
    const res = await send(h.app, route, 'abcd', {
      authorization: `Bearer ${t.key}`,
      payload: { zz: 1 },
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).toBe(
      detail422(
        at(['path', 'campaign_code'], tooLong(3), 'abcd'),
        ...route.required.map((f) => missing(['body', f], { zz: 1 })),
        extra('zz', 1),
      ),
    );
  });

  it('counts path lengths in code points', async () => {
    const ok = await send(h.app, route, '😀é😀', { authorization: `Bearer ${t.key}` });
    expect([ok.statusCode, ok.body]).toEqual([404, '{"detail":"campaign_not_found"}']);
    const long = await send(h.app, route, '😀😀😀😀', { authorization: `Bearer ${t.key}` });
    expect(long.body).toBe(detail422(at(['path', 'campaign_code'], tooLong(3), '😀😀😀😀')));
  });
});
