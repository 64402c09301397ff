import type { SuppressionList } from '../compliance/index.js';
import { yieldingEvery } from '../cooperative.js';
import { newId } from '../ids.js';
import { lines, MAX_LINE_CHARS, parseLine } from './lines.js';
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
 * Streams a list file into the organization's list in batches, one statement and one implicit
 * transaction per batch, so memory stays at one batch whatever the file size. A crash part-way
 * leaves the batches written so far (re-running the import is idempotent); the import record
 * that the freshness rule reads is written only when the whole file is in.
 */
export async function importSuppressionList(
  repos: SuppressionRepos,
  source: AsyncIterable<Buffer | string>,
  o: SuppressionImportOptions,
): Promise<SuppressionImportSummary> {
  // Small enough that one batch on the embedded store (which shares the event loop) does not
  // hold the public API for long: the import's p99 test (test/e2e/import-latency.test.ts).
  const batchSize = o.batchSize ?? 1000;
  const maxListed = o.maxRejectedListed ?? 100;
  const at = new Date(o.nowMs);
  const importId = newId('sim', o.nowMs);
  const b = { list: o.list, source: o.source, listedOn: o.listedOn, at, importId };
  const s: SuppressionImportSummary = {
    import_id: importId,
    list: o.list,
    mode: o.mode,
    listed_on: o.listedOn,
    rows: 0,
    added: 0,
    removed: 0,
    rejected_count: 0,
    rejected: [],
  };
  const areaCodes = new Set<number>();
  const states = new Set<string>();
  let adds: BatchRow[] = [];
  let deletes: string[] = [];
  const reject = (line: number, error: string) => {
    s.rejected_count++;
    if (s.rejected.length < maxListed) s.rejected.push({ line, error });
  };
  const flush = async () => {
    s.added += await repos.suppression.upsertBatch(repos.db, o.orgId, b, adds);
    s.removed += await repos.suppression.deleteBatch(repos.db, o.orgId, o.list, deletes);
    adds = [];
    deletes = [];
    o.onProgress?.({
      rows: s.rows,
      added: s.added,
      removed: s.removed,
      rejected: s.rejected_count,
    });
  };
  let lineNo = 0;
  for await (const line of yieldingEvery(lines(source))) {
    lineNo++;
    if (line.tooLong) {
      s.rows++;
      reject(lineNo, `line longer than ${MAX_LINE_CHARS} characters: ${line.text.slice(0, 40)}…`);
      continue;
    }
    const r = parseLine(line.text, lineNo);
    if (r.kind === 'skip') continue;
    s.rows++;
    if (r.kind === 'error') {
      reject(lineNo, r.message);
      continue;
    }
    const state = r.entry.state ?? o.state;
    if (o.list === 'state' && state === null) {
      reject(lineNo, 'a state list needs a state column or the state parameter');
      continue;
    }
    const number = r.entry.number;
    if (r.entry.action === 'delete') deletes.push(number);
    else {
      adds.push({ number, state: o.list === 'state' ? state : null });
      if (number.length === 11 && number.startsWith('1')) areaCodes.add(Number(number.slice(1, 4)));
      if (state) states.add(state);
    }
    if (adds.length + deletes.length >= batchSize) await flush();
  }
  await flush();
  if (o.mode === 'replace') {
    const scope =
      o.list === 'national' || o.list === 'national_ca'
        ? { areaCodes: [...areaCodes] }
        : o.list === 'state'
          ? { states: [...states] }
          : {};
    // A replace with nothing in it would empty the list: refuse that reading of an empty file.
    if (s.rows - s.rejected_count > 0) {
      s.removed += await repos.suppression.removeUntouched(
        repos.db,
        o.orgId,
        o.list,
        importId,
        scope,
      );
    }
  }
  await repos.transaction(async (tx) => {
    await repos.suppression.recordImport(tx, {
      id: importId,
      orgId: o.orgId,
      list: o.list,
      mode: o.mode,
      source: o.source,
      listedOn: o.listedOn,
      rows: s.rows,
      added: s.added,
      removed: s.removed,
      rejected: s.rejected_count,
      startedAt: at,
      finishedAt: new Date(o.now?.() ?? o.nowMs),
      actor: o.actor,
    });
    await repos.audit.writeAudit(tx, {
      orgId: o.orgId,
      actor: o.actor,
      action: 'suppression.imported',
      subjectType: 'suppression_list',
      subjectId: o.list,
      detail: {
        import_id: importId,
        mode: o.mode,
        source: o.source,
        listed_on: o.listedOn,
        rows: s.rows,
        added: s.added,
        removed: s.removed,
        rejected: s.rejected_count,
      },
      requestId: o.requestId,
      at,
    });
  });
  return s;
}
