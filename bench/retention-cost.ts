/**
 * What pruning a day of DNI sessions costs on PostgreSQL (docs/operations.md):
 * batched DELETEs, as src/retention/ runs them, against daily partitions
 * dropped whole. At 3,000 sessions/s a day is 259.2 M rows, too many for a
 * two-core test machine, so this measures a scaled day (ROWS, default 1 M)
 * beside a younger day of the same size and reports per-row rates to
 * extrapolate from.
 *
 *   npx tsx bench/retention-cost.ts [rows] [batch]
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test (default)
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openStore } from '../src/store/db.js';
import { pruneSessions } from '../src/store/repos/retention.js';

const ROWS = Number(process.argv[2] ?? 1_000_000);
const BATCH = Number(process.argv[3] ?? 2000);
const REFERENCED = 0.01; // share of sessions a recorded call points at
const DAY = 86_400_000;
const base = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const name = `retention_bench_${randomBytes(4).toString('hex')}`;
/** One connection, queried as tagged templates ($1… parameters) or raw text. */
async function connection(connectionString: string) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  const tag = async (strings: TemplateStringsArray, ...values: unknown[]) => {
    const text = strings.slice(1).reduce((acc, s, i) => `${acc}$${i + 1}${s}`, strings[0]!);
    return (await client.query(text, values)).rows;
  };
  return Object.assign(tag, {
    unsafe: async (text: string) => (await client.query(text)).rows,
    end: () => client.end(),
  });
}
const admin = await connection(base);
await admin.unsafe(`create database ${name}`);
const url = new URL(base);
url.pathname = `/${name}`;
const sql = await connection(url.toString());
const now = Date.parse('2026-06-01T00:00:00Z');
const oldDay = now - 100 * DAY; // past a 90-day retention
const youngDay = now - DAY;

const log = (s: string) => process.stdout.write(`${s}\n`);
const seconds = (t0: number) => (performance.now() - t0) / 1000;

async function fill(table: string, dayStart: number): Promise<void> {
  // Ids carry their creation millisecond (src/domain/ids.ts), as the service's do.
  await sql.unsafe(`
    insert into ${table} (id, org_id, campaign_id, visitor_id, tracking_number, kind,
      created_at, expires_at, last_seen_at, gclid, landing_url, utm_source)
    select 'ds_' || lpad(to_hex(${dayStart}::bigint + (i::bigint * ${DAY} / ${ROWS})), 12, '0')
             || substr(md5(i::text), 1, 20),
           'org_bench', 'cmp_bench', 'visitor-' || md5(i::text),
           '+1415' || lpad((2000000 + i % 60000)::text, 7, '0'), 'allocated',
           to_timestamp((${dayStart}::bigint + i::bigint * ${DAY} / ${ROWS}) / 1000.0),
           to_timestamp((${dayStart}::bigint + i::bigint * ${DAY} / ${ROWS}) / 1000.0) + interval '30 minutes',
           to_timestamp((${dayStart}::bigint + i::bigint * ${DAY} / ${ROWS}) / 1000.0),
           'Cj0KCQ' || md5(i::text), 'https://example.com/landing?x=' || i, 'google'
    from generate_series(0, ${ROWS} - 1) i`);
}

async function walBytes<T>(fn: () => Promise<T>): Promise<{ result: T; wal: number; s: number }> {
  const [a] = await sql`select pg_current_wal_lsn() as l`;
  const t0 = performance.now();
  const result = await fn();
  const s = seconds(t0);
  const [b] = await sql`select pg_wal_lsn_diff(pg_current_wal_lsn(), ${a!.l}) as d`;
  return { result, wal: Number(b!.d), s };
}

