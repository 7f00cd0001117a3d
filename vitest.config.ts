import { existsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const serverTests = ['apps/server/**/*.test.ts', 'packages/shared/**/*.test.ts'];

// The database suite runs on PGlite always, and again on PostgreSQL when TEST_DATABASE_URL is set.
const postgres = process.env.TEST_DATABASE_URL
  ? [
      {
        test: {
          name: 'server-postgres',
          include: ['apps/server/**/*.test.ts'],
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
    projects: [
      {
        test: {
          name: 'server',
          include: serverTests,
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
