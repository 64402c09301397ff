/**
 * Suppression lists, their imports and settings, and cached RND answers (migration 0010).
 * Raw SQL: the bulk paths use unnest() over array literals, one statement per batch.
 */
import { sql } from 'drizzle-orm';
import type {
  RndAnswer,
  RndResult,
  SuppressionFacts,
  SuppressionList,
} from '../../domain/compliance/index.js';
import type { RndRepository } from '../../domain/rnd/ports.js';
import type {
  BatchInfo,
  BatchRow,
  ImportRecord,
  NewSuppressionEntry,
  SuppressionEntry,
  SuppressionRepository,
} from '../../domain/suppression/ports.js';
import type { Executor } from '../db.js';
import { first, positional, rowsOf } from '../rows.js';

export type { BatchRow, ImportRecord };

/** '+14155550123' → '14155550123'; null when it cannot be a stored number. */
export function storedNumber(e164: string): string | null {
  return /^\+[1-9]\d{6,14}$/.test(e164) ? e164.slice(1) : null;
}

type FactsRow = {
  hits: SuppressionFacts['hits'];
  national: string | null;
  national_ca: string | null;
  litigator: boolean | null;
  rnd: { consent_date: string; result: RndResult; checked_at: number }[];
};

/**
 * Everything the touch gate needs from the lists in one round trip: the contact's entries on
 * every list (one primary-key range read), the newest national import date (one index probe),
 * the organization's litigator setting and the stored RND answers for the number.
 */
export async function suppressionFacts(
  ex: Executor,
  orgId: string,
  e164: string,
): Promise<SuppressionFacts> {
  const number = storedNumber(e164) ?? '0';
  const [row] = await rowsOf<FactsRow>(
    ex,
    sql`select
      (select coalesce(jsonb_agg(jsonb_build_object('list', s.list, 'listed_on', s.listed_on::text,
          'source', s.source, 'state', s.state) order by s.list), '[]'::jsonb)
         from suppression_entries s where s.org_id = ${orgId} and s.number = ${number}::bigint) as hits,
      (select max(i.listed_on)::text from suppression_imports i
        where i.org_id = ${orgId} and i.list = 'national') as national,
      (select max(i.listed_on)::text from suppression_imports i
        where i.org_id = ${orgId} and i.list = 'national_ca') as national_ca,
      (select t.litigator_blocks from suppression_settings t where t.org_id = ${orgId}) as litigator,
      (select coalesce(jsonb_agg(jsonb_build_object('consent_date', r.consent_date::text,
          'result', r.result, 'checked_at', floor(extract(epoch from r.checked_at) * 1000))), '[]'::jsonb)
         from rnd_results r where r.e164 = ${e164}) as rnd`,
  );
  return {
    hits: row?.hits ?? [],
    national_list_date: row?.national ?? null,
    national_ca_list_date: row?.national_ca ?? null,
    litigator_blocks: row?.litigator ?? true,
    rnd: (row?.rnd ?? []).map((a) => ({ ...a, checked_at: Number(a.checked_at) })),
  };
}

export async function getEntry(
  ex: Executor,
  orgId: string,
  list: SuppressionList,
  number: string,
): Promise<SuppressionEntry | null> {
  return first(
    rowsOf<SuppressionEntry>(
      ex,
      sql`select list, number::text as number, state, source, listed_on::text as listed_on,
          to_char(added_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as added_at
        from suppression_entries
        where org_id = ${orgId} and number = ${number}::bigint and list = ${list}`,
    ),
  );
}

export async function putEntry(ex: Executor, orgId: string, e: NewSuppressionEntry): Promise<void> {
  await ex.execute(sql`insert into suppression_entries
      (org_id, number, list, state, source, listed_on, added_at)
    values (${orgId}, ${e.number}::bigint, ${e.list}, ${e.state}, ${e.source}, ${e.listedOn}::date, ${e.at.toISOString()}::timestamptz)
    on conflict (org_id, number, list) do update set state = excluded.state,
      source = excluded.source, listed_on = excluded.listed_on, added_at = excluded.added_at`);
}

export async function deleteEntry(
  ex: Executor,
  orgId: string,
  list: SuppressionList,
  number: string,
): Promise<boolean> {
  const rows = await rowsOf<{ number: string }>(
    ex,
    sql`delete from suppression_entries where org_id = ${orgId} and number = ${number}::bigint
        and list = ${list} returning number::text as number`,
  );
  return rows.length > 0;
}

const arrayLiteral = (values: readonly (string | null)[]) =>
  `{${values.map((v) => (v === null ? 'NULL' : `"${v}"`)).join(',')}}`;

/**
 * Upserts one batch in one statement; returns how many numbers it added
 * (rows that were not on the list before). A number already on the list gets
 * this import's source, date and id (a replace keeps what the file names),
 * and is not counted. A number twice in one batch is written once, as its
 * last line says (one statement may not update a row twice).
 */
