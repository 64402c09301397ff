/** Validators for scalar schemas: string, integer, number, boolean, null, literals and enums. */
import { codePointLength, laxBool, laxFloat, laxInt } from './coerce.js';
import {
  type Bound,
  boundError,
  type Issue,
  joinExpected,
  patternMismatch,
  stringTooLong,
  stringTooShort,
} from './errors.js';
import { compilePattern } from './pattern.js';
import { PyFloat, PyInt } from './pyvalue.js';
import { checkText } from './storable.js';
import { err, issue, type Node, type Schema, simple, UnsupportedSchema } from './walk.js';

export function num(schema: Schema, k: string): number | undefined {
  const v = schema[k];
  return typeof v === 'number' ? v : undefined;
}

/** JSON Schema numeric keywords to pydantic's (le, lt, ge, gt), in pydantic's order. */
function bounds(s: Schema): [Bound, number][] {
  const out: [Bound, number][] = [];
  for (const [b, k] of BOUND_KEYWORDS) {
    const v = num(s, k);
    if (v !== undefined) out.push([b, v]);
  }
  return out;
}

const BOUND_KEYWORDS: [Bound, string][] = [
  ['le', 'maximum'],
  ['lt', 'exclusiveMaximum'],
  ['ge', 'minimum'],
  ['gt', 'exclusiveMinimum'],
];

// negated so that NaN violates every bound, as pydantic-core's `partial_cmp` checks do
function violates(b: Bound, x: number | bigint, limit: number): boolean {
  switch (b) {
    case 'le':
      return !(x <= limit);
    case 'lt':
      return !(x < limit);
    case 'ge':
      return !(x >= limit);
    case 'gt':
      return !(x > limit);
  }
}

export function numberNode(schema: Schema, isFloat: boolean): Node {
  const bs = bounds(schema);
  if (!isFloat) {
    for (const [, v] of bs) {
      if (!Number.isInteger(v))
        throw new UnsupportedSchema(`integer schema bound ${v} must be an integer`);
    }
  }
  return (v, c) => {
    const r = isFloat ? laxFloat(v) : laxInt(v);
    if (typeof r === 'string') return simple(c, r, v);
    // Pydantic's `allow_inf_nan=False`: PostgreSQL numbers and JSON have no NaN or infinities
    if (c.storable && typeof r === 'number' && !Number.isFinite(r))
      return simple(c, 'finite_number', v);
    for (const [b, limit] of bs) {
      if (violates(b, r, limit)) {
        return issue(c, boundError(b, limit, isFloat), v);
      }
    }
    return typeof r === 'bigint' ? Number(r) : r;
  };
}

export function stringNode(schema: Schema): Node {
  const min = num(schema, 'minLength');
  const max = num(schema, 'maxLength');
  const pattern = typeof schema.pattern === 'string' ? schema.pattern : undefined;
  const re = pattern === undefined ? undefined : compilePattern(pattern);
  if (min === undefined && max === undefined && re === undefined) {
    return (v, c) =>
      typeof v !== 'string' ? simple(c, 'string_type', v) : c.storable ? checkText(v, c) : v;
  }
  return (v, c) => {
    if (typeof v !== 'string') return simple(c, 'string_type', v);
    const n = codePointLength(v);
    if (n < 0) return simple(c, 'string_unicode', v);
    let e: Issue | undefined;
    if (min !== undefined && n < min) e = stringTooShort(min);
    else if (max !== undefined && n > max) e = stringTooLong(max);
    else if (re !== undefined && !re.test(v)) e = patternMismatch(pattern as string);
    if (e !== undefined) return issue(c, e, v);
    return c.storable ? checkText(v, c) : v;
  };
}

export const boolNode: Node = (value, c) => {
  const r = laxBool(value);
  return typeof r === 'string' ? simple(c, r, value) : r;
};

export const noneNode: Node = (value, c) =>
  value === null ? null : simple(c, 'none_required', value);

export type Primitive = string | number | boolean | null;

function numEq(a: number | bigint, b: number | bigint): boolean {
  if (typeof a === typeof b) return a === b;
  const [big, n] = typeof a === 'bigint' ? [a, b as number] : [b as bigint, a as number];
  return Number.isInteger(n) && BigInt(n) === big;
}

/** Numeric value Python's `==`/hash would use for bool, int and float. */
function numeric(v: unknown): number | bigint | undefined {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number') return v;
  if (v instanceof PyInt) return v.value;
  if (v instanceof PyFloat) return v.value;
  return undefined;
}

/**
 * `Literal[...]` (type `literal_error`) or an `Enum` (type `enum`), via pydantic-core's
 * `LiteralLookup`: exact bool, exact int, exact str, then Python equality on primitives (so `1.0`
 * and `True` match `1`). Returns the matching literal value.
 */
export function literalNode(values: Primitive[], type: 'literal_error' | 'enum'): Node {
  const expected = joinExpected(values);
  const msg = `Input should be ${expected}`;
  const ctx = { expected };
  const strs = new Set(values.filter((x) => typeof x === 'string'));
  const hasNull = values.includes(null);
  const nums = values.filter(
    (x): x is number | boolean => typeof x === 'number' || typeof x === 'boolean',
  );
  return (v, c) => {
    if (typeof v === 'string') return strs.has(v) ? v : err(c, type, msg, v, ctx);
    if (v === null) return hasNull ? null : err(c, type, msg, v, ctx);
    if (typeof v === 'boolean' && nums.includes(v)) return v;
    if (v instanceof PyInt) {
      const hit = nums.find((x) => typeof x === 'number' && numEq(x, v.value));
      if (hit !== undefined) return hit;
    }
    const n = numeric(v);
    if (n !== undefined) {
      // Python dict lookup by equality; a later equal key overwrites the id, so the last one wins
      for (let i = nums.length - 1; i >= 0; i--) {
        const x = nums[i] as number | boolean;
        if (numEq(numeric(x) as number, n)) return x;
      }
    }
    return err(c, type, msg, v, ctx);
  };
}
