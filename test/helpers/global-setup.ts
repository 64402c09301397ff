/**
 * Once per test run: one migrated database that every worker (and every file
 * that needs a database of its own) copies instead of migrating its own. On
 * the embedded store that is a
 * data directory image (loading it skips initdb: ~0.9 s of CPU instead of
 * ~3.5 s per file) and the migrated data directory itself, which a test that
 * starts server processes copies as their DATA_DIR (a fresh one costs each
 * first start initdb and every migration); on PostgreSQL a template database
 * (CREATE DATABASE … TEMPLATE copies files instead of running the migrations).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { openStore } from '../../src/store/db.js';
import { dropDatabases, scratchDatabase, workerDatabasePrefix } from './scratch-database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding the migrated embedded data directory image. */
    pgliteImage: string;
    /** A migrated embedded data directory, to copy (never to open: no lock file). */
    pgliteDataDir: string;
    /** The migrated template database on TEST_DATABASE_URL ('' without one). */
    postgresTemplate: string;
  }
}

interface Prepared {
  imageFile: string;
  dataDir: string;
  template: string;
  cleanup(): Promise<void>;
}

async function prepare(): Promise<Prepared> {
  const dir = mkdtempSync(join(tmpdir(), 'tracking-test-image-'));
  const dataDir = join(dir, 'data');
  const store = await openStore({ dataDir });
  await store.migrate();
  const imageFile = join(dir, 'pglite.tar');
  writeFileSync(imageFile, Buffer.from(await (await store.image!()).arrayBuffer()));
  await store.close();

  const template = process.env.TEST_DATABASE_URL
    ? await scratchDatabase('tracking_template')
    : undefined;
  if (template) {
    const t = await openStore({ databaseUrl: template.url, poolSize: 2 });
    await t.migrate();
    await t.close();
  }
  return {
    imageFile,
    dataDir,
    template: template?.name ?? '',
    async cleanup() {
      rmSync(dir, { recursive: true, force: true });
      if (template) await dropDatabases(workerDatabasePrefix(template.name));
      await template?.drop();
    },
  };
}

/**
 * dist/ as `npm start` would run it (scripts/ensure-build.mjs: compiles only
 * when a source is newer than the last build), for the suites that start the
 * service as processes (test/helpers/processes.ts, builtArgs).
 */
async function build(): Promise<void> {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  try {
    await promisify(execFile)(process.execPath, ['scripts/ensure-build.mjs'], {
      cwd: root,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(
      `the service's build failed, which the process suites run:\n${stdout}${stderr}`,
    );
  }
}

// Every store project of a run shares one image and one template, and the
// process suites one build (vitest runs each project's global setup in the
// same main process).
const shared = globalThis as {
  trackingTestDb?: { users: number; ready: Promise<Prepared> };
  trackingTestBuild?: Promise<void>;
};
const startsProcesses = (project: TestProject) => /^(e2e|faults)\b/.test(project.name);

export default async function setup(project: TestProject) {
  if (startsProcesses(project)) {
    shared.trackingTestBuild ??= build();
    await shared.trackingTestBuild;
  }
  shared.trackingTestDb ??= { users: 0, ready: prepare() };
  const entry = shared.trackingTestDb;
  entry.users++;
  const prepared = await entry.ready;
  project.provide('pgliteImage', prepared.imageFile);
  project.provide('pgliteDataDir', prepared.dataDir);
  project.provide('postgresTemplate', prepared.template);
  return async () => {
    if (--entry.users > 0) return;
    if (shared.trackingTestDb === entry) shared.trackingTestDb = undefined;
    await prepared.cleanup();
  };
}
