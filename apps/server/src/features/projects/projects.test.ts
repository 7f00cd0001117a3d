import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MANUAL_SYNCS_PER_MINUTE, PROJECT_MESSAGES, type Project } from '@cohort/shared/projects';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { type FakeGithub, type FakeRepository, startFakeGithub } from '../../../test/fakes/github.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { projectItems, projects } from '../../db/schema.ts';
import { addMember, client, createWorkspace } from '../workspaces/test-fixtures.ts';

const WEBHOOK_SECRET = 'it-is-a-secret';
const TOKEN = 'ghp_fake_token_for_private_repositories';

let fake: FakeGithub;
let t: TestApp;
let api: ReturnType<typeof client>;
let admin: TestUser;
let editor: TestUser;
let viewer: TestUser;
let outsider: TestUser;
let workspaceId: string;
let otherWorkspaceId: string;
let seq = 0;

/** A fresh repository on the fake for each test, so tests do not share items or ETags. */
function repository(pulls = 0, issues = 0, opts: { private?: boolean; stars?: number; forks?: number } = {}) {
  seq++;
  return fake.addRepository('octo-org', `repo-${seq}`, opts).seed(pulls, issues);
}

async function link(repo: FakeRepository, as = editor, ws = workspaceId) {
  const res = await api.post('/api/projects', as, {
    repositoryUrl: `https://github.com/${repo.fullName}`,
    workspaceId: ws,
    addedBy: outsider.email,
  });
  if (res.statusCode !== 201) throw new Error(`link failed: ${res.statusCode} ${res.body}`);
  return res.json() as Project;
}

async function listed(projectId: string, ws = workspaceId) {
  const res = await api.get(`/api/workspaces/${ws}/projects`, viewer);
  expect(res.statusCode).toBe(200);
  return (res.json() as Project[]).find((p) => p._id === projectId);
}

const sync = (projectId: string, as = editor) => api.post(`/api/projects/${projectId}/sync`, as, {});
const assign = (projectId: string, kind: string, itemId: string, userId: string | null, as = editor) =>
  api.patch(`/api/projects/${projectId}/${kind}/${itemId}/assign`, as, { userId });

beforeAll(async () => {
  fake = await startFakeGithub({ token: TOKEN });
  t = await createTestApp({
    env: {
      GITHUB_API_URL: fake.url,
      GITHUB_WEB_URL: 'https://github.com',
      GITHUB_WEBHOOK_SECRET: WEBHOOK_SECRET,
      GITHUB_SYNC_MINUTES: '10',
    },
  });
  api = client(t);
  admin = await createUser(t.app, { firstName: 'Ada', lastName: 'Admin' });
  editor = await createUser(t.app, { firstName: 'Ed', lastName: 'Editor' });
  viewer = await createUser(t.app, { firstName: 'Vi', lastName: 'Viewer' });
  outsider = await createUser(t.app, { firstName: 'Out', lastName: 'Sider' });
  const ws = await createWorkspace(t, admin, {
    members: [
      { email: editor.email, role: 'editor' },
      { email: viewer.email, role: 'viewer' },
    ],
  });
  workspaceId = ws._id;
  otherWorkspaceId = (
    await createWorkspace(t, outsider, { members: [{ email: editor.email, role: 'editor' }] })
  )._id;
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.failure = null;
});

