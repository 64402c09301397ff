/**
 * Validates a `PyValue` against a TypeBox (JSON Schema) object with pydantic v2 lax semantics for
 * Python input, as FastAPI does for request bodies (`TypeAdapter(...).validate_python(value,
 * from_attributes=True)`), producing pydantic's errors in pydantic's order.
 *
 * Schemas are compiled once into closures, cached per schema object in a WeakMap.
 *
 * Handled: object (`properties`/`required`/`additionalProperties`; without `properties`, a dict via
 * `patternProperties`/`additionalProperties`), string (minLength, maxLength, pattern), integer and
 * number (minimum, maximum, exclusive*, multipleOf), boolean, null, array (items, minItems,
 * maxItems), `const`/`enum`, `anyOf` of literals, of scalar types (smart union, `union.ts`) and/or
 * with null, `{}` (any), `default`, and the custom `x-check` keyword. Compiling throws for `allOf`,
 * `oneOf`, `not`, `$ref`, `if` and for unions of anything else. Other keywords
 * (`format`, `uniqueItems`, `minProperties`, record key patterns, ...) are ignored: express such
 * rules with `x-check`.
 */
import { listTooLong, listTooShort, type PydanticError } from './errors.js';
import { PyObject, type PyValue, setOwn } from './pyvalue.js';
import {
  boolNode,
  literalNode,
  noneNode,
  num,
  numberNode,
  type Primitive,
  stringNode,
} from './scalars.js';
import { anyNode, checkKey } from './storable.js';
import { scalarUnionNode } from './union.js';
import { type Ctx, err, FAIL, issue, type Node, type Schema, simple } from './walk.js';

export type { Loc, PydanticError } from './errors.js';

import type { Check } from './walk.js';

export type { Check };

export interface ValidateOptions {
  /** Implementations for the `'x-check'` schema keyword, by name. */
  checks?: Record<string, Check>;
  /**
   * Also refuse what Pydantic accepts but PostgreSQL cannot store or JSON cannot carry: NUL
   * characters, lone surrogates (in strings and dict keys) and non-finite numbers (storable.ts).
   */
  storable?: boolean;
}

export type ValidationResult =
  | { ok: true; value: unknown }
  | { ok: false; errors: PydanticError[] };

function listNode(s: Schema): Node {
  const item = s.items && typeof s.items === 'object' ? compile(s.items as Schema) : anyNode;
  const min = num(s, 'minItems');
  const max = num(s, 'maxItems');
  return (v, c) => {
    if (!Array.isArray(v)) return simple(c, 'list_type', v);
    const len = v.length;
    if (item === anyNode && min !== undefined && len < min)
      return issue(c, listTooShort(min, len), v);
    // pydantic-core stops at the first item past max_length and reports only too_long
    if (max !== undefined && len > max) return issue(c, listTooLong(max, len), v);
    const out: unknown[] = new Array(len);
    let ok = true;
    for (let i = 0; i < len; i++) {
      c.path.push(i);
      const r = item(v[i] as PyValue, c);
      c.path.pop();
      if (r === FAIL) ok = false;
      else out[i] = r;
    }
    if (!ok) return FAIL;
    if (min !== undefined && len < min) return issue(c, listTooShort(min, len), v);
    return out;
  };
}

function dictNode(valueNode: Node): Node {
  return (v, c) => {
    if (!(v instanceof PyObject)) return simple(c, 'dict_type', v);
    const out: Record<string, unknown> = {};
    let ok = true;
    for (const [k, x] of v.map) {
      if (c.storable && !checkKey(k, c)) {
        ok = false;
        continue;
      }
      c.path.push(k);
      const r = valueNode(x, c);
      c.path.pop();
      if (r === FAIL) ok = false;
      else setOwn(out, k, r);
    }
    return ok ? out : FAIL;
  };
}

interface Field {
  key: string;
  node: Node;
  required: boolean;
  hasDefault: boolean;
  dflt: unknown;
}

function cloneDefault(d: unknown): unknown {
  return d !== null && typeof d === 'object' ? structuredClone(d) : d;
}

/**
 * A pydantic model: `additionalProperties: false` is `extra='forbid'`, `true` or a schema is
 * `extra='allow'` (extras kept, validated against the schema), absent is `extra='ignore'` (dropped).
 */
function modelNode(s: Schema): Node {
  const props = s.properties as Record<string, Schema>;
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const fields: Field[] = Object.keys(props).map((key) => {
    const p = props[key] as Schema;
    return {
      key,
      node: compile(p),
      required: required.has(key),
      hasDefault: 'default' in p,
      dflt: p.default,
    };
  });
  const known = new Set(Object.keys(props));
  const ap = s.additionalProperties;
  const mode =
    ap === false
      ? 'forbid'
      : ap === true || (ap !== null && typeof ap === 'object')
        ? 'allow'
        : 'ignore';
  const extraNode = ap && typeof ap === 'object' ? compile(ap as Schema) : anyNode;
  return (v, c) => {
    if (!(v instanceof PyObject)) return simple(c, 'model_attributes_type', v);
    const map = v.map;
    const out: Record<string, unknown> = {};
    let ok = true;
    let seen = 0;
    for (const f of fields) {
      const x = map.get(f.key);
      c.path.push(f.key);
      if (x === undefined) {
        if (f.hasDefault) setOwn(out, f.key, cloneDefault(f.dflt));
        else if (f.required) {
          simple(c, 'missing', v);
          ok = false;
        }
      } else {
        seen++;
        const r = f.node(x, c);
        if (r === FAIL) ok = false;
        else setOwn(out, f.key, r);
      }
      c.path.pop();
    }
    if (mode !== 'ignore' && seen < map.size) {
      for (const [k, x] of map) {
        if (known.has(k)) continue;
        if (mode === 'allow' && c.storable && !checkKey(k, c)) {
          ok = false;
          continue;
        }
        c.path.push(k);
        const r = mode === 'forbid' ? simple(c, 'extra_forbidden', x) : extraNode(x, c);
        c.path.pop();
        if (r === FAIL) ok = false;
        else setOwn(out, k, r);
      }
    }
    return ok ? out : FAIL;
  };
}

