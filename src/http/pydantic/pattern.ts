/**
 * `Field(pattern=...)` as pydantic-core runs it (Rust's `regex` crate, an unanchored search), for
 * the subset of patterns whose meaning is the same in a JS `RegExp` with the `u` flag: ASCII
 * literals, `^` and `$`, character classes of ASCII characters and ranges, groups, alternation,
 * quantifiers, escaped punctuation, and `\d` (Unicode decimal digits in Rust, so `\p{Nd}` here).
 *
 * Anything else (`.`, `\w`, `\s`, `\b`, inline flags, named groups, look-around, non-ASCII, class
 * set operations) reads differently in the two engines, so it is refused when the schema is
 * compiled rather than translated.
 */

/** Escaped punctuation that means the same character in both engines (`\-` only in a class). */
import { UnsupportedSchema } from './walk.js';

const ESCAPABLE = new Set('^$\\.*+?()[]{}|/');
const CLASS_SET_OPS = /&&|--|~~/;

/** Why the pattern is outside the subset, or null when it is inside. */
function refusal(p: string): string | null {
  let inClass = false;
  for (let i = 0; i < p.length; i++) {
    const c = p[i] as string;
    const code = c.charCodeAt(0);
    if (code < 0x20 || code > 0x7e) return 'a non-ASCII or control character';
    if (c === '\\') {
      const e = p[++i];
      if (e === 'd' || (e !== undefined && ESCAPABLE.has(e)) || (inClass && e === '-')) continue;
      return `the escape \\${e ?? ''}`;
    }
    if (inClass) {
      if (c === '[') return 'a nested class';
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') {
      inClass = true;
      const end = p.indexOf(']', i + 2);
      if (CLASS_SET_OPS.test(p.slice(i + 1, end < 0 ? p.length : end)))
        return 'a class set operation';
      if (p[i + 1] === ']' || (p[i + 1] === '^' && p[i + 2] === ']')) return "a leading ']'";
    } else if (c === '.') return "'.'";
    else if (c === '(' && p[i + 1] === '?' && p[i + 2] !== ':') return "a '(?' group";
  }
  return inClass ? 'an unclosed class' : null;
}

/** Compiles a pattern of the supported subset; throws (naming what is unsupported) otherwise. */
export function compilePattern(pattern: string): RegExp {
  const why = refusal(pattern);
  if (why !== null) throw new UnsupportedSchema(`unsupported pattern '${pattern}': ${why}`);
  return new RegExp(pattern.replaceAll(/(?<!\\)((?:\\\\)*)\\d/g, '$1\\p{Nd}'), 'u');
}