describe('linking a repository', () => {
  it('syncs it within the request: metadata, pull requests and issues with mapped states, newest first', async () => {
    const repo = repository(0, 0, { stars: 42, forks: 7 });
    repo.addPull({ title: 'Open PR', state: 'open', author: 'alice' });
    repo.addIssue({ title: 'Open issue', author: 'bob' });
    repo.addPull({ title: 'Merged PR', state: 'merged' });
    repo.addIssue({ title: 'Closed issue', state: 'closed' });
    repo.addPull({ title: 'Closed PR', state: 'closed' });
    const before = Date.now();

    const project = await link(repo);

    expect(project).toMatchObject({
      name: repo.name,
      fullName: repo.fullName,
      repositoryUrl: `https://github.com/${repo.fullName}`,
      workspaceId,
      stars: 42,
      forks: 7,
      lastSyncError: null,
      addedBy: editor.email,
    });
    expect(Date.parse(project.lastSynced ?? '')).toBeGreaterThanOrEqual(before - 1000);
    expect(project.pullRequests.map((p) => [p.title, p.state])).toEqual([
      ['Closed PR', 'closed'],
      ['Merged PR', 'merged'],
      ['Open PR', 'open'],
    ]);
    // Pull requests are excluded from the issues (GitHub lists them among issues too).
    expect(project.issues.map((i) => [i.title, i.state])).toEqual([
      ['Closed issue', 'closed'],
      ['Open issue', 'open'],
    ]);
    const openPr = project.pullRequests[2];
    expect(openPr).toMatchObject({
      number: 1,
      url: `https://github.com/${repo.fullName}/pull/1`,
      author: 'alice',
      assignee: null,
      createdAt: repo.item(1).createdAt.toISOString(),
    });
    expect(project.issues[1]?.url).toBe(`https://github.com/${repo.fullName}/issues/2`);
    expect(await listed(project._id)).toEqual(project);
  });

  it('reads every page past 100 items through the Link headers', async () => {
    const repo = repository(230, 120);
    fake.requests.length = 0;
    const project = await link(repo);
    expect(project.pullRequests).toHaveLength(230);
    expect(project.issues).toHaveLength(120);
    expect(new Set(project.pullRequests.map((p) => p.number)).size).toBe(230);
    const paths = fake.requests.map((r) => r.path);
    expect(paths.filter((p) => p.includes('/pulls?'))).toHaveLength(3);
    // 350 entries in the issues listing (pull requests included): four pages.
    expect(paths.filter((p) => p.includes('/issues?'))).toHaveLength(4);
    expect(paths.some((p) => p.includes('/pulls?') && p.includes('page=3'))).toBe(true);
  });

  it('accepts the documented URL forms and refuses a repeat link in the same workspace with 409', async () => {
    const repo = repository(1, 1);
    await link(repo);
    for (const url of [
      `https://github.com/${repo.fullName}`,
      `github.com/${repo.fullName.toUpperCase()}.git`,
      `https://www.github.com/${repo.fullName}/`,
    ]) {
      const res = await api.post('/api/projects', editor, { repositoryUrl: url, workspaceId });
      expect(res.statusCode, url).toBe(409);
      expect(res.json().message).toBe(PROJECT_MESSAGES.alreadyLinked);
    }
    // Another workspace may link the same repository once.
    expect((await link(repo, editor, otherWorkspaceId)).fullName).toBe(repo.fullName);
  });

  it('answers 400 with the spec messages for a blank or invalid URL', async () => {
    const blank = await api.post('/api/projects', editor, { repositoryUrl: '   ', workspaceId });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toEqual({ message: PROJECT_MESSAGES.urlRequired, field: 'repositoryUrl' });
    const invalid = await api.post('/api/projects', editor, {
      repositoryUrl: 'https://gitlab.com/a/b',
      workspaceId,
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toEqual({ message: PROJECT_MESSAGES.urlInvalid, field: 'repositoryUrl' });
  });

  it.each([
    'http://169.254.169.254/',
    'http://169.254.169.254/latest/meta-data/owner/repo',
    'https://github.com@evil.example/a/b',
    'https://github.com.evil.example/a/b',
    'http://127.0.0.1:6379',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'http://github.com/owner/repo',
    'https://github.com:8080/owner/repo',
    'https://github.com/owner/..',
    'https://github.com/../repo',
    'https://github.com/owner/a..b',
    'https://github.com/owner/%2e%2e',
    'https://github.com/%2e%2e/repo',
    'https://github.com/own er/repo',
    'https://github.com/owner/re po',
    'https://github.com/owner/repo/../../x',
    'https://github.com/owner/repo?x=1',
    'https://github.com/owner/repo#frag',
    'https://github.com/owner',
  ])('refuses %s without any outbound request', async (repositoryUrl) => {
    fake.requests.length = 0;
    const res = await api.post('/api/projects', editor, { repositoryUrl, workspaceId });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(PROJECT_MESSAGES.urlInvalid);
    expect(fake.requests).toEqual([]);
  });

  it('answers 404 for a repository that does not exist or is private, and stores nothing', async () => {
    const secret = repository(1, 1, { private: true });
    for (const url of ['https://github.com/octo-org/no-such-repo', `https://github.com/${secret.fullName}`]) {
      const res = await api.post('/api/projects', editor, { repositoryUrl: url, workspaceId });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ message: 'Repository not found or not accessible' });
    }
    const names = (await t.ctx.db.select().from(projects)).map((p) => p.repo);
    expect(names).not.toContain('no-such-repo');
    expect(names).not.toContain(secret.name);
  });

  it('answers 503 with the reset time when GitHub rate-limits, and 502 when GitHub is down; nothing stored', async () => {
    const repo = repository(1, 1);
    fake.failure = 'rate-limit';
    const limited = await api.post('/api/projects', editor, {
      repositoryUrl: `github.com/${repo.fullName}`,
      workspaceId,
    });
    expect(limited.statusCode).toBe(503);
    expect(limited.json().message).toBe(
      `GitHub rate limit reached. Try again after ${new Date(fake.rateLimitReset * 1000).toISOString()}`,
    );
    fake.failure = 'server-error';
    const down = await api.post('/api/projects', editor, {
      repositoryUrl: `github.com/${repo.fullName}`,
      workspaceId,
    });
    expect(down.statusCode).toBe(502);
    expect(down.json().message).toBe(PROJECT_MESSAGES.githubUnavailable);
    const stored = await t.ctx.db.select().from(projects).where(eq(projects.repo, repo.name));
    expect(stored).toEqual([]);
  });

  it('follows no redirect to another host', async () => {
    let otherHostRequests = 0;
    const other = createServer((_req, res) => {
      otherHostRequests++;
      res.end('{}');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const { port } = other.address() as AddressInfo;
    const repo = repository(1, 1);
    fake.redirects.set(`${repo.owner}/${repo.name}`.toLowerCase(), `http://127.0.0.1:${port}/repos/x/y`);
    try {
      const res = await api.post('/api/projects', editor, {
        repositoryUrl: `github.com/${repo.fullName}`,
        workspaceId,
      });
      expect(res.statusCode).toBe(502);
      expect(otherHostRequests).toBe(0);
    } finally {
      fake.redirects.clear();
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });
});

describe('re-syncing', () => {
  it('sends the stored ETags: an unchanged repository costs only conditional requests answered 304', async () => {
    const repo = repository(120, 30);
    const project = await link(repo);
    fake.requests.length = 0;
    const usedBefore = fake.rateLimitUsed;
    t.advance(60_000);

    const res = await sync(project._id);

    expect(res.statusCode).toBe(200);
    expect(fake.requests).toHaveLength(3);
    expect(fake.requests.every((r) => r.conditional && r.status === 304)).toBe(true);
    expect(fake.rateLimitUsed).toBe(usedBefore);
    const synced = res.json() as Project;
    expect(Date.parse(synced.lastSynced ?? '')).toBeGreaterThan(Date.parse(project.lastSynced ?? ''));
    expect(synced.pullRequests).toEqual(project.pullRequests);
  });

  it('picks up changes, keeps assignments and drops items GitHub no longer lists', async () => {
    const repo = repository(3, 2);
    const project = await link(repo);
    const pr = project.pullRequests.find((p) => p.number === repo.items.find((i) => i.isPull)?.number);
    const issue = project.issues[0];
    if (!pr || !issue) throw new Error('fixture');
    expect((await assign(project._id, 'pullrequest', pr.id, viewer.id)).statusCode).toBe(200);
    expect((await assign(project._id, 'issue', issue.id, editor.id)).statusCode).toBe(200);

    repo.update(pr.number, { title: 'Renamed on GitHub', state: 'merged' });
    repo.update(issue.number, { state: 'closed' });
    const gone = repo.items.find((i) => i.isPull && i.number !== pr.number);
    if (gone) repo.remove(gone.number);
    repo.stars = 99;
    const res = await sync(project._id);

    expect(res.statusCode).toBe(200);
    const synced = res.json() as Project;
    expect(synced.stars).toBe(99);
    expect(synced.pullRequests.find((p) => p.id === pr.id)).toMatchObject({
      title: 'Renamed on GitHub',
      state: 'merged',
      assignee: viewer.id,
    });
    expect(synced.issues.find((i) => i.id === issue.id)).toMatchObject({
      state: 'closed',
      assignee: editor.id,
    });
    expect(synced.pullRequests.map((p) => p.number)).not.toContain(gone?.number);
    expect(synced.pullRequests).toHaveLength(2);
  });

  it('takes a few manual syncs per project and minute, however many arrive at once', async () => {
    const repo = repository(1, 1);
    const project = await link(repo);
    fake.requests.length = 0;
    // One after another: the budget, then a clear 429.
    for (let i = 0; i < MANUAL_SYNCS_PER_MINUTE; i++) expect((await sync(project._id)).statusCode).toBe(200);
    const refused = await sync(project._id);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(PROJECT_MESSAGES.syncTooOften);
    expect(refused.headers['retry-after']).toBeDefined();
    t.advance(61_000);
    // At once: the budget is reserved before GitHub is asked, so no more than it reach GitHub.
    fake.requests.length = 0;
    const burst = await Promise.all(Array.from({ length: 8 }, () => sync(project._id)));
    expect(burst.filter((r) => r.statusCode === 429)).toHaveLength(8 - MANUAL_SYNCS_PER_MINUTE);
    t.advance(61_000);
    expect((await sync(project._id)).statusCode).toBe(200);
  });

  it('keeps the last synced data and shows the error when GitHub fails', async () => {
    const repo = repository(2, 2);
    const project = await link(repo);
    repo.update(repo.items[0]?.number ?? 1, { title: 'Not seen while GitHub is down' });

    fake.failure = 'server-error';
    const down = await sync(project._id);
    expect(down.statusCode).toBe(502);
    const kept = await listed(project._id);
    expect(kept?.pullRequests).toEqual(project.pullRequests);
    expect(kept?.lastSynced).toBe(project.lastSynced);
    expect(kept?.lastSyncError).toBe(PROJECT_MESSAGES.githubUnavailable);

    fake.failure = 'rate-limit';
    const limited = await sync(project._id);
    expect(limited.statusCode).toBe(503);
    expect((await listed(project._id))?.lastSyncError).toMatch(
      /^GitHub rate limit reached\. Try again after /,
    );

    fake.failure = null;
    expect((await sync(project._id)).statusCode).toBe(200);
    const recovered = await listed(project._id);
    expect(recovered?.lastSyncError).toBeNull();
    expect(recovered?.pullRequests.map((p) => p.title)).toContain('Not seen while GitHub is down');
  });

  it('re-syncs in the background every GITHUB_SYNC_MINUTES, one node per project', async () => {
    const repo = repository(1, 1);
    const project = await link(repo);
    repo.update(repo.items[0]?.number ?? 1, { title: 'Changed for the background sync' });
    // A second node on the same database.
    const second = await buildApp({
      config: loadConfig({
        LOG_LEVEL: 'silent',
        GITHUB_API_URL: fake.url,
        GITHUB_WEB_URL: 'https://github.com',
        GITHUB_SYNC_MINUTES: '10',
      }),
      database: t.database,
      logger: false,
      now: t.ctx.now,
    });
    await second.app.ready();
    try {
      // Everything else linked so far is due too; sync it first so only this project counts below.
      t.advance(11 * 60_000);
      await t.projectSync.runDue();
      expect((await listed(project._id))?.pullRequests[0]?.title).toBe('Changed for the background sync');

      repo.update(repo.items[0]?.number ?? 1, { title: 'Changed again' });
      fake.requests.length = 0;
      t.advance(5 * 60_000);
      expect(await t.projectSync.runDue()).toBe(0);
      expect(fake.requests).toEqual([]);

      t.advance(6 * 60_000);
      const counts = await Promise.all([t.projectSync.runDue(), second.projectSync.runDue()]);
      const ours = fake.requests.filter((r) => new RegExp(`/${repo.name}(/|\\?|$)`).test(r.path));
      // One node synced it: one repository request, however the two nodes raced.
      expect(ours.filter((r) => !r.path.includes('/pulls') && !r.path.includes('/issues'))).toHaveLength(1);
      // Every project (all are due) was synced by exactly one of the two nodes.
      const repositoryReads = fake.requests.filter((r) => /^\/repos\/[^/]+\/[^/?]+$/.test(r.path));
      const linked = await t.ctx.db.select().from(projects);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(linked.length);
      expect(repositoryReads).toHaveLength(linked.length);
      expect((await listed(project._id))?.pullRequests[0]?.title).toBe('Changed again');
    } finally {
      await second.app.close();
    }
  });

  it('refuses a manual sync while another holds the lease', async () => {
    const repo = repository(1, 0);
    const project = await link(repo);
    await t.ctx.db
      .update(projects)
      .set({ syncLeaseUntil: new Date(t.ctx.now().getTime() + 60_000) })
      .where(eq(projects.id, project._id));
    const res = await sync(project._id);
    expect(res.statusCode).toBe(409);
    t.advance(61_000);
    expect((await sync(project._id)).statusCode).toBe(200);
  });
});

describe('assigning', () => {
  let project: Project;
  beforeAll(async () => {
    project = await link(repository(2, 2));
  });

  it('assigns to a member, reassigns and unassigns; the listing shows it', async () => {
    const pr = project.pullRequests[0];
    if (!pr) throw new Error('fixture');
    const res = await assign(project._id, 'pullrequest', pr.id, viewer.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: pr.id, assignee: viewer.id });
    expect((await assign(project._id, 'pullrequest', pr.id, admin.id, admin)).json().assignee).toBe(admin.id);
    expect((await listed(project._id))?.pullRequests[0]?.assignee).toBe(admin.id);
    expect((await assign(project._id, 'pullrequest', pr.id, null)).json().assignee).toBeNull();
  });

  it('refuses a non-member assignee with 400 and changes nothing', async () => {
    const issue = project.issues[0];
    if (!issue) throw new Error('fixture');
    for (const userId of [outsider.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await assign(project._id, 'issue', issue.id, userId);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: PROJECT_MESSAGES.assigneeNotMember, field: 'userId' });
    }
    const [row] = await t.ctx.db.select().from(projectItems).where(eq(projectItems.id, issue.id));
    expect(row?.assigneeId).toBeNull();
  });

  it('no longer shows someone who left the workspace as the assignee', async () => {
    const leaver = await createUser(t.app, { firstName: 'Lee', lastName: 'Leaver' });
    await addMember(t, admin, workspaceId, leaver, 'viewer');
    const issue = project.issues[1];
    if (!issue) throw new Error('fixture');
    expect((await assign(project._id, 'issue', issue.id, leaver.id)).statusCode).toBe(200);
    expect((await listed(project._id))?.issues[1]?.assignee).toBe(leaver.id);
    expect((await api.del(`/api/workspaces/${workspaceId}/members/${leaver.id}`, admin)).statusCode).toBe(
      204,
    );
    expect((await listed(project._id))?.issues[1]?.assignee).toBeNull();
  });

  it('answers 403 to a viewer, 404 to a non-member, 404 for an item of the other kind', async () => {
    const pr = project.pullRequests[0];
    if (!pr) throw new Error('fixture');
    expect((await assign(project._id, 'pullrequest', pr.id, viewer.id, viewer)).statusCode).toBe(403);
    const stranger = await assign(project._id, 'pullrequest', pr.id, outsider.id, outsider);
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json()).toEqual({ message: PROJECT_MESSAGES.projectNotFound });
    const wrongKind = await assign(project._id, 'issue', pr.id, viewer.id);
    expect(wrongKind.statusCode).toBe(404);
    expect(wrongKind.json()).toEqual({ message: PROJECT_MESSAGES.itemNotFound });
  });
});

