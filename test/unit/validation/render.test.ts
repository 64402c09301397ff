import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import {
  decodeBody,
  jsonInvalidError,
  missingError,
  PyJsonEncodeError,
  render422,
  validate,
} from '../../../src/http/pydantic/index.js';

const Item = Type.Object(
  { name: Type.String({ minLength: 1 }), price: Type.Number() },
  { additionalProperties: false },
);

/** What a FastAPI route with body param `item: Item` answers: [status, body]. */
function respond(contentType: string | undefined, body: string | Buffer): [number, string] {
  const d = decodeBody(contentType, typeof body === 'string' ? Buffer.from(body) : body);
  try {
    switch (d.kind) {
      case 'missing':
        return [422, render422([missingError(['body'])])];
      case 'json_invalid':
        return [422, render422([jsonInvalidError(d.pos, d.msg)])];
      case 'undecodable':
        return [400, '{"detail":"There was an error parsing the body"}'];
      default: {
        const r = validate(Item, d.value, ['body']);
        return r.ok ? [200, JSON.stringify(r.value)] : [422, render422(r.errors)];
      }
    }
  } catch (e) {
    if (e instanceof PyJsonEncodeError) return [500, 'Internal Server Error'];
    throw e;
  }
}

const JSON_CT = 'application/json';
const MAT = '"msg":"Input should be a valid dictionary or object to extract fields from"';

describe('render422 + body decoding: doc §1 golden bytes and §4 rows', () => {
  it('empty body and JSON null: missing at ["body"] with input null', () => {
    const golden =
      '{"detail":[{"type":"missing","loc":["body"],"msg":"Field required","input":null}]}';
    expect(respond(JSON_CT, '')).toEqual([422, golden]);
    expect(respond(undefined, '')).toEqual([422, golden]);
    expect(respond('text/plain', '')).toEqual([422, golden]);
    expect(respond(JSON_CT, 'null')).toEqual([422, golden]);
  });

  it('malformed JSON: json_invalid at ["body", pos] with input {} and ctx.error', () => {
    expect(respond(JSON_CT, '{some broken json}')).toEqual([
      422,
      '{"detail":[{"type":"json_invalid","loc":["body",1],"msg":"JSON decode error","input":{},"ctx":{"error":"Expecting property name enclosed in double quotes"}}]}',
    ]);
    expect(respond(JSON_CT, '   ')).toEqual([
      422,
      '{"detail":[{"type":"json_invalid","loc":["body",3],"msg":"JSON decode error","input":{},"ctx":{"error":"Expecting value"}}]}',
    ]);
    expect(respond('application/json; charset=utf-8', '{"a":"\\q"}')).toEqual([
      422,
      '{"detail":[{"type":"json_invalid","loc":["body",6],"msg":"JSON decode error","input":{},"ctx":{"error":"Invalid \\\\escape"}}]}',
    ]);
  });

  it('non-dict JSON: model_attributes_type at ["body"]', () => {
    for (const body of ['[1,2]', '"abc"', '42', 'true']) {
      expect(respond(JSON_CT, body)).toEqual([
        422,
        `{"detail":[{"type":"model_attributes_type","loc":["body"],${MAT},"input":${body}}]}`,
      ]);
    }
  });

  it('{}: one missing per required field', () => {
    expect(respond(JSON_CT, '{}')).toEqual([
      422,
      '{"detail":[{"type":"missing","loc":["body","name"],"msg":"Field required","input":{}},{"type":"missing","loc":["body","price"],"msg":"Field required","input":{}}]}',
    ]);
  });

  it('invalid UTF-8 with a JSON content type: 400', () => {
    expect(respond(JSON_CT, Buffer.from([0x7b, 0xff, 0x7d]))).toEqual([
      400,
      '{"detail":"There was an error parsing the body"}',
    ]);
  });

  it('text/plain, form and missing Content-Type: the raw body echoed as a string', () => {
    expect(respond('text/plain', '{"name": "Foo", "price": 50.5}')).toEqual([
      422,
      `{"detail":[{"type":"model_attributes_type","loc":["body"],${MAT},"input":"{\\"name\\": \\"Foo\\", \\"price\\": 50.5}"}]}`,
    ]);
    expect(respond('application/x-www-form-urlencoded', 'name=Foo&price=50.5')).toEqual([
      422,
      `{"detail":[{"type":"model_attributes_type","loc":["body"],${MAT},"input":"name=Foo&price=50.5"}]}`,
    ]);
    expect(respond(undefined, '{"name":"Foo","price":50.5}')[0]).toBe(422);
    expect(respond('application/geo+json-seq', '{"name":"Foo","price":50.5}')[0]).toBe(422);
    expect(respond('text/plain', Buffer.from([0x61, 0xff]))).toEqual([
      500,
      'Internal Server Error',
    ]);
  });

  it('JSON content types, suffix +json included, are parsed and validated', () => {
    expect(respond('application/merge-patch+json', '{"name":"Foo","price":"50.5"}')).toEqual([
      200,
      '{"name":"Foo","price":50.5}',
    ]);
  });

  it('echoing NaN/Infinity or a lone surrogate is a 500, like allow_nan=False / utf-8 encode', () => {
    expect(respond(JSON_CT, '{"price":NaN}')).toEqual([500, 'Internal Server Error']);
    expect(respond(JSON_CT, '{"name":"a","price":1,"x":"\\ud800"}')).toEqual([
      500,
      'Internal Server Error',
    ]);
    // NaN is a valid float that is not echoed: 200
    expect(respond(JSON_CT, '{"name":"a","price":NaN}')[0]).toBe(200);
  });

  it('missingError and jsonInvalidError keep pydantic key order', () => {
    expect(Object.keys(jsonInvalidError(1, 'x'))).toEqual(['type', 'loc', 'msg', 'input', 'ctx']);
    expect(render422([missingError(['query', 'q'])])).toBe(
      '{"detail":[{"type":"missing","loc":["query","q"],"msg":"Field required","input":null}]}',
    );
  });
});
