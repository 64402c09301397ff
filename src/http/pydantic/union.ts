/**
 * pydantic-core's smart-mode union (`validators/union.rs`) for the one union of non-literal types
 * the schemas use: `str | float | bool` (`dynamic_variables` values). Each JSON kind is accepted
 * in strict mode by exactly one of the three members (a string by `str`, an int or a float by
 * `float`, a boolean by `bool`), so the lax pass that follows in pydantic can never succeed where
 * that member failed: the value goes to its member, and when that fails (or no member takes it)
 * every member's error is reported, with the member's name appended to `loc`.
 */
import { PyFloat, PyInt, type PyValue } from './pyvalue.js';
import { type Ctx, FAIL, type Node, type Schema } from './walk.js';

interface Member {
  tag: string;
  takes: (v: PyValue) => boolean;
}

const MEMBERS: Record<string, Member> = {
  string: { tag: 'str', takes: (v) => typeof v === 'string' },
  number: { tag: 'float', takes: (v) => v instanceof PyFloat || v instanceof PyInt },
  boolean: { tag: 'bool', takes: (v) => typeof v === 'boolean' },
};

const isPlain = (s: Schema) => Object.keys(s).length === 1 && typeof s.type === 'string';

/** A node for `str | float | bool` (members unconstrained, in any order); undefined otherwise. */
export function scalarUnionNode(members: Schema[], compile: (s: Schema) => Node): Node | undefined {
  const kinds = new Set(members.map((s) => (isPlain(s) ? String(s.type) : '')));
  if (members.length !== 3 || kinds.size !== 3 || ![...kinds].every((k) => k in MEMBERS))
    return undefined;
  const choices = members.map((s) => ({
    ...(MEMBERS[s.type as string] as Member),
    node: compile(s),
  }));
  const attempt = (node: Node, v: PyValue, c: Ctx, path: Ctx['path']) => {
    const scratch: Ctx = { ...c, errors: [], path };
    const r = node(v, scratch);
    return { r: scratch.errors.length ? FAIL : r, errors: scratch.errors };
  };
  return (v, c) => {
    const owner = choices.find((ch) => ch.takes(v));
    if (owner) {
      const { r } = attempt(owner.node, v, c, c.path);
      if (r !== FAIL) return r;
    }
    for (const ch of choices) c.errors.push(...attempt(ch.node, v, c, [...c.path, ch.tag]).errors);
    return FAIL;
  };
}
