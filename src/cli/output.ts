import type { ApiOutcome } from './client.js';

/** process.stdout and process.stderr fit; tests pass a collector and say whether it is a terminal. */
export interface Writer {
  /** false means "buffer full": wait for 'drain' before writing more. */
  write(chunk: string | Uint8Array): unknown;
  once?(event: 'drain', listener: () => void): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** human: aligned `key: value` lines; json: the API's answer byte for byte; quiet: the primary value only. */
export type Mode = 'human' | 'json' | 'quiet';

/** A successful answer: every admin route answers a JSON object. */
export type Answer = Record<string, unknown>;

/** How one command shows a successful answer. */
export interface View {
  /** The one value `-q` prints, so scripts can capture it; null prints nothing. */
  primary(body: Answer): unknown;
  human(body: Answer): string;
  /** The exit code of an answer the API gave but that says a check failed (`destination test`). */
  exit?(body: Answer): number;
}

/** 64 and 74 are sysexits' EX_USAGE and EX_IOERR. */
/** sysexits.h where one fits: 64 EX_USAGE, 65 EX_DATAERR (input rows rejected), 74 EX_IOERR. */
export const EXIT = {
  ok: 0,
  api: 1,
  unreachable: 2,
  /** The API answered, and its answer says the thing checked is not right. */
  checkFailed: 3,
  usage: 64,
  data: 65,
  io: 74,
} as const;

export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (Array.isArray(value)) return value.length === 0 ? '-' : value.map(formatValue).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** `key: value` lines with the values in one column, keys in the API's order. */
export function fields(record: Record<string, unknown>, omit: string[] = []): string {
  const keys = Object.keys(record).filter((k) => !omit.includes(k));
  const width = Math.max(0, ...keys.map((k) => k.length)) + 1;
  return keys.map((k) => `${`${k}:`.padEnd(width)} ${formatValue(record[k])}`).join('\n');
}

/**
 * An answer holding a secret that cannot be fetched again (an API key, a signing secret):
 * the other fields, then the secret on a line of its own; `-q` prints the secret alone.
 */
export function secretView(field: string, note: string): View {
  return {
    primary: (a) => a[field],
    human: (a) =>
      [fields(a, [field]), '', `${field} (shown once, ${note}):`, '', `    ${a[field]}`, ''].join(
        '\n',
      ),
  };
}

/** Left-aligned columns under a header row. */
export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}

const HINTS: Record<string, string> = {
  invalid_admin_token:
    'the token does not match the server: check ADMIN_TOKEN or --token, or DATA_DIR/admin-token of the server',
};

/** The API's error body, readable: a 422 becomes one `loc: msg` line per error. */
export function describeError(status: number, body: unknown, text: string): string {
  const detail = (body as { detail?: unknown } | undefined)?.detail;
  if (Array.isArray(detail)) {
    const lines = detail.map((e: { loc?: unknown[]; msg?: unknown }) => {
      const loc = Array.isArray(e.loc) ? e.loc.join('.') : '?';
      return `  ${loc}: ${String(e.msg)}`;
    });
    return [`error: invalid request (${status})`, ...lines].join('\n');
  }
  if (typeof detail === 'string') {
    const rest = Object.entries(body as Record<string, unknown>).filter(([k]) => k !== 'detail');
    const lines = [`error: ${detail} (${status})`];
    for (const [k, v] of rest) lines.push(`  ${k}: ${formatValue(v)}`);
    if (HINTS[detail]) lines.push(`hint: ${HINTS[detail]}`);
    return lines.join('\n');
  }
  return `error: HTTP ${status}${text ? `\n${text}` : ''}`;
}

export function describeUnreachable(outcome: Extract<ApiOutcome, { kind: 'unreachable' }>): string {
  const why = outcome.code ?? outcome.message;
  const hint =
    outcome.code === 'ECONNREFUSED'
      ? 'is the server running? start it with npm start (or point ADMIN_URL / --url at it)'
      : 'check ADMIN_URL or --url';
  return `error: cannot reach the admin API at ${outcome.url} (${why})\nhint: ${hint}`;
}

const line = (s: string) => (s.endsWith('\n') ? s : `${s}\n`);

type Answered = Extract<ApiOutcome, { kind: 'answer' }>;

export const succeeded = (outcome: ApiOutcome): outcome is Answered =>
  outcome.kind === 'answer' && outcome.status >= 200 && outcome.status < 300;

/** Prints an outcome that did not succeed on stderr and gives its exit code. */
export function reportFailure(out: { stderr: Writer }, mode: Mode, outcome: ApiOutcome): number {
  if (outcome.kind === 'unreachable') {
    out.stderr.write(line(describeUnreachable(outcome)));
    return EXIT.unreachable;
  }
  out.stderr.write(
    line(
      mode === 'json' ? outcome.text : describeError(outcome.status, outcome.body, outcome.text),
    ),
  );
  return EXIT.api;
}

/** Prints one outcome in the chosen mode and says which exit code it deserves. */
export function report(
  out: { stdout: Writer; stderr: Writer },
  mode: Mode,
  outcome: ApiOutcome,
  view: View,
): number {
  if (!succeeded(outcome)) return reportFailure(out, mode, outcome);
  if (mode === 'json') out.stdout.write(line(outcome.text));
  else if (mode === 'quiet') {
    const value = view.primary(outcome.body as Answer);
    if (value !== null && value !== undefined && value !== '')
      out.stdout.write(line(String(value)));
  } else out.stdout.write(line(view.human(outcome.body as Answer)));
  return view.exit?.(outcome.body as Answer) ?? EXIT.ok;
}
