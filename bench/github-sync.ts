// Project sync against the local fake GitHub API (apps/server/test/fakes/github.ts): linking a
// repository with 1,000 pull requests and 1,000 issues (time, requests, rate limit spent), then
// re-syncing it unchanged (must make only conditional requests, answered 304, costing no rate
// limit), then after one pull request changed. The whole app runs in-process on in-memory PGlite.
// `node --import tsx bench/github-sync.ts` (RUNS=3 by default).
import { createUser } from '../apps/server/test/factories.ts';
import { startFakeGithub } from '../apps/server/test/fakes/github.ts';
import { createTestApp } from '../apps/server/test/test-app.ts';
import { report } from './lib.ts';

const RUNS = Number(process.env.RUNS ?? 3);
const PULLS = 1_000;
const ISSUES = 1_000;

const fake = await startFakeGithub();
const t = await createTestApp({ env: { GITHUB_API_URL: fake.url, GITHUB_WEB_URL: 'https://github.com' } });
const user = await createUser(t.app);
const ws = await t.app.inject({
  method: 'POST',
  url: '/api/workspaces',
  headers: user.auth,
  payload: { name: `bench-${Date.now()}`, description: 'GitHub sync benchmark', members: [] },
});
const workspaceId = ws.json()._id as string;

type Row = Record<string, string | number>;
const rows: Row[] = [];

async function measure(label: string, run: () => Promise<{ statusCode: number; body: string }>) {
  fake.requests.length = 0;
  const used = fake.rateLimitUsed;
  const started = performance.now();
  const res = await run();
  const ms = performance.now() - started;
  if (res.statusCode >= 300) throw new Error(`${label}: ${res.statusCode} ${res.body}`);
  const project = JSON.parse(res.body);
  return {
    case: label,
    ms: Math.round(ms),
    requests: fake.requests.length,
    conditional: fake.requests.filter((r) => r.conditional).length,
    answered_304: fake.requests.filter((r) => r.status === 304).length,
    rate_limit_spent: fake.rateLimitUsed - used,
    pull_requests: project.pullRequests.length,
    issues: project.issues.length,
    id: project._id as string,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const results: Record<string, ReturnType<typeof measure> extends Promise<infer R> ? R[] : never> = {};
const keep = (r: Awaited<ReturnType<typeof measure>>) => {
  results[r.case] ??= [];
  results[r.case]?.push(r);
  return r;
};

for (let i = 0; i < RUNS; i++) {
  const repo = fake.addRepository('bench-org', `big-${i}`, { stars: 5000, forks: 300 }).seed(PULLS, ISSUES);
  const link = keep(
    await measure('link (first sync, 1,000 PRs + 1,000 issues)', () =>
      t.app.inject({
        method: 'POST',
        url: '/api/projects',
        headers: user.auth,
        payload: { repositoryUrl: `github.com/${repo.fullName}`, workspaceId },
      }),
    ),
  );
  const sync = () =>
    t.app.inject({ method: 'POST', url: `/api/projects/${link.id}/sync`, headers: user.auth, payload: {} });
  keep(await measure('re-sync, nothing changed', sync));
  const first = repo.items.find((item) => item.isPull);
  if (first) repo.update(first.number, { title: 'Changed for the benchmark', state: 'merged' });
  keep(await measure('re-sync, one pull request changed', sync));
}

for (const [label, runs] of Object.entries(results)) {
  const [first] = runs;
  if (!first) continue;
  const { id: _id, ms: _ms, case: _case, ...counts } = first;
  rows.push({
    case: label,
    runs: runs.length,
    median_ms: Math.round(median(runs.map((r) => r.ms))),
    ...counts,
  });
}
report('github-sync', rows);

const unchanged = results['re-sync, nothing changed'] ?? [];
if (
  unchanged.some((r) => r.requests !== r.conditional || r.answered_304 !== r.requests || r.rate_limit_spent)
) {
  console.error('An unchanged re-sync made an unconditional request or spent rate limit.');
  process.exitCode = 1;
}
await t.close();
await fake.close();