try {
  const store = await openStore({ databaseUrl: url.toString(), poolSize: 2 });
  await store.migrate();
  log(
    `# ${ROWS.toLocaleString('en')} sessions a day, batch ${BATCH}, ${REFERENCED * 100}% referenced by calls`,
  );

  let t0 = performance.now();
  await fill('dni_sessions', oldDay);
  await fill('dni_sessions', youngDay);
  await sql.unsafe(`
    insert into calls (id, org_id, campaign_id, dni_session_id, tracking_number, from_number,
      started_at, attribution)
    select 'call_' || substr(id, 4), org_id, campaign_id, id, tracking_number, '+13125550100',
           created_at + interval '5 minutes', 'session'
    from dni_sessions where id < 'ds_${Math.floor(oldDay + DAY)
      .toString(16)
      .padStart(12, '0')}'
      and random() < ${REFERENCED}`);
  await sql`vacuum analyze dni_sessions`;
  await sql`vacuum analyze calls`;
  log(`fill (2 days + calls): ${seconds(t0).toFixed(1)} s`);
  const [size] = await sql`select pg_total_relation_size('dni_sessions') as b`;
  log(`dni_sessions with 2 days: ${(Number(size!.b) / 2 ** 20).toFixed(0)} MiB`);

  // 1. Batched deletes, exactly as the retention job issues them.
  const batches: number[] = [];
  const del = await walBytes(async () => {
    let total = 0;
    let after = '';
    for (;;) {
      const b0 = performance.now();
      const r = await pruneSessions(store.db, { nowMs: now, days: 90, batch: BATCH, after });
      batches.push(performance.now() - b0);
      total += r.deleted;
      after = r.cursor;
      if (r.done) return total;
    }
  });
  batches.sort((a, b) => a - b);
  const p = (q: number) => batches[Math.min(batches.length - 1, Math.floor(q * batches.length))]!;
  log(
    `batched delete: ${del.result.toLocaleString('en')} rows in ${del.s.toFixed(1)} s = ` +
      `${Math.round(del.result / del.s).toLocaleString('en')} rows/s; ${batches.length} batches, ` +
      `p50 ${p(0.5).toFixed(0)} ms, p99 ${p(0.99).toFixed(0)} ms; WAL ${(del.wal / 2 ** 20).toFixed(0)} MiB`,
  );
  const vac = await walBytes(() => sql`vacuum dni_sessions`);
  log(`vacuum after the delete: ${vac.s.toFixed(1)} s, WAL ${(vac.wal / 2 ** 20).toFixed(0)} MiB`);
  const [kept] =
    await sql`select count(*)::int as n from dni_sessions where created_at < ${new Date(oldDay + DAY)}`;
  log(`old-day sessions kept (a call points at them): ${kept!.n}`);

  // 2. Daily partitions: the same two days, the old one dropped whole after
  // copying out the sessions calls point at (the rule keeps those).
  await sql.unsafe(`
    create table sessions_part (like dni_sessions including defaults) partition by range (created_at);
    create table sessions_part_old partition of sessions_part
      for values from ('${new Date(oldDay).toISOString()}') to ('${new Date(oldDay + DAY).toISOString()}');
    create table sessions_part_young partition of sessions_part
      for values from ('${new Date(youngDay).toISOString()}') to ('${new Date(youngDay + DAY).toISOString()}');
    create index on sessions_part (campaign_id, visitor_id, expires_at);
    create index on sessions_part (tracking_number, created_at);
    create table sessions_kept (like dni_sessions including all);`);
  t0 = performance.now();
  await fill('sessions_part', oldDay);
  await fill('sessions_part', youngDay);
  log(`fill partitioned copy: ${seconds(t0).toFixed(1)} s`);
  const drop = await walBytes(async () => {
    const c0 = performance.now();
    await sql.unsafe(`
      insert into sessions_kept select s.* from sessions_part_old s
      where exists (select 1 from calls c where c.dni_session_id = s.id)`);
    const copy = seconds(c0);
    const d0 = performance.now();
    await sql.unsafe('alter table sessions_part detach partition sessions_part_old');
    await sql.unsafe('drop table sessions_part_old');
    return { copy, drop: seconds(d0) };
  });
  log(
    `partition: copy referenced out ${drop.result.copy.toFixed(2)} s, detach + drop ${(drop.result.drop * 1000).toFixed(0)} ms; WAL ${(drop.wal / 2 ** 20).toFixed(1)} MiB`,
  );
  await store.close();
} finally {
  await sql.end();
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
}
