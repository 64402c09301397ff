/**
 * FastAPI's request-body decoding (`fastapi/routing.py::get_request_handler`, FastAPI >= 0.132 with
 * `strict_content_type=True`) followed by Starlette's `json.loads(body_bytes)`.
 */
import { parsePyJson } from './pyjson.js';
import type { PyValue } from './pyvalue.js';

export type DecodedBody =
  /** Parsed JSON (anything but `null`), to be validated. */
  | { kind: 'value'; value: PyValue }
  /** Empty body, or JSON `null`: report `missing` at `["body"]` with `input: null`. */
  | { kind: 'missing' }
  /** Malformed JSON: one `json_invalid` error at `["body", pos]`. */
  | { kind: 'json_invalid'; pos: number; msg: string }
  /** `json.loads` raised something else (bad encoding, huge int, deep nesting): 400. */
  | { kind: 'undecodable' }
  /**
   * Not a JSON content type (or no Content-Type at all): FastAPI validates the raw body as a
   * string, which gives `model_attributes_type` at `["body"]` with the text as `input`. Bytes that
   * are not valid UTF-8 are mapped to lone surrogates (Python's `surrogateescape`), so rendering the
   * error with `dumpsPy` throws, matching FastAPI's 500 for that case.
   */
  | { kind: 'raw'; value: string };

/** Python `str.strip()` restricted to what a latin-1 header value can hold. */
function pyStrip(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && isPySpace(s.charCodeAt(a))) a++;
  while (b > a && isPySpace(s.charCodeAt(b - 1))) b--;
  return s.slice(a, b);
}

function isPySpace(c: number): boolean {
  return (c >= 9 && c <= 13) || (c >= 0x1c && c <= 0x20) || c === 0x85 || c === 0xa0;
}

/**
 * `email.message.Message` content-type parsing as FastAPI uses it: `application/json` or
 * `application/<anything>+json`, parameters ignored, case-insensitive. Anything else (including a
 * value without exactly one `/`, which email treats as `text/plain`) is not JSON.
 */
export function isJsonContentType(contentType: string): boolean {
  const semi = contentType.indexOf(';');
  const ctype = pyStrip(semi < 0 ? contentType : contentType.slice(0, semi)).toLowerCase();
  const slash = ctype.indexOf('/');
  if (slash < 0 || ctype.indexOf('/', slash + 1) >= 0) return false;
  if (ctype.slice(0, slash) !== 'application') return false;
  const sub = ctype.slice(slash + 1);
  return sub === 'json' || sub.endsWith('+json');
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * UTF-8 decoding with an error handler: `'surrogatepass'` accepts encoded surrogates (ED A0..BF xx)
 * and fails (null) on anything else invalid; `'surrogateescape'` maps each bad byte to U+DC80+byte.
 */
function utf8Slow(
  b: Uint8Array,
  start: number,
  mode: 'surrogatepass' | 'surrogateescape',
): string | null {
  const units: number[] = [];
  const n = b.length;
  const cont = (k: number, lo = 0x80, hi = 0xbf) =>
    k < n && (b[k] as number) >= lo && (b[k] as number) <= hi;
  let i = start;
  while (i < n) {
    const c = b[i] as number;
    let cp = -1;
    let len = 1;
    if (c < 0x80) cp = c;
    else if (c >= 0xc2 && c <= 0xdf && cont(i + 1)) {
      cp = ((c & 0x1f) << 6) | ((b[i + 1] as number) & 0x3f);
      len = 2;
    } else if (c >= 0xe0 && c <= 0xef && cont(i + 1, c === 0xe0 ? 0xa0 : 0x80) && cont(i + 2)) {
      cp =
        ((c & 0x0f) << 12) | (((b[i + 1] as number) & 0x3f) << 6) | ((b[i + 2] as number) & 0x3f);
      len = 3;
      if (cp >= 0xd800 && cp <= 0xdfff && mode !== 'surrogatepass') cp = -1;
    } else if (
      c >= 0xf0 &&
      c <= 0xf4 &&
      cont(i + 1, c === 0xf0 ? 0x90 : 0x80, c === 0xf4 ? 0x8f : 0xbf) &&
      cont(i + 2) &&
      cont(i + 3)
    ) {
      cp =
        ((c & 0x07) << 18) |
        (((b[i + 1] as number) & 0x3f) << 12) |
        (((b[i + 2] as number) & 0x3f) << 6) |
        ((b[i + 3] as number) & 0x3f);
      len = 4;
    }
    if (cp < 0) {
      if (mode === 'surrogatepass') return null;
      units.push(0xdc00 + c);
      i++;
      continue;
    }
    if (cp > 0xffff) units.push(0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff));
    else units.push(cp);
    i += len;
  }
  let out = '';
  for (let k = 0; k < units.length; k += 8192)
    out += String.fromCharCode(...units.slice(k, k + 8192));
  return out;
}

