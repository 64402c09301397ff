import { yieldingEvery } from '../cooperative.js';
import { normalizeE164 } from '../phone/e164.js';
import { type CsvSource, readCsv } from '../text/csv-reader.js';
import { CONSENT_BASES, CONSENT_EVENT_KINDS, EBR_BASES } from '../vocabulary.js';
import {
  type EbrBasis,
  type GrantInput,
  grantEvent,
  grantProblems,
  type NewConsentEvent,
  type RevocationKind,
  revocationEvent,
  revocationProblems,
} from './consents.js';

/**
 * The consent import format (docs/outbound.md): a header row naming any of these columns in any
 * order; `e164` is required. `kind` defaults to `grant`; revocation rows (`revoked`, `opt_out`,
 * `internal_dnc`) use `captured_at` as the moment of revocation and `reason`.
 */
export const CONSENT_CSV_COLUMNS = [
  'e164',
  'kind',
  'tier',
  'basis',
  'source',
  'captured_at',
  'expires_at',
  'evidence',
  'reason',
] as const;
type Column = (typeof CONSENT_CSV_COLUMNS)[number];

const KINDS: readonly string[] = CONSENT_EVENT_KINDS;
const TIERS: readonly string[] = CONSENT_BASES;
const BASES: readonly string[] = EBR_BASES;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const MAX_SOURCE = 200;
const MAX_REASON = 500;
const MAX_EVIDENCE = 16 * 1024;

export type ConsentRow =
  | { line: number; ok: true; event: NewConsentEvent }
  | { line: number; ok: false; errors: string[] };

/** Problems with the header row; empty when rows can be read. */
export function consentHeaderProblems(header: readonly string[]): string[] {
  const names = header.map((h) => h.trim().toLowerCase());
  const problems: string[] = [];
  for (const n of names) {
    if (!CONSENT_CSV_COLUMNS.includes(n as Column)) problems.push(`unknown column "${n}"`);
  }
  const dupes = names.filter((n, i) => names.indexOf(n) !== i);
  for (const d of new Set(dupes)) problems.push(`column "${d}" appears twice`);
  if (!names.includes('e164')) problems.push('the header must name an e164 column');
  return problems;
}

const isInstant = (v: string) => ISO_INSTANT.test(v) && !Number.isNaN(Date.parse(v));

const NUL = String.fromCharCode(0);
const LONE_SURROGATE = /\p{Cs}/u;

/** PostgreSQL text and jsonb can hold neither a NUL character nor a lone surrogate. */
function unstorable(v: unknown): boolean {
  if (typeof v === 'string') return v.includes(NUL) || LONE_SURROGATE.test(v);
  if (Array.isArray(v)) return v.some(unstorable);
  if (v !== null && typeof v === 'object')
    return Object.entries(v).some(([k, x]) => unstorable(k) || unstorable(x));
  return false;
}

function parseEvidence(raw: string, errors: string[]): Record<string, unknown> | undefined {
  if (raw === '') return undefined;
  if (raw.length > MAX_EVIDENCE) {
    errors.push(`evidence: at most ${MAX_EVIDENCE} characters`);
    return undefined;
  }
  try {
    const v: unknown = JSON.parse(raw);
    if (unstorable(v)) {
      errors.push('evidence: must not contain NUL characters (\\u0000) or lone surrogates');
      return undefined;
    }
    if (typeof v === 'object' && v !== null && !Array.isArray(v))
      return v as Record<string, unknown>;
  } catch {}
  errors.push('evidence: must be a JSON object');
  return undefined;
}

