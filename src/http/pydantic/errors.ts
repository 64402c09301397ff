/** pydantic-core error shapes and message templates (`src/errors/types.rs`, Python input). */
import type { PydanticError } from '../../errors.js';
import { PyFloat, pyRepr, rustDisplayF64 } from './pyvalue.js';

export type { PydanticError };
export type Loc = PydanticError['loc'];

export const MSG: Record<string, string> = {
  missing: 'Field required',
  extra_forbidden: 'Extra inputs are not permitted',
  string_type: 'Input should be a valid string',
  string_unicode: 'Input should be a valid string, unable to parse raw data as a unicode string',
  int_type: 'Input should be a valid integer',
  int_parsing: 'Input should be a valid integer, unable to parse string as an integer',
  int_from_float: 'Input should be a valid integer, got a number with a fractional part',
  int_parsing_size: 'Unable to parse input string as an integer, exceeded maximum size',
  finite_number: 'Input should be a finite number',
  float_type: 'Input should be a valid number',
  float_parsing: 'Input should be a valid number, unable to parse string as a number',
  bool_type: 'Input should be a valid boolean',
  bool_parsing: 'Input should be a valid boolean, unable to interpret input',
  none_required: 'Input should be None',
  dict_type: 'Input should be a valid dictionary',
  list_type: 'Input should be a valid list',
  model_attributes_type: 'Input should be a valid dictionary or object to extract fields from',
  json_invalid: 'JSON decode error',
};

/** `[type, msg, ctx]` of one error, before its loc and input are known. */
export type Issue = [type: string, msg: string, ctx: Record<string, unknown>];

function plural(n: number): string {
  return n === 1 ? '' : 's';
}

export function stringTooShort(min: number): Issue {
  return [
    'string_too_short',
    `String should have at least ${min} character${plural(min)}`,
    { min_length: min },
  ];
}

export function stringTooLong(max: number): Issue {
  return [
    'string_too_long',
    `String should have at most ${max} character${plural(max)}`,
    { max_length: max },
  ];
}

export function patternMismatch(regex: string): Issue {
  return ['string_pattern_mismatch', `String should match pattern '${regex}'`, { pattern: regex }];
}

export function listTooShort(min: number, len: number): Issue {
  return [
    'too_short',
    `List should have at least ${min} item${plural(min)} after validation, not ${len}`,
    { field_type: 'List', min_length: min, actual_length: len },
  ];
}

export function listTooLong(max: number, len: number): Issue {
  return [
    'too_long',
    `List should have at most ${max} item${plural(max)} after validation, not ${len}`,
    { field_type: 'List', max_length: max, actual_length: len },
  ];
}

/** `"a, b or c"` from already-repr'd items (`literal.rs::expected_repr_name`). */
export function joinExpected(values: readonly unknown[]): string {
  const reprs = values.map(pyRepr);
  const last = reprs.pop() as string;
  return reprs.length ? `${reprs.join(', ')} or ${last}` : last;
}

export type Bound = 'le' | 'lt' | 'ge' | 'gt';

const BOUND_TYPE: Record<Bound, string> = {
  le: 'less_than_equal',
  lt: 'less_than',
  ge: 'greater_than_equal',
  gt: 'greater_than',
};

const BOUND_TEXT: Record<Bound, string> = {
  le: 'less than or equal to',
  lt: 'less than',
  ge: 'greater than or equal to',
  gt: 'greater than',
};

/**
 * A numeric-constraint error. `asFloat` is true for `float` fields: pydantic-core stores the limit as
 * an f64, so ctx carries a float (`1.0`) while msg uses Rust `Display` (`1`).
 */
export function boundError(bound: Bound, limit: number, asFloat: boolean): Issue {
  const shown =
    asFloat || !Number.isInteger(limit) ? rustDisplayF64(limit) : BigInt(limit).toString();
  const ctxVal = asFloat || !Number.isInteger(limit) ? new PyFloat(limit) : limit;
  return [BOUND_TYPE[bound], `Input should be ${BOUND_TEXT[bound]} ${shown}`, { [bound]: ctxVal }];
}
