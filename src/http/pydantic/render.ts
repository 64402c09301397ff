/** FastAPI's 422 body and the two errors FastAPI builds by hand. */
import type { PydanticError } from './errors.js';
import { dumpsPy } from './pyjson.js';
import { dumpsSafe } from './safe-json.js';

/**
 * The exact bytes of FastAPI's 422 body, `{"detail":[...]}` (send with
 * `content-type: application/json`, no charset). Throws `PyJsonEncodeError` when an echoed input
 * holds NaN/Infinity or a lone surrogate: FastAPI answers 500 `Internal Server Error` then.
 */
export function render422(errors: readonly PydanticError[]): string {
  return dumpsPy({ detail: errors });
}

/** The fixed body of last resort: a 422 is never empty or invalid JSON. */
const LAST_RESORT_422 =
  '{"detail":[{"type":"value_error","loc":["body"],"msg":"Value error, the request cannot be shown","input":null,"ctx":{"error":{}}}]}';

/**
 * `render422`, except that an input JSON cannot carry (NaN, infinities, lone surrogates) is
 * written as a stand-in (safe-json.ts) where FastAPI would answer 500: the service answers 422.
 */
export function render422Safe(errors: readonly PydanticError[]): string {
  return dumpsSafe({ detail: errors }, LAST_RESORT_422);
}

/** `json_invalid` as `fastapi/routing.py` builds it for a `JSONDecodeError`. */
export function jsonInvalidError(pos: number, msg: string): PydanticError {
  return {
    type: 'json_invalid',
    loc: ['body', pos],
    msg: 'JSON decode error',
    input: {},
    ctx: { error: msg },
  };
}

/** `get_missing_field_error(loc)`: a missing body or parameter (`input` is always null). */
export function missingError(loc: (string | number)[]): PydanticError {
  return { type: 'missing', loc, msg: 'Field required', input: null };
}
