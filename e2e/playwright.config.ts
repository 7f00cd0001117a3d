import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.ts';
import { TEST_SERVER_ARGS, testServerEnv } from './test-server.ts';

// E2E_PORT lets several checkouts (worktrees) run their journeys side by side.
const PORT = Number(process.env.E2E_PORT ?? 3210);
const baseURL = `http://127.0.0.1:${PORT}`;
// The projects journeys talk to a fake GitHub API (apps/server/test/fakes/github.ts), never to GitHub.
const FAKE_GITHUB_PORT = PORT + 1000;
const fakeGithubUrl = `http://127.0.0.1:${FAKE_GITHUB_PORT}`;
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

// Every run gets a fresh, empty database. Workers re-read this file, so the directory is created
// once (by the runner) and handed to them through the environment.
if (!process.env.COHORT_E2E_DATA_DIR) {
  const dataDir = mkdtempSync(join(tmpdir(), 'cohort-e2e-'));
  process.env.COHORT_E2E_DATA_DIR = dataDir;
  process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
}
const dataDir = process.env.COHORT_E2E_DATA_DIR;

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 2,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Two browsers, the server and the fake GitHub share 2 cores: generous limits keep a busy machine
  // from failing a journey that is only slow (a broken one still fails, later).
  timeout: 120_000,
  // 10 s was short for a first page load on a 2-core machine running two journeys and their browsers.
  expect: { timeout: 20_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
    baseURL,
    trace: 'retain-on-failure',
    launchOptions: chromiumLaunchOptions,
  },
  projects: [
    { name: 'journeys', testIgnore: '**/calls-sfu.spec.ts' },
    // Eight browsers in one meeting take both cores: that journey runs after the others, alone,
    // rather than starving (and being starved by) a journey on the other worker. On its own:
    // `npx playwright test -c e2e/playwright.config.ts --project 'meeting of eight' --no-deps`.
    { name: 'meeting of eight', testMatch: '**/calls-sfu.spec.ts', dependencies: ['journeys'] },
  ],
  webServer: [
    {
      command: 'node --import tsx apps/server/test/fakes/github-server.ts',
      cwd: repoRoot,
      url: `${fakeGithubUrl}/repos/cohort-e2e/hello-world`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { FAKE_GITHUB_PORT: String(FAKE_GITHUB_PORT) },
    },
    // The real server (API + built SPA from apps/web/dist) on a temporary PGlite database.
    {
      command: ['node', ...TEST_SERVER_ARGS].join(' '),
      cwd: repoRoot,
      url: `${baseURL}/readyz`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        ...testServerEnv(PORT, dataDir),
        // An unanswered call rings out after this (30 s in production): short enough for the
        // missed-call journey, long enough for the others to answer on a busy two-core machine.
        CALL_RING_TIMEOUT_MS: '45000',
        GITHUB_API_URL: fakeGithubUrl,
        // The fake replays recordings whose links point at github.com.
        GITHUB_WEB_URL: 'https://github.com',
        GITHUB_TOKEN: '',
        GITHUB_WEBHOOK_SECRET: '',
      },
    },
  ],
});
