/**
 * Validates a `PyValue` against a TypeBox (JSON Schema) object with pydantic v2 lax semantics for
 * Python input, as FastAPI does for request bodies (`TypeAdapter(...).validate_python(value,
 * from_attributes=True)`), producing pydantic's errors in pydantic's order.
 *
 * Schemas are compiled once into closures, cached per schema object in a WeakMap.
 *
 * Handled, and nothing more (`KEYWORDS`): object (`properties`/`required`/`additionalProperties`;
 * without `properties`, a dict via TypeBox's `patternProperties` `^.*$` or `additionalProperties`),
 * string (minLength, maxLength, pattern: the subset in pattern.ts), integer and number (minimum,
 * maximum, exclusiveMinimum, exclusiveMaximum), boolean, null, array (items, minItems, maxItems),
 * `const`/`enum`, `anyOf` of literals or of `str | float | bool` (union.ts), either with null,
 * `{}` (any), the annotations (`default` applied), and the custom `x-check` keyword. Compiling
 * throws `UnsupportedSchema`, naming the place in the schema, for anything else (`format`,
 * `multipleOf`, `allOf`, `$ref`, other unions...): express such rules with `x-check`.
 */
import type { Static, TSchema } from 'typebox';
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
import { anyNode, checkKey, dictValues } from './storable.js';
import { scalarUnionNode } from './union.js';
import {
  type Check,
  type Ctx,
  err,
  FAIL,
  issue,
  type Node,
  type Schema,
  simple,
  UnsupportedSchema,
} from './walk.js';

export type { Loc, PydanticError } from './errors.js';
export type { Check };
export { UnsupportedSchema };

export interface ValidateOptions {
  /** Implementations for the `'x-check'` schema keyword, by name. */
  checks?: Record<string, Check>;
  /**
   * Also refuse what Pydantic accepts but PostgreSQL cannot store or JSON cannot carry: NUL
   * characters, lone surrogates (in strings and dict keys) and non-finite numbers (storable.ts).
   */
  storable?: boolean;
}

export type ValidationResult<T = unknown> =
  | { ok: true; value: T }
  | { ok: false; errors: PydanticError[] };

