import Type from 'typebox';
import { expect } from 'vitest';
import { dumpsPy, type PyValue, parsePyJson } from '../../../src/http/pydantic/pyjson.js';
import { type ValidateOptions, validate } from '../../../src/http/pydantic/validate.js';

export function parse(text: string): PyValue {
  const r = parsePyJson(text);
  if (!r.ok) throw new Error(`bad test JSON ${text}`);
  return r.value;
}

/** Validates a JSON text at loc ["body"]; returns the 422 bytes, or `{ ok: value }`. */
export function run(schema: object, text: string, options?: ValidateOptions): unknown {
  const r = validate(schema, parse(text), ['body'], options);
  return r.ok ? { ok: r.value } : dumpsPy({ detail: r.errors });
}

export type FieldResult = { ok: unknown } | [type: string, msg: string, input: string];

/**
 * Validates `{"f": json}` against `{f: schema}`: the coerced value as `{ ok }`, or the single
 * error (asserted to be at ["body","f"]) as `[type, msg, input rendered by dumpsPy]`.
 */
export function field(schema: object, json: string): FieldResult {
  const r = validate(Type.Object({ f: schema as never }), parse(`{"f":${json}}`), ['body']);
  if (r.ok) return { ok: (r.value as { f: unknown }).f };
  expect(r.errors).toHaveLength(1);
  const e = r.errors[0]!;
  expect(e.loc).toEqual(['body', 'f']);
  return [e.type, e.msg, dumpsPy(e.input)];
}

/** The error type of `field(...)`, or 'ok'. */
export function errType(schema: object, json: string): string {
  const r = field(schema, json);
  return Array.isArray(r) ? r[0] : 'ok';
}

/** The error message of `field(...)`, or 'ok'. */
export function errMsg(schema: object, json: string): string {
  const r = field(schema, json);
  return Array.isArray(r) ? r[1] : 'ok';
}
