import { existsSync } from 'node:fs';
import { configDefaults, defineConfig } from 'vitest/config';

const serverTests = ['apps/server/**/*.test.ts', 'packages/shared/**/*.test.ts'];

// The database suite runs on PGlite always, and again on PostgreSQL when TEST_DATABASE_URL is set.
// Suites whose subject is not the database engine run once, on PGlite: the request fuzzers and the
// authorization matrix (the same routes and SQL the feature suites run on both engines), session
// and cookie rules, process start-up and locking, the PGlite template, Google sign-in, the summary
// engines and GitHub client, the Janus SFU rooms.
const engineAgnostic = [
  'apps/server/test/security/**',
  'apps/server/src/main.test.ts',
  'apps/server/src/db/pglite-template.test.ts',
  'apps/server/src/features/accounts/google.test.ts',
  'apps/server/src/features/summaries/summaries.llm.test.ts',
  'apps/server/src/features/summaries/engine/**',
  'apps/server/src/features/projects/github.client.test.ts',
  'apps/server/src/features/workspaces/workspaces.policy.test.ts',
  'apps/server/src/features/calls/calls.sfu.test.ts',
];
const postgres = process.env.TEST_DATABASE_URL
  ? [
      {
        test: {
          name: 'server-postgres',
          include: ['apps/server/**/*.test.ts'],
          isolate: false,
          exclude: [...configDefaults.exclude, ...engineAgnostic],
          environment: 'node',
          env: { COHORT_TEST_DB: 'postgres' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ]
  : [];

export default defineConfig({
  test: {
    // Vitest's default leaves one of two cores idle (CPUs − 1 workers); the database suites also wait
    // on PostgreSQL and on their servers' sockets, so two workers keep both cores busy.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'server',
          include: serverTests,
          // Files share their worker's modules (each builds its own app and database): importing the
          // server once per worker instead of once per file saves about a fifth of the suite's time.
          isolate: false,
          environment: 'node',
          globalSetup: ['apps/server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...postgres,
      ...(existsSync('apps/web/vitest.config.ts') ? ['apps/web/vitest.config.ts'] : []),
    ],
  },
});
