import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import * as consoleSchema from '../../src/store/schema/console.js';
import * as conversions from '../../src/store/schema/conversions.js';
import * as schema from '../../src/store/schema/index.js';
import * as outbound from '../../src/store/schema/outbound.js';
import * as reports from '../../src/store/schema/reports.js';
import * as routing from '../../src/store/schema/routing.js';
import * as webhooks from '../../src/store/schema/webhooks.js';
import { useHarness } from '../helpers/harness.js';

/**
 * The Drizzle schema (src/store/schema/) against the database the numbered migrations build,
 * on both stores: every table Drizzle declares has exactly the columns the migrations made, of
 * the same type, nullability and default, and the same indexes. A column added to a migration
 * only, or to the schema only, fails here. Tables only raw SQL touches are listed by name, so a
 * new one is a decision, not an accident.
 */
const h = useHarness();

/** Tables the repositories reach with raw SQL only (no Drizzle declaration needed). */
const RAW_SQL_TABLES = [
  // The report read model (migration 0022): written by the DNI batch statement and by triggers,
  // read by src/store/queries/reports.ts, all raw SQL.
  'report_callers',
  'report_calls',
  'report_day_zones',
  'report_touch_days',
  'report_touch_deltas',
  'report_touch_rollups',
  'report_traffic_days',
  'report_traffic_deltas',
  'report_traffic_rollups',
  'retention_cursors',
  'retention_leases',
  'rnd_results',
  'suppression_entries',
  'suppression_imports',
  'suppression_settings',
];

const isTable = (v: unknown): v is PgTable =>
  typeof v === 'object' && v !== null && Symbol.for('drizzle:IsDrizzleTable') in v;

const drizzleTables = new Map<string, PgTable>();
for (const mod of [schema, consoleSchema, conversions, outbound, reports, routing, webhooks]) {
  for (const v of Object.values(mod)) if (isTable(v)) drizzleTables.set(getTableConfig(v).name, v);
}

interface Column {
  type: string;
  notNull: boolean;
  hasDefault: boolean;
}

/** What Drizzle says a column is, in the words format_type() uses. */
function drizzleColumns(t: PgTable): Record<string, Column> {
  const out: Record<string, Column> = {};
  for (const c of getTableConfig(t).columns) {
    // format_type() writes numeric(12,2) where Drizzle writes numeric(12, 2).
    const sqlType = c.getSQLType().replace(/, /g, ',');
    const serial = sqlType === 'bigserial' || sqlType === 'serial';
    out[c.name] = {
      type: sqlType === 'bigserial' ? 'bigint' : sqlType === 'serial' ? 'integer' : sqlType,
      notNull: c.notNull,
      hasDefault: c.hasDefault || serial,
    };
  }
  return out;
}

function drizzleIndexes(t: PgTable): string[] {
  const c = getTableConfig(t);
  return [
    ...c.indexes.map((i) => i.config.name as string),
    ...c.uniqueConstraints.map((u) => u.getName() as string),
    ...c.primaryKeys.map((k) => k.getName()),
    // A column's primary key, named as PostgreSQL names it.
    ...(c.columns.some((col) => col.primary) ? [`${c.name}_pkey`] : []),
  ].sort();
}

async function databaseColumns(table: string): Promise<Record<string, Column>> {
  const rows = await h.store.query<{
    name: string;
    type: string;
    not_null: boolean;
    has_default: boolean;
  }>(
    `select a.attname as name, format_type(a.atttypid, a.atttypmod) as type,
            a.attnotnull as not_null, a.atthasdef as has_default
       from pg_attribute a join pg_class c on c.oid = a.attrelid
       join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relname = $1 and a.attnum > 0 and not a.attisdropped
      order by a.attnum`,
    [table],
  );
  return Object.fromEntries(
    rows.map((r) => [r.name, { type: r.type, notNull: r.not_null, hasDefault: r.has_default }]),
  );
}

async function databaseIndexes(table: string): Promise<string[]> {
  const rows = await h.store.query<{ name: string }>(
    `select indexname as name from pg_indexes where schemaname = 'public' and tablename = $1
      order by 1`,
    [table],
  );
  return rows.map((r) => r.name).sort();
}

describe('the Drizzle schema and the migrated database', () => {
  it('have the same tables (besides the raw-SQL ones listed here)', async () => {
    const rows = await h.store.query<{ name: string }>(
      `select tablename as name from pg_tables
        where schemaname = 'public' and tablename not like '\\_\\_%'`,
      [],
    );
    const inDatabase = rows.map((r) => r.name).filter((n) => !n.startsWith('__drizzle'));
    expect(inDatabase.filter((n) => !drizzleTables.has(n)).sort()).toEqual(RAW_SQL_TABLES);
    expect([...drizzleTables.keys()].filter((n) => !inDatabase.includes(n))).toEqual([]);
  });

  for (const [name, table] of drizzleTables) {
    it(`${name}: columns, types, nullability, defaults and indexes`, async () => {
      expect(await databaseColumns(name)).toEqual(drizzleColumns(table));
      expect(await databaseIndexes(name)).toEqual(drizzleIndexes(table));
    });
  }
});