describe('who may do what', () => {
  it('lists members for the assignee dropdown as {_id, firstName, lastName, email}', async () => {
    const res = await api.get(`/api/workspaces/${workspaceId}/users`, viewer);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { _id: admin.id, firstName: 'Ada', lastName: 'Admin', email: admin.email },
      { _id: editor.id, firstName: 'Ed', lastName: 'Editor', email: editor.email },
      { _id: viewer.id, firstName: 'Vi', lastName: 'Viewer', email: viewer.email },
    ]);
  });

  it('answers 404 to non-members everywhere and 401 without a session', async () => {
    const project = await link(repository(1, 1));
    const pr = project.pullRequests[0]?.id ?? '';
    const notFound = { message: 'Workspace not found' };
    for (const res of [
      await api.get(`/api/workspaces/${workspaceId}/projects`, outsider),
      await api.get(`/api/workspaces/${workspaceId}/users`, outsider),
      await api.post('/api/projects', outsider, { repositoryUrl: 'github.com/octo-org/x', workspaceId }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(notFound);
    }
    for (const res of [
      await sync(project._id, outsider),
      await assign(project._id, 'pullrequest', pr, outsider.id, outsider),
      await api.del(`/api/projects/${project._id}`, outsider),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: PROJECT_MESSAGES.projectNotFound });
    }
    expect((await api.get(`/api/workspaces/${workspaceId}/projects`)).statusCode).toBe(401);
  });

  it('lets editors link and sync but not viewers; only admins delete', async () => {
    const repo = repository(1, 1);
    const byViewer = await api.post('/api/projects', viewer, {
      repositoryUrl: `github.com/${repo.fullName}`,
      workspaceId,
    });
    expect(byViewer.statusCode).toBe(403);
    const project = await link(repo);
    expect((await sync(project._id, viewer)).statusCode).toBe(403);
    expect((await api.del(`/api/projects/${project._id}`, editor)).statusCode).toBe(403);
    expect((await api.del(`/api/projects/${project._id}`, admin)).statusCode).toBe(204);
    expect(await listed(project._id)).toBeUndefined();
    expect(await t.ctx.db.select().from(projectItems).where(eq(projectItems.projectId, project._id))).toEqual(
      [],
    );
  });
});

