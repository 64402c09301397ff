/**
 * pydantic-core's smart-mode union (`validators/union.rs`), for unions of plain scalar types such
 * as `str | float | bool`: a strict pass that prefers an exact type match, then a lax pass in
 * declaration order whose first success wins. When every member fails, each member's errors are
 * reported with the member's name appended to `loc`.
 */
import { PyFloat, PyInt, type PyValue } from './pyvalue.js';
import { type Ctx, FAIL, type Node, type Schema } from './walk.js';

type Scalar = 'string' | 'integer' | 'number' | 'boolean';

const NAMES: Record<Scalar, string> = {
  string: 'str',
  integer: 'int',
  number: 'float',
  boolean: 'bool',
};

const CONSTRAINTS: Record<Scalar, string[]> = {
  string: ['minLength', 'maxLength', 'pattern'],
  integer: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  boolean: [],
};

/** How well a value's Python type fits a member in strict mode: 2 exact, 1 strict, 0 not at all. */
function strictFit(kind: Scalar, v: PyValue): number {
  switch (kind) {
    case 'string':
      return typeof v === 'string' ? 2 : 0;
    case 'integer':
      return v instanceof PyInt ? 2 : 0;
    case 'number':
      return v instanceof PyFloat ? 2 : v instanceof PyInt ? 1 : 0;
    case 'boolean':
      return typeof v === 'boolean' ? 2 : 0;
  }
}

function scalarKind(s: Schema): Scalar | undefined {
  const t = s.type;
  if (t !== 'string' && t !== 'integer' && t !== 'number' && t !== 'boolean') return undefined;
  if ('const' in s || 'enum' in s || 'x-check' in s || 'anyOf' in s) return undefined;
  return t;
}

/**
 * A node for a union of scalar type schemas, or undefined when a member is anything else.
 * Members carrying constraints are named `constrained-<type>` in `loc`, as pydantic names them.
 */
export function scalarUnionNode(members: Schema[], compile: (s: Schema) => Node): Node | undefined {
  const kinds = members.map(scalarKind);
  if (kinds.some((k) => k === undefined)) return undefined;
  const choices = members.map((s, i) => {
    const kind = kinds[i] as Scalar;
    const constrained = CONSTRAINTS[kind].some((k) => k in s);
    return { kind, node: compile(s), tag: `${constrained ? 'constrained-' : ''}${NAMES[kind]}` };
  });
  const attempt = (node: Node, v: PyValue, c: Ctx, path: Ctx['path']) => {
    const scratch: Ctx = { ...c, errors: [], path };
    const r = node(v, scratch);
    return { r: scratch.errors.length ? FAIL : r, errors: scratch.errors };
  };
  return (v, c) => {
    let strict: { r: unknown } | undefined;
    for (const ch of choices) {
      const fit = strictFit(ch.kind, v);
      if (fit === 0) continue;
      const { r } = attempt(ch.node, v, c, c.path);
      if (r === FAIL) continue;
      if (fit === 2) return r;
      strict ??= { r };
    }
    if (strict) return strict.r;
    const found: Ctx['errors'] = [];
    for (const ch of choices) {
      const { r, errors } = attempt(ch.node, v, c, [...c.path, ch.tag]);
      if (r !== FAIL) return r;
      found.push(...errors);
    }
    c.errors.push(...found);
    return FAIL;
  };
}
