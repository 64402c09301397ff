import { defineConfig } from 'vitest/config';

const storeSuites = ['test/http/**/*.test.ts', 'test/e2e/**/*.test.ts'];

// Every store-facing suite runs on the embedded store and, when
// TEST_DATABASE_URL is set, again on PostgreSQL.
const stores = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export default defineConfig({
  test: {
    // Two workers fit 2 cores; each store-facing file opens its own database.
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true as const, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      ...stores.map((store) => ({
        extends: true as const,
        test: { name: store, include: storeSuites, env: { TEST_STORE: store } },
      })),
    ],
  },
});
