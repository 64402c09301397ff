/** Databases on TEST_DATABASE_URL (node-postgres only: the global setup imports this too). */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface ScratchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/**
 * A new database on TEST_DATABASE_URL: empty, or a copy of `template`
 * (isolation without touching the migrations).
 */
export async function scratchDatabase(prefix: string, template?: string): Promise<ScratchDatabase> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('the PostgreSQL suites need TEST_DATABASE_URL');
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

/**
 * The names of a run's worker databases start so (test/helpers/store.ts's
 * openWorkerStore): no file closes them, the run's global teardown drops them.
 */
export const workerDatabasePrefix = (template: string) => `${template}_worker`;

/** Drops every database on TEST_DATABASE_URL whose name starts with `prefix`. */
export async function dropDatabases(prefix: string): Promise<void> {
  const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await c.connect();
  try {
    const { rows } = await c.query<{ datname: string }>(
      'select datname from pg_database where left(datname, length($1)) = $1',
      [prefix],
    );
    for (const { datname } of rows) {
      await c.query(`drop database if exists "${datname}" with (force)`);
    }
  } finally {
    await c.end();
  }
}