function withCheck(inner: Node, name: string): Node {
  return (v, c) => {
    const r = inner(v, c);
    if (r === FAIL) return FAIL;
    const fn = c.checks?.[name];
    if (!fn) throw new Error(`no implementation for x-check '${name}'`);
    const text = fn(r);
    return text === null ? r : err(c, 'value_error', `Value error, ${text}`, v, { error: {} });
  };
}

function isNullSchema(s: Schema): boolean {
  return s.type === 'null' || ('const' in s && s.const === null);
}

/** The literal values of a `const` or a (nested) `anyOf` of consts; undefined if anything else. */
function literalValues(s: Schema): Primitive[] | undefined {
  if ('const' in s) return [s.const as Primitive];
  if (!Array.isArray(s.anyOf)) return undefined;
  const out: Primitive[] = [];
  for (const m of s.anyOf as Schema[]) {
    const vs = literalValues(m);
    if (!vs) return undefined;
    out.push(...vs);
  }
  return out;
}

/** `Literal[...]` when every member is a literal, else pydantic's smart union of scalar types. */
function unionNode(members: Schema[]): Node {
  const lits = literalValues({ anyOf: members });
  if (lits) return literalNode(lits, 'literal_error');
  const node = scalarUnionNode(members, compile);
  if (!node) throw new Error('unsupported union: only literals, scalar types and null are handled');
  return node;
}

const UNSUPPORTED = ['allOf', 'oneOf', 'not', '$ref', 'if', 'then', 'else'];

function compileBase(s: Schema): Node {
  for (const k of UNSUPPORTED) if (k in s) throw new Error(`unsupported schema keyword '${k}'`);
  if (Array.isArray(s.anyOf)) {
    const members = s.anyOf as Schema[];
    const others = members.filter((m) => !isNullSchema(m));
    if (others.length === 0) return noneNode;
    const inner = others.length === 1 ? compile(others[0] as Schema) : unionNode(others);
    if (others.length === members.length) return inner;
    return (v, c) => (v === null ? null : inner(v, c));
  }
  if ('const' in s) return literalNode([s.const as Primitive], 'literal_error');
  if (Array.isArray(s.enum)) return literalNode(s.enum as Primitive[], 'enum');
  let type = s.type;
  if (Array.isArray(type)) {
    const others = type.filter((t) => t !== 'null');
    if (others.length !== 1) throw new Error(`unsupported type list ${JSON.stringify(type)}`);
    const inner = compileBase({ ...s, type: others[0] });
    if (others.length === type.length) return inner;
    return (v, c) => (v === null ? null : inner(v, c));
  }
  if (type === undefined && ('properties' in s || 'patternProperties' in s)) type = 'object';
  switch (type) {
    case 'string':
      return stringNode(s);
    case 'integer':
      return numberNode(s, false);
    case 'number':
      return numberNode(s, true);
    case 'boolean':
      return boolNode;
    case 'null':
      return noneNode;
    case 'array':
      return listNode(s);
    case 'object': {
      if (s.properties && typeof s.properties === 'object') return modelNode(s);
      const pp = s.patternProperties as Record<string, Schema> | undefined;
      const valueSchema = pp ? Object.values(pp)[0] : s.additionalProperties;
      return dictNode(
        valueSchema && typeof valueSchema === 'object' ? compile(valueSchema as Schema) : anyNode,
      );
    }
    case undefined:
      return anyNode;
    default:
      throw new Error(`unsupported schema type '${String(type)}'`);
  }
}

const cache = new WeakMap<object, Node>();

function compile(s: Schema): Node {
  const hit = cache.get(s);
  if (hit) return hit;
  let real: Node | undefined;
  cache.set(s, (v, c) => (real as Node)(v, c)); // placeholder for cyclic schema objects
  let base: Node;
  try {
    base = compileBase(s);
  } catch (e) {
    cache.delete(s);
    throw e;
  }
  const check = s['x-check'];
  real = typeof check === 'string' ? withCheck(base, check) : base;
  cache.set(s, real);
  return real;
}

/**
 * Validates `value` against `schema`. Errors carry `loc` = `loc` prefix + path inside the value,
 * and come in pydantic's order (declared fields in schema order, then extra keys in input order).
 * On success, `value` is the coerced result as plain JS (see `toPlain` for numbers and dicts);
 * absent fields with a `default` get a copy of it.
 * Compiles the schema on first use (cached per schema object); throws for unsupported schemas.
 */
export function validate(
  schema: object,
  value: PyValue,
  loc: readonly (string | number)[] = [],
  options?: ValidateOptions,
): ValidationResult {
  const c: Ctx = {
    errors: [],
    path: [],
    prefix: loc,
    checks: options?.checks,
    storable: options?.storable === true,
  };
  const r = compile(schema as Schema)(value, c);
  return r === FAIL || c.errors.length ? { ok: false, errors: c.errors } : { ok: true, value: r };
}

/** Compiles ahead of time (so schema problems surface at startup); returns `validate` bound to it. */
export function compileValidator(
  schema: object,
): (
  value: PyValue,
  loc?: readonly (string | number)[],
  options?: ValidateOptions,
) => ValidationResult {
  compile(schema as Schema);
  return (value, loc = [], options) => validate(schema, value, loc, options);
}