export async function upsertBatch(
  ex: Executor,
  orgId: string,
  b: BatchInfo,
  rows: readonly BatchRow[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const unique = [...new Map(rows.map((r) => [r.number, r])).values()];
  const numbers = `{${unique.map((r) => r.number).join(',')}}`;
  const states = arrayLiteral(unique.map((r) => r.state));
  const out = await rowsOf<{ n: number }>(
    ex,
    // xmax is 0 on a row version this statement inserted, the updating
    // transaction's id on one it updated.
    sql`with ins as (
      insert into suppression_entries (org_id, number, list, state, source, listed_on, added_at, import_id)
      select ${orgId}, n, ${b.list}, s, ${b.source}, ${b.listedOn}::date, ${b.at.toISOString()}::timestamptz, ${b.importId}
        from unnest(${numbers}::bigint[], ${states}::text[]) as u(n, s)
      on conflict (org_id, number, list) do update set state = excluded.state,
        source = excluded.source, listed_on = excluded.listed_on, import_id = excluded.import_id
      returning (xmax::text = '0') as inserted)
    select (count(*) filter (where inserted))::int as n from ins`,
  );
  return Number(out[0]?.n ?? 0);
}

export async function deleteBatch(
  ex: Executor,
  orgId: string,
  list: SuppressionList,
  numbers: readonly string[],
): Promise<number> {
  if (numbers.length === 0) return 0;
  const out = await rowsOf<{ n: number }>(
    ex,
    sql`with del as (delete from suppression_entries where org_id = ${orgId} and list = ${list}
        and number = any(${`{${numbers.join(',')}}`}::bigint[]) returning 1)
      select count(*)::int as n from del`,
  );
  return Number(out[0]?.n ?? 0);
}

/**
 * After a full-file import: removes the list's entries the file did not write, within the
 * scope the file covers (its NANP area codes for the national list, its states for a state list,
 * the whole list otherwise).
 */
export async function removeUntouched(
  ex: Executor,
  orgId: string,
  list: SuppressionList,
  importId: string,
  scope: { areaCodes?: readonly number[]; states?: readonly string[] },
): Promise<number> {
  let filter = sql``;
  if (scope.areaCodes) {
    filter = sql` and number between 10000000000 and 19999999999
      and ((number - 10000000000) / 10000000)::int = any(${`{${scope.areaCodes.join(',')}}`}::int[])`;
  } else if (scope.states) {
    filter = sql` and state = any(${arrayLiteral(scope.states)}::text[])`;
  }
  const out = await rowsOf<{ n: number }>(
    ex,
    sql`with del as (delete from suppression_entries where org_id = ${orgId} and list = ${list}
        and import_id is distinct from ${importId}${filter} returning 1)
      select count(*)::int as n from del`,
  );
  return Number(out[0]?.n ?? 0);
}

export async function recordImport(ex: Executor, r: ImportRecord): Promise<void> {
  await ex.execute(sql`insert into suppression_imports
    (id, org_id, list, mode, source, listed_on, rows, added, removed, rejected, started_at, finished_at, actor)
    values (${r.id}, ${r.orgId}, ${r.list}, ${r.mode}, ${r.source}, ${r.listedOn}::date, ${r.rows},
      ${r.added}, ${r.removed}, ${r.rejected}, ${r.startedAt.toISOString()}::timestamptz,
      ${r.finishedAt.toISOString()}::timestamptz, ${r.actor})`);
}

/** Newest national list date per organization that has imported one (for staleness notes). */
export async function nationalListDates(
  ex: Executor,
): Promise<{ org_id: string; listed_on: string }[]> {
  return rowsOf(
    ex,
    sql`select org_id, max(listed_on)::text as listed_on from suppression_imports
        where list = 'national' group by org_id`,
  );
}

export async function setLitigatorBlocks(
  ex: Executor,
  orgId: string,
  blocks: boolean,
  at: Date,
): Promise<void> {
  await ex.execute(sql`insert into suppression_settings (org_id, litigator_blocks, updated_at)
    values (${orgId}, ${blocks}, ${at.toISOString()}::timestamptz)
    on conflict (org_id) do update set litigator_blocks = excluded.litigator_blocks,
      updated_at = excluded.updated_at`);
}

export async function saveRndAnswer(
  ex: Executor,
  e164: string,
  a: RndAnswer & { checker: string },
): Promise<void> {
  await ex.execute(sql`insert into rnd_results (e164, consent_date, result, checker, checked_at)
    values (${e164}, ${a.consent_date}::date, ${a.result}, ${a.checker},
      ${new Date(a.checked_at).toISOString()}::timestamptz)
    on conflict (e164, consent_date) do update set result = excluded.result,
      checker = excluded.checker, checked_at = excluded.checked_at`);
}

/**
 * (number, consent date) pairs of current grants with no stored RND answer, or one checked
 * before `before`.
 */
export async function dueRndChecks(
  ex: Executor,
  before: Date,
  limit: number,
): Promise<{ e164: string; consent_date: string }[]> {
  return rowsOf<{ e164: string; consent_date: string }>(
    ex,
    positional(
      `select distinct g.e164, (g.captured_at at time zone 'UTC')::date::text as consent_date
       from consent_events g
       left join rnd_results r
         on r.e164 = g.e164 and r.consent_date = (g.captured_at at time zone 'UTC')::date
      where g.kind = 'grant' and (r.e164 is null or r.checked_at < $1::timestamptz)
      order by 1, 2
      limit $2`,
      [before.toISOString(), limit],
    ),
  );
}

/** `repos.suppression`. */
export function createSuppressionRepository(): SuppressionRepository {
  return {
    suppressionFacts,
    upsertBatch,
    deleteBatch,
    removeUntouched,
    recordImport,
    nationalListDates,
    getEntry,
    putEntry,
    deleteEntry,
    setLitigatorBlocks,
  };
}

/** `repos.rnd`: cached answers of the reassigned-numbers database. */
export function createRndRepository(): RndRepository {
  return { saveRndAnswer, dueRndChecks };
}
