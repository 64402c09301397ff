/**
 * Expected FastAPI 422 bodies, written out independently of the service's own
 * renderer: compact JSON, keys in pydantic's order (type, loc, msg, input, ctx).
 * Inputs must not hold integral floats or integer-like object keys, which
 * JSON.stringify would write differently from Python.
 */
export interface Expected {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

export const e = (
  type: string,
  loc: (string | number)[],
  msg: string,
  input: unknown,
  ctx?: Record<string, unknown>,
): Expected => (ctx === undefined ? { type, loc, msg, input } : { type, loc, msg, input, ctx });

/** An error kind without its place: type, msg and ctx when it has one. */
export type Issue = [type: string, msg: string, ctx?: Record<string, unknown>];

export const at = (loc: (string | number)[], [type, msg, ctx]: Issue, input: unknown): Expected =>
  e(type, loc, msg, input, ctx);

export const detail422 = (...errors: Expected[]): string => JSON.stringify({ detail: errors });

export const missing = (loc: (string | number)[], input: unknown) =>
  e('missing', loc, 'Field required', input);

export const extra = (key: string, input: unknown) =>
  e('extra_forbidden', ['body', key], 'Extra inputs are not permitted', input);

export const NOT_A_MODEL = 'Input should be a valid dictionary or object to extract fields from';

export const jsonInvalid = (pos: number, error: string) =>
  detail422(e('json_invalid', ['body', pos], 'JSON decode error', {}, { error }));

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export const tooShort = (n: number): Issue => [
  'string_too_short',
  `String should have at least ${plural(n, 'character')}`,
  { min_length: n },
];

export const tooLong = (n: number): Issue => [
  'string_too_long',
  `String should have at most ${plural(n, 'character')}`,
  { max_length: n },
];

export const STRING_TYPE: Issue = ['string_type', 'Input should be a valid string'];

/** `Literal['a','b',…]`: pydantic joins the reprs as "'a', 'b' or 'c'". */
export function literal(...values: string[]): Issue {
  const reprs = values.map((v) => `'${v}'`);
  const expected =
    reprs.length === 1 ? reprs[0] : `${reprs.slice(0, -1).join(', ')} or ${reprs.at(-1)}`;
  return ['literal_error', `Input should be ${expected}`, { expected }];
}

export const valueError = (text: string): Issue => [
  'value_error',
  `Value error, ${text}`,
  { error: {} },
];
