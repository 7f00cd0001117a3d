import { startFakeGithub } from './github.ts';

/**
 * The fake GitHub API as a process, for the Playwright journeys (e2e/playwright.config.ts starts it
 * before the app and points GITHUB_API_URL at it): `node --import tsx apps/server/test/fakes/github-server.ts`.
 * Port from FAKE_GITHUB_PORT. Serves one seeded public repository, cohort-e2e/hello-world.
 */
const port = Number(process.env.FAKE_GITHUB_PORT ?? 4210);
const fake = await startFakeGithub({ port });

const repo = fake.addRepository('cohort-e2e', 'hello-world', { stars: 128, forks: 16 });
repo.addIssue({ title: 'Crash when the list is empty', author: 'grace' });
repo.addPull({ title: 'Fix the empty list crash', state: 'merged', author: 'grace' });
repo.addIssue({ title: 'Document the setup', state: 'closed', author: 'linus' });
repo.addPull({ title: 'Try a different parser', state: 'closed', author: 'linus' });
repo.addPull({ title: 'Add dark mode', author: 'ada' });

// Hostile titles for e2e/xss.spec.ts: text from GitHub must render as text.
const hostile = fake.addRepository('cohort-e2e', 'xss', { stars: 1, forks: 0 });
hostile.addPull({ title: '<img src=x onerror="window.__xss=\'pr\'">', author: 'mallory' });
hostile.addPull({ title: '"><svg onload="window.__xss=\'pr-svg\'">', author: 'mallory' });
hostile.addIssue({ title: '<script>window.__xss="issue"</script>', author: 'mallory' });

console.log(`fake GitHub API on ${fake.url}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void fake.close().then(() => process.exit(0));
  });
}
