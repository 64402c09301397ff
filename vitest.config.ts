import { defineConfig } from 'vitest/config';

// Every store-facing suite runs on the embedded store and, when
// TEST_DATABASE_URL is set, again on PostgreSQL.
const stores = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

// The end-to-end suites (test/e2e) start server processes and SIGKILL them,
// run npm start, a browser and the pool simulator: opt-in locally with
// TEST_E2E=1, always on in CI (.ci/run).
const e2e = process.env.TEST_E2E === '1';

// The fault-injection suite (test/faults) kills connections, cuts PostgreSQL
// and Redis behind a proxy, and starts server processes: opt-in locally with
// TEST_FAULTS=1, always on in CI (.ci/run). It needs TEST_DATABASE_URL.
const faults = process.env.TEST_FAULTS === '1';

const storeProject = (
  suite: 'http' | 'e2e' | 'faults',
  store: string,
  name = `${suite}:${store}`,
) => ({
  extends: true as const,
  test: {
    name,
    include: [`test/${suite}/**/*.test.ts`],
    env: { TEST_STORE: store },
    globalSetup: ['test/helpers/global-setup.ts'],
    // Every answer of the HTTP suites is checked against the OpenAPI documents.
    ...(suite === 'http' ? { setupFiles: ['test/helpers/conformance-setup.ts'] } : {}),
    // The fault suite compares latency with and without a fault in one run; it goes after the
    // others, so that a load test of theirs (64 busy connections through SIGTERM) never shares
    // the two cores with one of its phases only.
    ...(suite === 'faults' ? { sequence: { groupOrder: 1 } } : {}),
  },
});

export default defineConfig({
  test: {
    // Two workers fit 2 cores; each has one database that its store-facing
    // files share, a tenant per test (test/helpers/store.ts, openWorkerStore).
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    // A worker runs its files one after another in one module graph: the
    // imports (Fastify, PGlite's WebAssembly, libphonenumber…) load once per
    // worker, not once per file, which was a third of the run; so does the
    // worker's database. Every file opens and closes its own apps, and nothing
    // mocks modules.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true as const, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      ...stores.map((store) => storeProject('http', store)),
      ...(e2e ? stores.map((store) => storeProject('e2e', store)) : []),
      ...(faults ? [storeProject('faults', 'postgres', 'faults')] : []),
    ],
  },
});
