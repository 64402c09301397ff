import type { SuppressionList } from '../compliance/index.js';
import { yieldingEvery } from '../cooperative.js';
import { newId } from '../ids.js';
import { type Line, type LineResult, lines, MAX_LINE_CHARS, parseLine } from './lines.js';
import type { BatchRow, SuppressionRepos } from './ports.js';

/** `add`: upsert (and apply D lines); `replace`: the file is the whole list for what it covers. */
export type ImportMode = 'add' | 'replace';

export interface SuppressionImportOptions {
  orgId: string;
  list: SuppressionList;
  mode: ImportMode;
  source: string;
  /** The list's date (YYYY-MM-DD): the registry copy's date; defaults to today. */
  listedOn: string;
  /** A state list file without a state column: every line is this state's. */
  state: string | null;
  nowMs: number;
  /** The clock, read again when the import ends (for the record's finished_at). */
  now?: () => number;
  actor: string;
  requestId: string | null;
  batchSize?: number;
  maxRejectedListed?: number;
  onProgress?: (p: { rows: number; added: number; removed: number; rejected: number }) => void;
}

export interface SuppressionImportSummary {
  import_id: string;
  list: SuppressionList;
  mode: ImportMode;
  listed_on: string;
  rows: number;
  added: number;
  removed: number;
  rejected_count: number;
  rejected: { line: number; error: string }[];
}

/**
 * One line read against the import's options: skipped (blank or a comment), rejected with why,
 * or an entry whose state is the line's or else the import's.
 */
function readLine(line: Line, lineNo: number, options: SuppressionImportOptions): LineResult {
  if (line.tooLong) {
    const head = line.text.slice(0, 40);
    return { kind: 'error', message: `line longer than ${MAX_LINE_CHARS} characters: ${head}…` };
  }
  const parsed = parseLine(line.text, lineNo);
  if (parsed.kind !== 'entry') return parsed;
  const state = parsed.entry.state ?? options.state;
  if (options.list === 'state' && state === null) {
    return { kind: 'error', message: 'a state list needs a state column or the state parameter' };
  }
  return { kind: 'entry', entry: { ...parsed.entry, state } };
}

/** The summary before the first line: nothing read yet. */
function emptySummary(
  importId: string,
  options: SuppressionImportOptions,
): SuppressionImportSummary {
  return {
    import_id: importId,
    list: options.list,
    mode: options.mode,
    listed_on: options.listedOn,
    rows: 0,
    added: 0,
    removed: 0,
    rejected_count: 0,
    rejected: [],
  };
}

/**
 * Streams a list file into the organization's list in batches, one statement and one implicit
 * transaction per batch, so memory stays at one batch whatever the file size. A crash part-way
 * leaves the batches written so far (re-running the import is idempotent); the import record
 * that the freshness rule reads is written only when the whole file is in.
 */
export async function importSuppressionList(
  repos: SuppressionRepos,
  source: AsyncIterable<Buffer | string>,
  options: SuppressionImportOptions,
): Promise<SuppressionImportSummary> {
  // Small enough that one batch on the embedded store (which shares the event loop) does not
  // hold the public API for long: the import's p99 test (test/e2e/import-latency.test.ts).
  const batchSize = options.batchSize ?? 1000;
  const maxListed = options.maxRejectedListed ?? 100;
  const at = new Date(options.nowMs);
  const importId = newId('sim', options.nowMs);
  const batch = {
    list: options.list,
    source: options.source,
    listedOn: options.listedOn,
    at,
    importId,
  };
  const summary = emptySummary(importId, options);
  const areaCodes = new Set<number>();
  const states = new Set<string>();
  let adds: BatchRow[] = [];
  let deletes: string[] = [];
  const reject = (line: number, error: string) => {
    summary.rejected_count++;
    if (summary.rejected.length < maxListed) summary.rejected.push({ line, error });
  };
  const flush = async () => {
    summary.added += await repos.suppression.upsertBatch(repos.db, options.orgId, batch, adds);
    summary.removed += await repos.suppression.deleteBatch(
      repos.db,
      options.orgId,
      options.list,
      deletes,
    );
    adds = [];
    deletes = [];
    options.onProgress?.({
      rows: summary.rows,
      added: summary.added,
      removed: summary.removed,
      rejected: summary.rejected_count,
    });
  };
  let lineNo = 0;
  for await (const line of yieldingEvery(lines(source))) {
    lineNo++;
    const read = readLine(line, lineNo, options);
    if (read.kind === 'skip') continue;
    summary.rows++;
    if (read.kind === 'error') {
      reject(lineNo, read.message);
      continue;
    }
    const { number, state } = read.entry;
    if (read.entry.action === 'delete') deletes.push(number);
    else {
      adds.push({ number, state: options.list === 'state' ? state : null });
      if (number.length === 11 && number.startsWith('1')) areaCodes.add(Number(number.slice(1, 4)));
      if (state) states.add(state);
    }
    if (adds.length + deletes.length >= batchSize) await flush();
  }
  await flush();
  if (options.mode === 'replace') {
    // A replace with nothing in it would empty the list: refuse that reading of an empty file.
    if (summary.rows - summary.rejected_count > 0) {
      summary.removed += await removeUntouched(repos, options, importId, { areaCodes, states });
    }
  }
  await recordImport(repos, options, summary, at);
  return summary;
}

/**
 * Replace mode: removes the numbers of the list this import did not write, within what the file
 * covers (its area codes for a national list, its states for a state list).
 */
function removeUntouched(
  repos: SuppressionRepos,
  options: SuppressionImportOptions,
  importId: string,
  seen: { areaCodes: Set<number>; states: Set<string> },
): Promise<number> {
  const scope =
    options.list === 'national' || options.list === 'national_ca'
      ? { areaCodes: [...seen.areaCodes] }
      : options.list === 'state'
        ? { states: [...seen.states] }
        : {};
  return repos.suppression.removeUntouched(repos.db, options.orgId, options.list, importId, scope);
}

/** The import record the freshness rule reads, and its audit entry, in one transaction. */
async function recordImport(
  repos: SuppressionRepos,
  options: SuppressionImportOptions,
  summary: SuppressionImportSummary,
  at: Date,
): Promise<void> {
  await repos.transaction(async (tx) => {
    await repos.suppression.recordImport(tx, {
      id: summary.import_id,
      orgId: options.orgId,
      list: options.list,
      mode: options.mode,
      source: options.source,
      listedOn: options.listedOn,
      rows: summary.rows,
      added: summary.added,
      removed: summary.removed,
      rejected: summary.rejected_count,
      startedAt: at,
      finishedAt: new Date(options.now?.() ?? options.nowMs),
      actor: options.actor,
    });
    await repos.audit.writeAudit(tx, {
      orgId: options.orgId,
      actor: options.actor,
      action: 'suppression.imported',
      subjectType: 'suppression_list',
      subjectId: options.list,
      detail: {
        import_id: summary.import_id,
        mode: options.mode,
        source: options.source,
        listed_on: options.listedOn,
        rows: summary.rows,
        added: summary.added,
        removed: summary.removed,
        rejected: summary.rejected_count,
      },
      requestId: options.requestId,
      at,
    });
  });
}
