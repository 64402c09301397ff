import { describe, expect, it } from 'vitest';
import { decodeBody, isJsonContentType } from '../../../src/http/pydantic/body.js';
import { dumpsPy, PyJsonEncodeError } from '../../../src/http/pydantic/pyjson.js';

const JSON_CT = 'application/json';
const b = (s: string) => Buffer.from(s, 'utf8');

describe('decodeBody: whole-body cases (doc §4)', () => {
  it('empty body is missing, whatever the content type', () => {
    expect(decodeBody(JSON_CT, Buffer.alloc(0))).toEqual({ kind: 'missing' });
    expect(decodeBody('text/plain', Buffer.alloc(0))).toEqual({ kind: 'missing' });
    expect(decodeBody(undefined, undefined)).toEqual({ kind: 'missing' });
  });

  it('JSON null is missing', () => {
    expect(decodeBody(JSON_CT, b('null'))).toEqual({ kind: 'missing' });
    expect(decodeBody(JSON_CT, b(' null\n'))).toEqual({ kind: 'missing' });
  });

  it('non-object JSON is a value (validation then says model_attributes_type)', () => {
    const arr = decodeBody(JSON_CT, b('[1,2]'));
    expect(arr.kind).toBe('value');
    expect(arr.kind === 'value' && dumpsPy(arr.value)).toBe('[1,2]');
    expect(decodeBody(JSON_CT, b('"abc"'))).toEqual({ kind: 'value', value: 'abc' });
    expect(decodeBody(JSON_CT, b('true'))).toEqual({ kind: 'value', value: true });
  });

  it('malformed JSON is json_invalid with the Python message and code-point position', () => {
    expect(decodeBody(JSON_CT, b('{some broken json}'))).toEqual({
      kind: 'json_invalid',
      pos: 1,
      msg: 'Expecting property name enclosed in double quotes',
    });
    expect(decodeBody(JSON_CT, b('   '))).toEqual({
      kind: 'json_invalid',
      pos: 3,
      msg: 'Expecting value',
    });
    // 8 bytes, 7 code points: pos is 7, not 8
    expect(decodeBody(JSON_CT, b('{"é":1,}'))).toEqual({
      kind: 'json_invalid',
      pos: 7,
      msg: 'Expecting property name enclosed in double quotes',
    });
  });

  it('invalid UTF-8 with a JSON content type is undecodable (400)', () => {
    expect(decodeBody(JSON_CT, Buffer.from([0x22, 0xc0, 0x80, 0x22]))).toEqual({
      kind: 'undecodable',
    });
    expect(decodeBody(JSON_CT, Buffer.from([0x22, 0xff, 0x22]))).toEqual({ kind: 'undecodable' });
  });

  it('over-long ints and over-deep nesting are undecodable (Python raises non-JSON errors)', () => {
    expect(decodeBody(JSON_CT, b(`{"a":${'9'.repeat(4301)}}`))).toEqual({ kind: 'undecodable' });
    expect(decodeBody(JSON_CT, b('['.repeat(5000)))).toEqual({ kind: 'undecodable' });
  });

  it('a non-JSON content type keeps the raw text', () => {
    const body = '{"name": "Foo", "price": 50.5}';
    expect(decodeBody('text/plain', b(body))).toEqual({ kind: 'raw', value: body });
    expect(decodeBody('application/x-www-form-urlencoded', b('name=Foo&price=50.5'))).toEqual({
      kind: 'raw',
      value: 'name=Foo&price=50.5',
    });
  });

  it('no Content-Type (or an empty one) with a body is raw (FastAPI >= 0.132)', () => {
    expect(decodeBody(undefined, b('{"a":1}'))).toEqual({ kind: 'raw', value: '{"a":1}' });
    expect(decodeBody('', b('{"a":1}'))).toEqual({ kind: 'raw', value: '{"a":1}' });
  });

  it('raw bodies that are not UTF-8 cannot be rendered (FastAPI answers 500)', () => {
    const r = decodeBody('text/plain', Buffer.from([0x61, 0xff, 0x62]));
    expect(r.kind).toBe('raw');
    expect(() => dumpsPy(r.kind === 'raw' ? r.value : null)).toThrow(PyJsonEncodeError);
  });
});

describe('isJsonContentType (doc §8)', () => {
  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON',
    '  application/json  ;x=1',
    'application/merge-patch+json',
    'application/geo+json',
    'application/vnd.api+JSON; charset=utf-8',
  ])('%j is JSON', (ct) => {
    expect(isJsonContentType(ct)).toBe(true);
  });

  it.each([
    'text/plain',
    'text/json',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/geo+json-seq',
    'application/not-really-json',
    'json',
    'application/json/x',
    'application/ json',
    'application /json',
    '',
  ])('%j is not JSON', (ct) => {
    expect(isJsonContentType(ct)).toBe(false);
  });
});

describe('byte decoding like json.loads(bytes)', () => {
  const obj = (s: string) => decodeBody(JSON_CT, Buffer.from(s, 'utf16le'));

  it('strips one UTF-8 BOM (utf-8-sig), positions count after it', () => {
    const bom = [0xef, 0xbb, 0xbf];
    const r = decodeBody(JSON_CT, Buffer.from([...bom, ...b('{"a":1}')]));
    expect(r.kind === 'value' && dumpsPy(r.value)).toBe('{"a":1}');
    expect(decodeBody(JSON_CT, Buffer.from([...bom, ...b('[1,]')]))).toEqual({
      kind: 'json_invalid',
      pos: 3,
      msg: 'Expecting value',
    });
    expect(decodeBody(JSON_CT, Buffer.from([...bom, ...bom, ...b('1')]))).toEqual({
      kind: 'json_invalid',
      pos: 0,
      msg: 'Expecting value',
    });
  });

  it('detects UTF-16 and UTF-32 by BOM and by NUL pattern', () => {
    expect(obj('\ufeff{"a":"é"}')).toMatchObject({ kind: 'value' });
    const le = obj('{"a":"é"}');
    expect(le.kind === 'value' && dumpsPy(le.value)).toBe('{"a":"é"}');
    const be = decodeBody(JSON_CT, Buffer.from([0x00, 0x31, 0x00, 0x32]));
    expect(be.kind === 'value' && dumpsPy(be.value)).toBe('12');
    const u32 = decodeBody(JSON_CT, Buffer.from([0x31, 0, 0, 0]));
    expect(u32.kind === 'value' && dumpsPy(u32.value)).toBe('1');
    const u32bom = decodeBody(JSON_CT, Buffer.from([0xff, 0xfe, 0, 0, 0x31, 0, 0, 0]));
    expect(u32bom.kind === 'value' && dumpsPy(u32bom.value)).toBe('1');
    expect(decodeBody(JSON_CT, Buffer.from([0xff, 0xfe, 0x31]))).toEqual({ kind: 'undecodable' });
  });

  it('accepts UTF-8-encoded surrogates like surrogatepass (then rendering fails)', () => {
    const r = decodeBody(JSON_CT, Buffer.from([0x22, 0xed, 0xa0, 0x80, 0x22]));
    expect(r).toEqual({ kind: 'value', value: '\ud800' });
  });
});
