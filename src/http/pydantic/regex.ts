/**
 * Translates a pattern written for Rust's `regex` crate (what pydantic-core uses for
 * `Field(pattern=...)`) into an equivalent JS `RegExp` with the `u` flag, for the common subset:
 * Unicode-aware `\d \w \s \b` (and negations), `.` not matching only `\n`, `\A`/`\z`, leading
 * inline flags `(?i)`/`(?s)`/`(?m)`, `(?P<name>`, `\x{...}`, and Rust's liberal escaping of
 * punctuation. Matching is an unanchored search, as `Regex::is_match` is.
 *
 * Not translated: nested classes/set operations (`[a-z&&[^aeiou]]`), POSIX classes (`[[:alpha:]]`),
 * `\W`/`\B` inside a character class, and inline flags that are not at the very start.
 */

const W = '\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}';
const WORD = `[${W}]`;
const NOT_WORD = `[^${W}]`;
const BOUNDARY = `(?:(?<=${WORD})(?!${WORD})|(?<!${WORD})(?=${WORD}))`;
const NOT_BOUNDARY = `(?:(?<=${WORD})(?=${WORD})|(?<!${WORD})(?!${WORD}))`;

const OUTSIDE: Record<string, string> = {
  d: '\\p{Nd}',
  D: '\\P{Nd}',
  s: '\\p{White_Space}',
  S: '\\P{White_Space}',
  w: WORD,
  W: NOT_WORD,
  b: BOUNDARY,
  B: NOT_BOUNDARY,
  A: '(?<![^])',
  z: '(?![^])',
};

const INSIDE: Record<string, string> = {
  d: '\\p{Nd}',
  D: '\\P{Nd}',
  s: '\\p{White_Space}',
  S: '\\P{White_Space}',
  w: W,
};

function isAsciiPunct(c: string): boolean {
  return /^[!-/:-@[-`{-~]$/.test(c);
}

function hexEscape(c: string): string {
  return `\\x${(c.codePointAt(0) as number).toString(16).padStart(2, '0')}`;
}

function translate(src: string): { source: string; flags: string } {
  let flags = 'u';
  let p = src;
  const lead = /^\(\?([ims]+)\)/.exec(p);
  if (lead) {
    for (const f of lead[1] as string) if (!flags.includes(f)) flags += f;
    p = p.slice(lead[0].length);
  }
  const dotAll = flags.includes('s');
  // Rust's multi-line anchors only know \n as a line break (JS's `m` also uses \r, U+2028/9)
  const multiLine = flags.includes('m');
  let out = '';
  let inClass = false;
  let classStart = false;
  for (let i = 0; i < p.length; i++) {
    const c = p[i] as string;
    const atClassStart = classStart;
    classStart = false;
    if (c === '\\') {
      const e = p[i + 1];
      if (e === undefined) return { source: src, flags: 'u' };
      i++;
      const table = inClass ? INSIDE : OUTSIDE;
      const mapped = table[e];
      if (mapped !== undefined) out += mapped;
      else if ((e === 'p' || e === 'P') && p[i + 1] !== '{' && p[i + 1] !== undefined) {
        out += `\\${e}{${p[i + 1]}}`;
        i++;
      } else if (e === 'x' && p[i + 1] === '{') {
        const close = p.indexOf('}', i);
        out += `\\u{${p.slice(i + 2, close)}}`;
        i = close;
      } else if (isAsciiPunct(e)) out += hexEscape(e);
      else out += `\\${e}`;
      continue;
    }
    if (inClass) {
      if (c === ']' && !atClassStart) inClass = false;
      else if (c === ']' || c === '[') {
        out += hexEscape(c);
        continue;
      } else if (c === '^' && atClassStart) classStart = true;
      out += c;
      continue;
    }
    if (c === '[') {
      inClass = true;
      classStart = true;
      out += c;
    } else if (c === '.') out += dotAll ? '[^]' : '[^\\n]';
    else if (multiLine && c === '^') out += '(?<![^\\n])';
    else if (multiLine && c === '$') out += '(?![^\\n])';
    else if (c === '(' && p.startsWith('(?P<', i)) {
      out += '(?<';
      i += 3;
    } else if (c === '{') {
      const m = /^\{\d+(?:,\d*)?\}/.exec(p.slice(i));
      if (m) {
        out += m[0];
        i += m[0].length - 1;
      } else out += hexEscape(c);
    } else if (c === '}' || c === ']') out += hexEscape(c);
    else out += c;
  }
  return { source: out, flags: flags.replace('s', '').replace('m', '') };
}

/**
 * Compiles a Rust-regex pattern to a JS `RegExp` (compile once and cache the result). Falls back
 * to the untranslated pattern when the translation does not compile; throws if nothing does.
 */
export function compileRustPattern(pattern: string): RegExp {
  const { source, flags } = translate(pattern);
  try {
    return new RegExp(source, flags);
  } catch {
    try {
      return new RegExp(pattern, 'u');
    } catch {
      return new RegExp(pattern);
    }
  }
}
