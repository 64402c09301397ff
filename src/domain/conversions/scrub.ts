/**
 * A platform's words with every secret taken out, before they are stored, shown or sent in a
 * webhook: platforms quote what they were sent ("Invalid OAuth access token EAAG…"). The
 * destination's own secrets go by value (as given, and URL- or JSON-encoded), and anything
 * shaped like a credential goes by shape, since access tokens are issued at run time and
 * never stored: Meta's `EAA…`, Google's `ya29.…` and `1//…` refresh tokens, Microsoft's
 * `EwB…` and `M.R3_…`, JWTs, `Bearer …`, and `access_token=…`-style pairs.
 */
const SHAPES: RegExp[] = [
  /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\bEAA[A-Za-z0-9]{8,}[A-Za-z0-9_-]*/g,
  /\bya29\.[A-Za-z0-9._-]+/g,
  /\b1\/\/[A-Za-z0-9._-]{8,}/g,
  /\bEwB[A-Za-z0-9._~+/=-]{4,}/g,
  /\bM\.[A-Za-z0-9]{1,4}_[A-Za-z0-9.!*$_-]{8,}/g,
  /\bGOCSPX-[A-Za-z0-9_-]{8,}/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g,
];
/** `name=value` and `"name": "value"` pairs of credential names: the name stays. */
const KEYED =
  /\b((?:access|refresh|id)_token|api_secret|client_secret|developer[_-]?token)(["']?\s*[:=]\s*["']?)[^\s"'&,;)}]+/gi;

export const REDACTED = '[redacted]';

export type Scrubber = (text: string) => string;

/** A scrubber for one destination's secrets (values shorter than 4 characters are left). */
export function scrubberFor(secrets: Record<string, string> | readonly string[]): Scrubber {
  const values = (Array.isArray(secrets) ? secrets : Object.values(secrets))
    .filter((v): v is string => typeof v === 'string' && v.length >= 4)
    .flatMap((v) => [v, encodeURIComponent(v), JSON.stringify(v).slice(1, -1)])
    .filter((v, i, all) => all.indexOf(v) === i)
    // Longest first, so a secret containing another is taken out whole.
    .sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const v of values) out = out.split(v).join(REDACTED);
    for (const re of SHAPES) out = out.replace(re, REDACTED);
    return out.replace(KEYED, (_m, key: string, sep: string) => `${key}${sep}${REDACTED}`);
  };
}

/** Every string inside a parsed answer, scrubbed (for the `test` command's `answer`). */
export function scrubDeep(value: unknown, scrub: Scrubber, depth = 0): unknown {
  if (typeof value === 'string') return scrub(value);
  if (depth > 20 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((x) => scrubDeep(x, scrub, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, x]) => [
      k,
      scrubDeep(x, scrub, depth + 1),
    ]),
  );
}