describe('the webhook', () => {
  const deliver = (event: string, payload: unknown, signature?: string) => {
    const body = JSON.stringify(payload);
    const sig = signature ?? `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex')}`;
    return t.app.inject({
      method: 'POST',
      url: '/api/github/webhook',
      headers: { 'content-type': 'application/json', 'x-github-event': event, 'x-hub-signature-256': sig },
      payload: body,
    });
  };

  it('applies a signed pull_request or issues delivery at once, keeping the assignment', async () => {
    const repo = repository(1, 1);
    const project = await link(repo);
    const pr = project.pullRequests[0];
    if (!pr) throw new Error('fixture');
    await assign(project._id, 'pullrequest', pr.id, viewer.id);
    const item = repo.update(pr.number, { title: 'Merged through the webhook', state: 'merged' });
    const res = await deliver('pull_request', {
      action: 'closed',
      pull_request: repo.pullJson(item),
      repository: repo.repositoryJson(),
    });
    expect(res.statusCode).toBe(204);
    expect((await listed(project._id))?.pullRequests[0]).toMatchObject({
      title: 'Merged through the webhook',
      state: 'merged',
      assignee: viewer.id,
    });

    const newIssue = repo.addIssue({ title: 'Opened just now' });
    expect(
      (
        await deliver('issues', {
          action: 'opened',
          issue: repo.issueJson(newIssue),
          repository: repo.repositoryJson(),
        })
      ).statusCode,
    ).toBe(204);
    expect((await listed(project._id))?.issues.map((i) => i.title)).toContain('Opened just now');
    expect((await deliver('ping', { zen: 'Keep it logically awesome.' })).statusCode).toBe(204);
  });

  it('stores only https: links on the GitHub host, whatever html_url a delivery carries', async () => {
    const repo = repository(1, 1);
    const project = await link(repo);
    const pr = project.pullRequests[0];
    const issue = project.issues[0];
    if (!pr || !issue) throw new Error('fixture');
    const hostile = [
      'javascript:alert(document.cookie)',
      'data:text/html,<script>alert(1)</script>',
      'https://evil.example/phish',
      'http://github.com/octo/x/pull/1',
      'not a url',
    ];
    for (const html_url of hostile) {
      const item = repo.update(pr.number, { title: `Hostile ${html_url}` });
      const res = await deliver('pull_request', {
        action: 'edited',
        pull_request: { ...repo.pullJson(item), html_url },
        repository: repo.repositoryJson(),
      });
      expect(res.statusCode).toBe(204);
      const stored = (await listed(project._id))?.pullRequests.find((p) => p.number === pr.number);
      expect(stored?.title).toBe(`Hostile ${html_url}`);
      expect(stored?.url).toBe(`https://github.com/${repo.owner}/${repo.name}/pull/${pr.number}`);
    }
    const edited = repo.update(issue.number, { title: 'Hostile issue link' });
    await deliver('issues', {
      action: 'edited',
      issue: { ...repo.issueJson(edited), html_url: 'javascript:alert(1)' },
      repository: repo.repositoryJson(),
    });
    const storedIssue = (await listed(project._id))?.issues.find((i) => i.number === issue.number);
    expect(storedIssue?.url).toMatch(/^https:\/\/github\.com\/.+\/issues\/\d+$/);
  });

  it('refuses a delivery with a wrong or missing signature and changes nothing', async () => {
    const repo = repository(1, 0);
    const project = await link(repo);
    const item = repo.update(repo.items[0]?.number ?? 1, { title: 'Forged' });
    const payload = {
      action: 'edited',
      pull_request: repo.pullJson(item),
      repository: repo.repositoryJson(),
    };
    const forged = `sha256=${createHmac('sha256', 'not-the-secret').update(JSON.stringify(payload)).digest('hex')}`;
    for (const signature of [forged, 'sha256=abc', '']) {
      const res = await deliver('pull_request', payload, signature);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: PROJECT_MESSAGES.webhookSignatureInvalid });
    }
    expect((await listed(project._id))?.pullRequests[0]?.title).not.toBe('Forged');
  });

  it('answers 404 while no webhook secret is configured', async () => {
    const config = t.ctx.config as { GITHUB_WEBHOOK_SECRET?: string };
    config.GITHUB_WEBHOOK_SECRET = undefined;
    try {
      const res = await deliver('ping', { zen: 'Design for failure.' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: PROJECT_MESSAGES.webhookNotConfigured });
    } finally {
      config.GITHUB_WEBHOOK_SECRET = WEBHOOK_SECRET;
    }
  });

  it('still refuses other JSON routes a text/plain body (415) and a foreign Origin (403)', async () => {
    const text = await t.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: { ...editor.auth, 'content-type': 'text/plain' },
      payload: '{}',
    });
    expect(text.statusCode).toBe(415);
    const crossSite = await t.app.inject({
      method: 'POST',
      url: '/api/github/webhook',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      payload: '{}',
    });
    expect(crossSite.statusCode).toBe(403);
  });
});

describe('configuration', () => {
  it('works against a GitHub Enterprise base URL and reads private repositories with GITHUB_TOKEN', async () => {
    const enterprise = await createTestApp({
      env: {
        GITHUB_API_URL: `${fake.url}/api/v3`,
        GITHUB_WEB_URL: 'https://github.com',
        GITHUB_TOKEN: TOKEN,
      },
    });
    try {
      const owner = await createUser(enterprise.app);
      const ws = await createWorkspace(enterprise, owner);
      const secret = repository(2, 1, { private: true });
      fake.requests.length = 0;
      const res = await client(enterprise).post('/api/projects', owner, {
        repositoryUrl: `https://github.com/${secret.fullName}`,
        workspaceId: ws._id,
      });
      expect(res.statusCode).toBe(201);
      expect((res.json() as Project).pullRequests).toHaveLength(2);
      expect(fake.requests.every((r) => r.path.startsWith('/api/v3/repos/'))).toBe(true);
      expect(fake.requests.every((r) => r.authorization === `token ${TOKEN}`)).toBe(true);
    } finally {
      await enterprise.close();
    }
  });
});