function listNode(s: Schema, sub: Sub): Node {
  const item = s.items && typeof s.items === 'object' ? sub(s.items as Schema, 'items') : anyNode;
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
    return dictValues(v.map, valueNode, c, out) ? out : FAIL;
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
function modelNode(s: Schema, sub: Sub): Node {
  const props = s.properties as Record<string, Schema>;
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const fields: Field[] = Object.keys(props).map((key) => {
    const p = props[key] as Schema;
    return {
      key,
      node: sub(p, `properties/${key}`),
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
  const extraNode =
    ap && typeof ap === 'object' ? sub(ap as Schema, 'additionalProperties') : anyNode;
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

/** Annotations: documentation only, or (`default`, `x-check`) applied by `modelNode`/`compile`. */
const ANNOTATIONS = ['$id', 'title', 'description', 'examples', 'default', 'x-check'];

/** The keywords each kind of schema may carry besides the annotations; anything else is refused. */
const KEYWORDS: Record<string, string[]> = {
  anyOf: ['anyOf'],
  const: ['const', 'type'],
  enum: ['enum', 'type'],
  string: ['type', 'minLength', 'maxLength', 'pattern'],
  integer: ['type', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'],
  number: ['type', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'],
  boolean: ['type'],
  null: ['type'],
  array: ['type', 'items', 'minItems', 'maxItems'],
  model: ['type', 'properties', 'required', 'additionalProperties'],
  dict: ['type', 'patternProperties', 'additionalProperties'],
  any: [],
};

function kindOf(s: Schema): string {
  if (Array.isArray(s.anyOf)) return 'anyOf';
  if ('const' in s) return 'const';
  if (Array.isArray(s.enum)) return 'enum';
  if (s.type === 'object' || (s.type === undefined && 'properties' in s))
    return s.properties && typeof s.properties === 'object' ? 'model' : 'dict';
  if (s.type === undefined) return 'any';
  if (typeof s.type === 'string' && s.type in KEYWORDS) return s.type;
  throw new UnsupportedSchema(`unsupported schema type ${JSON.stringify(s.type)}`);
}

/** Compiles the children of `s` at `at` (a JSON pointer inside the schema, for error messages). */
type Sub = (child: Schema, at: string) => Node;

/** `Literal[...]` when every member is a literal, else the one supported scalar union. */
function unionNode(members: Schema[], sub: Sub): Node {
  const lits = literalValues({ anyOf: members });
  if (lits) return literalNode(lits, 'literal_error');
  const node = scalarUnionNode(members, (m) => sub(m, `anyOf/${members.indexOf(m)}`));
  if (!node)
    throw new UnsupportedSchema(
      'unsupported union: only literals, str | float | bool, and either with null',
    );
  return node;
}

function compileBase(s: Schema, kind: string, sub: Sub): Node {
  switch (kind) {
    case 'anyOf': {
      const members = s.anyOf as Schema[];
      const others = members.filter((m) => !isNullSchema(m));
      if (others.length === 0) return noneNode;
      const inner =
        others.length === 1
          ? sub(others[0] as Schema, `anyOf/${members.indexOf(others[0] as Schema)}`)
          : unionNode(others, (m, at) => sub(m, at));
      if (others.length === members.length) return inner;
      return (v, c) => (v === null ? null : inner(v, c));
    }
    case 'const':
      return literalNode([s.const as Primitive], 'literal_error');
    case 'enum':
      return literalNode(s.enum as Primitive[], 'enum');
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
      return listNode(s, sub);
    case 'model':
      return modelNode(s, sub);
    case 'dict': {
      const pp = s.patternProperties as Record<string, Schema> | undefined;
      const keys = pp ? Object.keys(pp) : [];
      // TypeBox writes every `Record(Type.String(), V)` as `^.*$`; other key rules are not checked
      if (keys.length > 1 || (keys.length === 1 && keys[0] !== '^.*$'))
        throw new UnsupportedSchema(`unsupported patternProperties ${JSON.stringify(keys)}`);
      const valueSchema = pp ? pp[keys[0] as string] : s.additionalProperties;
      const at = pp ? `patternProperties/${keys[0]}` : 'additionalProperties';
      return dictNode(
        valueSchema && typeof valueSchema === 'object' ? sub(valueSchema as Schema, at) : anyNode,
      );
    }
    default:
      return anyNode;
  }
}

const cache = new WeakMap<object, Node>();
/** The `x-check` names a compiled schema uses, its own and its children's. */
const checkNames = new WeakMap<object, ReadonlySet<string>>();

/**
 * Compiles `s` (cached per schema object). Throws `UnsupportedSchema` naming the place in the
 * schema (`where`, a JSON pointer under the root's `$id`) for a keyword, type, union or pattern the
 * validator does not reproduce: a schema it would silently half-apply never reaches a request.
 */
function compile(s: Schema, where = `${typeof s.$id === 'string' ? s.$id : ''}#`): Node {
  const hit = cache.get(s);
  if (hit) return hit;
  const children: Schema[] = [];
  const sub: Sub = (child, rel) => {
    children.push(child);
    return compile(child, `${where}/${rel}`);
  };
  let node: Node;
  try {
    const kind = kindOf(s);
    const allowed = KEYWORDS[kind] as string[];
    for (const k of Object.keys(s)) {
      if (!allowed.includes(k) && !ANNOTATIONS.includes(k))
        throw new UnsupportedSchema(`unsupported keyword '${k}'`);
    }
    node = compileBase(s, kind, sub);
  } catch (e) {
    if (!(e instanceof UnsupportedSchema) || e.where !== undefined) throw e;
    e.where = where;
    e.message = `${e.message} at ${where}`;
    throw e;
  }
  const names = new Set(children.flatMap((k) => [...(checkNames.get(k) ?? [])]));
  const check = s['x-check'];
  if (typeof check === 'string') {
    node = withCheck(node, check);
    names.add(check);
  }
  cache.set(s, node);
  checkNames.set(s, names);
  return node;
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

export type Validator<T> = (
  value: PyValue,
  loc?: readonly (string | number)[],
) => ValidationResult<T>;

/**
 * Compiles `schema` now, so that a keyword, pattern or union it cannot reproduce, or an `x-check`
 * with no implementation in `options.checks`, throws at start-up and names its place in the
 * schema. The validator it returns answers `Static<typeof schema>` on success.
 */
export function compileValidator<S extends TSchema>(
  schema: S,
  options?: ValidateOptions,
): Validator<Static<S>>;
export function compileValidator(
  schema: TSchema,
  options: ValidateOptions = {},
): Validator<unknown> {
  const root = schema as Schema;
  compile(root);
  for (const name of checkNames.get(root) ?? []) {
    if (!options.checks?.[name])
      throw new UnsupportedSchema(`no implementation for x-check '${name}' in ${root.$id ?? '#'}`);
  }
  return (value, loc = []) => validate(schema, value, loc, options);
}