/** UTF-16/32 decoding with `surrogatepass` (lone surrogates kept); null on truncated data or > U+10FFFF. */
function decodeWide(
  b: Uint8Array,
  start: number,
  width: 2 | 4,
  littleEndian: boolean,
): string | null {
  if ((b.length - start) % width !== 0) return null;
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const units: number[] = [];
  for (let i = start; i < b.length; i += width) {
    if (width === 2) units.push(dv.getUint16(i, littleEndian));
    else {
      const cp = dv.getUint32(i, littleEndian);
      if (cp > 0x10ffff) return null;
      if (cp > 0xffff)
        units.push(0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff));
      else units.push(cp);
    }
  }
  let out = '';
  for (let k = 0; k < units.length; k += 8192)
    out += String.fromCharCode(...units.slice(k, k + 8192));
  return out;
}

/**
 * `bytes.decode(json.detect_encoding(b), 'surrogatepass')`: UTF-32/UTF-16 by BOM, UTF-8 BOM
 * stripped (utf-8-sig), UTF-16/32 LE/BE guessed from NUL bytes, otherwise UTF-8. Null when Python
 * would raise `UnicodeDecodeError`.
 */
export function decodeJsonBytes(bytes: Uint8Array): string | null {
  const n = bytes.length;
  const b0 = bytes[0];
  const b1 = bytes[1];
  if (n >= 4 && b0 === 0 && b1 === 0 && bytes[2] === 0xfe && bytes[3] === 0xff)
    return decodeWide(bytes, 4, 4, false);
  if (n >= 4 && b0 === 0xff && b1 === 0xfe && bytes[2] === 0 && bytes[3] === 0)
    return decodeWide(bytes, 4, 4, true);
  if (n >= 2 && b0 === 0xfe && b1 === 0xff) return decodeWide(bytes, 2, 2, false);
  if (n >= 2 && b0 === 0xff && b1 === 0xfe) return decodeWide(bytes, 2, 2, true);
  let start = 0;
  if (n >= 3 && b0 === 0xef && b1 === 0xbb && bytes[2] === 0xbf) start = 3;
  else if (n >= 4) {
    if (b0 === 0) return b1 ? decodeWide(bytes, 0, 2, false) : decodeWide(bytes, 0, 4, false);
    if (b1 === 0)
      return bytes[2] || bytes[3] ? decodeWide(bytes, 0, 2, true) : decodeWide(bytes, 0, 4, true);
  } else if (n === 2) {
    if (b0 === 0) return decodeWide(bytes, 0, 2, false);
    if (b1 === 0) return decodeWide(bytes, 0, 2, true);
  }
  try {
    return UTF8.decode(start ? bytes.subarray(start) : bytes);
  } catch {
    return utf8Slow(bytes, start, 'surrogatepass');
  }
}

/** Decodes a non-JSON body the way `bytes.decode()` + FastAPI's encoder would see it (see `raw`). */
function decodeRaw(b: Uint8Array): string {
  try {
    return UTF8.decode(b);
  } catch {
    return utf8Slow(b, 0, 'surrogateescape') as string;
  }
}

/**
 * Decodes a request body for a route with one (non-embedded) JSON body model, as FastAPI >= 0.132
 * does. `contentType` is the raw header value (an empty value counts as absent).
 */
export function decodeBody(
  contentType: string | undefined,
  raw: Buffer | Uint8Array | undefined,
): DecodedBody {
  if (!raw || raw.length === 0) return { kind: 'missing' };
  if (!contentType || !isJsonContentType(contentType))
    return { kind: 'raw', value: decodeRaw(raw) };
  const text = decodeJsonBytes(raw);
  if (text === null) return { kind: 'undecodable' };
  const r = parsePyJson(text);
  if (!r.ok)
    return r.python ? { kind: 'undecodable' } : { kind: 'json_invalid', pos: r.pos, msg: r.msg };
  return r.value === null ? { kind: 'missing' } : { kind: 'value', value: r.value };
}