/** One data row to an event, with every problem found (not only the first). */
export function consentRow(
  header: readonly string[],
  fields: readonly string[],
  line: number,
  nowMs: number,
): ConsentRow {
  const errors: string[] = [];
  if (fields.length !== header.length) {
    return {
      line,
      ok: false,
      errors: [`expected ${header.length} fields, got ${fields.length}`],
    };
  }
  const nul = header.filter((_, i) => fields[i]?.includes(NUL));
  if (nul.length > 0) {
    return {
      line,
      ok: false,
      errors: nul.map((h) => `${h.trim()}: must not contain NUL characters (\\u0000)`),
    };
  }
  const col = (name: Column) => {
    const i = header.findIndex((h) => h.trim().toLowerCase() === name);
    return i < 0 ? '' : (fields[i] ?? '').trim();
  };
  const e164 = normalizeE164(col('e164'));
  if (e164 === null) errors.push('e164: must be a possible phone number in E.164 form');
  const kind = col('kind') || 'grant';
  if (!KINDS.includes(kind)) errors.push(`kind: must be one of ${KINDS.join(', ')}`);
  for (const name of ['captured_at', 'expires_at'] as const) {
    const v = col(name);
    if (v !== '' && !isInstant(v))
      errors.push(`${name}: must be an ISO 8601 timestamp with a zone`);
  }
  const source = col('source');
  if (source.length > MAX_SOURCE) errors.push(`source: at most ${MAX_SOURCE} characters`);
  const reason = col('reason');
  if (reason.length > MAX_REASON) errors.push(`reason: at most ${MAX_REASON} characters`);
  const evidence = parseEvidence(col('evidence'), errors);

  if (kind === 'grant') {
    const tier = col('tier');
    const basis = col('basis');
    if (!TIERS.includes(tier)) errors.push('tier: must be pewc, pec or ebr');
    if (basis !== '' && !BASES.includes(basis))
      errors.push('basis: must be transaction or inquiry');
    if (reason !== '') errors.push('reason: applies to revocations only');
    const input: GrantInput = {
      tier: tier as GrantInput['tier'],
      ...(basis ? { basis: basis as EbrBasis } : {}),
      ...(source ? { source } : {}),
      ...(col('captured_at') ? { captured_at: col('captured_at') } : {}),
      ...(col('expires_at') ? { expires_at: col('expires_at') } : {}),
      ...(evidence ? { evidence } : {}),
    };
    if (errors.length === 0) {
      for (const p of grantProblems(input, nowMs)) errors.push(`${p.field}: ${p.message}`);
    }
    if (errors.length > 0 || e164 === null) return { line, ok: false, errors };
    return { line, ok: true, event: grantEvent(e164, input, nowMs) };
  }
  for (const name of ['tier', 'basis', 'source', 'expires_at', 'evidence'] as const) {
    if (col(name) !== '') errors.push(`${name}: applies to grants only`);
  }
  const at = col('captured_at') || undefined;
  if (errors.length === 0) {
    for (const p of revocationProblems({ at }, nowMs)) errors.push(`captured_at: ${p.message}`);
  }
  if (errors.length > 0 || e164 === null) return { line, ok: false, errors };
  const input = { kind: kind as RevocationKind, ...(reason ? { reason } : {}), at };
  return { line, ok: true, event: revocationEvent(e164, input, nowMs) };
}

export type ConsentCsvItem =
  | { type: 'header'; problems: string[] }
  | ({ type: 'row' } & ConsentRow);

/**
 * Reads and checks a consent CSV without touching a store: the admin import route stores what it
 * yields, and a CLI can run it first to show progress and rejected rows. The header comes first;
 * when it has problems nothing else is yielded.
 */
export async function* checkConsentCsv(
  source: CsvSource,
  nowMs: number,
): AsyncGenerator<ConsentCsvItem> {
  let header: string[] | null = null;
  for await (const record of yieldingEvery(readCsv(source))) {
    if (header === null) {
      header = record.fields;
      const problems = record.error ? [record.error] : consentHeaderProblems(header);
      yield { type: 'header', problems };
      if (problems.length > 0) return;
      continue;
    }
    if (record.error) yield { type: 'row', line: record.line, ok: false, errors: [record.error] };
    else yield { type: 'row', ...consentRow(header, record.fields, record.line, nowMs) };
  }
  if (header === null)
    yield { type: 'header', problems: ['the file is empty: expected a header row'] };
}
