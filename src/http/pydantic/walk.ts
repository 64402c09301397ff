/** Shared plumbing of the compiled validators: context, failure marker, error emission. */

import { type Issue, type Loc, MSG, type PydanticError } from './errors.js';
import type { PyValue } from './pyvalue.js';

/** A custom check: returns null when the (already coerced) value is fine, else the error text. */
export type Check = (value: unknown) => string | null;

export interface Ctx {
  errors: PydanticError[];
  path: Loc;
  prefix: readonly (string | number)[];
  checks: Record<string, Check> | undefined;
  /** Refuse what cannot be stored or sent back (see storable.ts). */
  storable: boolean;
}

export const FAIL = Symbol('fail');
export type Node = (v: PyValue, c: Ctx) => unknown;
export type Schema = Record<string, unknown>;

export function err(
  context: Ctx,
  type: string,
  msg: string,
  input: unknown,
  ctx?: Record<string, unknown>,
): typeof FAIL {
  const loc = context.prefix.length ? context.prefix.concat(context.path) : context.path.slice();
  context.errors.push(
    ctx === undefined ? { type, loc, msg, input } : { type, loc, msg, input, ctx },
  );
  return FAIL;
}

export const issue = (context: Ctx, e: Issue, input: unknown) =>
  err(context, e[0], e[1], input, e[2]);

export const simple = (context: Ctx, type: string, input: unknown) =>
  err(context, type, MSG[type] as string, input);

/** A schema the validator cannot reproduce Pydantic's answer for: thrown while compiling. */
export class UnsupportedSchema extends Error {
  override name = 'UnsupportedSchema';
  /** Where in the schema (a JSON pointer under the root's `$id`), once known. */
  where?: string;
}
