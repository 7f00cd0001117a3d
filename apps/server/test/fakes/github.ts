import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for GitHub's REST API, for tests and benchmarks only: a real HTTP server answering the
 * calls the projects sync makes (GET /repos/{owner}/{repo}, …/pulls, …/issues) with the shapes of
 * GitHub's recorded answers (@octokit/fixtures), `Link` pagination, weak ETags and 304s, rate-limit
 * headers, 404 for unknown or private repositories, and switchable 403 rate-limit and 5xx failures.
 * Every request is recorded so tests can assert what was (or was not) asked.
 */

const require = createRequire(import.meta.url);
type Json = Record<string, unknown>;
interface Recorded {
  response: unknown;
}
/** The body of the first recorded answer of a scenario. */
function recorded(scenario: string): unknown {
  const [first] = require(
    `@octokit/fixtures/scenarios/api.github.com/${scenario}/normalized-fixture.json`,
  ) as Recorded[];
  if (!first) throw new Error(`@octokit/fixtures has no ${scenario} recording`);
  return first.response;
}

// Recorded answers of the real API: a repository and an issue (with its user) as GitHub sends them.
const REPOSITORY_TEMPLATE = recorded('get-repository') as Json;
const ISSUE_TEMPLATE = (recorded('paginate-issues') as Json[])[0] as Json;
const USER_TEMPLATE = ISSUE_TEMPLATE.user as Json;

export type FakeItemState = 'open' | 'closed' | 'merged';

export interface FakeItem {
  number: number;
  isPull: boolean;
  title: string;
  state: FakeItemState;
  author: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface RecordedRequest {
  method: string;
  path: string;
  conditional: boolean;
  status: number;
  authorization?: string;
}

const START = Date.parse('2024-01-01T09:00:00Z');

function userJson(login: string, id: number): Json {
  const u = (path: string) => `https://api.github.com/users/${login}${path}`;
  return {
    ...USER_TEMPLATE,
    login,
    id,
    url: u(''),
    html_url: `https://github.com/${login}`,
    followers_url: u('/followers'),
    following_url: u('/following{/other_user}'),
    gists_url: u('/gists{/gist_id}'),
    starred_url: u('/starred{/owner}{/repo}'),
    subscriptions_url: u('/subscriptions'),
    organizations_url: u('/orgs'),
    repos_url: u('/repos'),
    events_url: u('/events{/privacy}'),
    received_events_url: u('/received_events'),
  };
}

/** Rewrites the recorded repository's URLs (they all name octokit-fixture-org/hello-world). */
function retarget(value: unknown, fullName: string): unknown {
  if (typeof value === 'string') return value.replaceAll('octokit-fixture-org/hello-world', fullName);
  if (Array.isArray(value)) return value.map((v) => retarget(v, fullName));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, retarget(v, fullName)]));
  }
  return value;
}

export class FakeRepository {
  readonly items: FakeItem[] = [];
  private clock = START;
  stars = 0;
  forks = 0;
  private nextNumber = 1;

  constructor(
    readonly owner: string,
    readonly name: string,
    readonly id: number,
    readonly isPrivate: boolean,
  ) {}

  get fullName() {
    return `${this.owner}/${this.name}`;
  }

  private tick() {
    this.clock += 60_000;
    return new Date(this.clock);
  }

  private add(isPull: boolean, opts: Partial<Pick<FakeItem, 'title' | 'state' | 'author'>>) {
    const at = this.tick();
    const number = this.nextNumber++;
    const item: FakeItem = {
      number,
      isPull,
      title: opts.title ?? `${isPull ? 'Pull request' : 'Issue'} ${number}`,
      state: opts.state ?? 'open',
      author: opts.author ?? 'octocat',
      createdAt: at,
      updatedAt: at,
    };
    this.items.push(item);
    return item;
  }

  addPull(opts: Partial<Pick<FakeItem, 'title' | 'state' | 'author'>> = {}) {
    return this.add(true, opts);
  }

  addIssue(opts: Partial<Pick<FakeItem, 'title' | 'author'>> & { state?: 'open' | 'closed' } = {}) {
    return this.add(false, opts);
  }

  /** `pulls` pull requests and `issues` issues, interleaved in time as on a real repository. */
  seed(pulls: number, issues: number) {
    let p = 0;
    let i = 0;
    const states: FakeItemState[] = ['open', 'merged', 'closed'];
    while (p < pulls || i < issues) {
      if (p < pulls && (p * issues <= i * pulls || i >= issues)) {
        this.addPull({ state: states[p % 3] });
        p++;
      } else {
        this.addIssue({ state: i % 2 === 0 ? 'open' : 'closed' });
        i++;
      }
    }
    return this;
  }

  item(number: number) {
    const item = this.items.find((i) => i.number === number);
    if (!item) throw new Error(`no item #${number}`);
    return item;
  }

  /** Changes an item as a person on GitHub would: its updated_at moves to now. */
  update(number: number, changes: Partial<Pick<FakeItem, 'title' | 'state'>>) {
    const item = this.item(number);
    Object.assign(item, changes, { updatedAt: this.tick() });
    return item;
  }

  remove(number: number) {
    this.items.splice(this.items.indexOf(this.item(number)), 1);
  }

  repositoryJson(): Json {
    return {
      ...(retarget(REPOSITORY_TEMPLATE, this.fullName) as Json),
      id: this.id,
      name: this.name,
      full_name: this.fullName,
      private: this.isPrivate,
      visibility: this.isPrivate ? 'private' : 'public',
      owner: userJson(this.owner, this.id + 1),
      stargazers_count: this.stars,
      watchers_count: this.stars,
      watchers: this.stars,
      forks_count: this.forks,
      forks: this.forks,
      open_issues_count: this.items.filter((i) => i.state === 'open').length,
      open_issues: this.items.filter((i) => i.state === 'open').length,
    };
  }

  private itemUrls(item: FakeItem) {
    const api = `https://api.github.com/repos/${this.fullName}`;
    const kind = item.isPull ? 'pull' : 'issues';
    return {
      api,
      html: `https://github.com/${this.fullName}/${kind}/${item.number}`,
    };
  }

  /** An item of GET …/issues; pull requests appear there too, marked by `pull_request`. */
  issueJson(item: FakeItem): Json {
    const { api, html } = this.itemUrls(item);
    const closed = item.state !== 'open';
    return {
      ...ISSUE_TEMPLATE,
      url: `${api}/issues/${item.number}`,
      repository_url: api,
      labels_url: `${api}/issues/${item.number}/labels{/name}`,
      comments_url: `${api}/issues/${item.number}/comments`,
      events_url: `${api}/issues/${item.number}/events`,
      html_url: html,
      id: this.id * 100_000 + item.number,
      number: item.number,
      title: item.title,
      user: userJson(item.author, 5_000),
      state: closed ? 'closed' : 'open',
      state_reason: closed ? 'completed' : null,
      comments: 0,
      created_at: item.createdAt.toISOString(),
      updated_at: item.updatedAt.toISOString(),
      closed_at: closed ? item.updatedAt.toISOString() : null,
      timeline_url: `${api}/issues/${item.number}/timeline`,
      reactions: { ...(ISSUE_TEMPLATE.reactions as Json), url: `${api}/issues/${item.number}/reactions` },
      ...(item.isPull
        ? {
            draft: false,
            pull_request: {
              url: `${api}/pulls/${item.number}`,
              html_url: html,
              diff_url: `${html}.diff`,
              patch_url: `${html}.patch`,
              merged_at: item.state === 'merged' ? item.updatedAt.toISOString() : null,
            },
          }
        : {}),
    };
  }

  /** An item of GET …/pulls, shaped like GitHub's pull-request-simple. */
  pullJson(item: FakeItem): Json {
    const { api, html } = this.itemUrls(item);
    const closed = item.state !== 'open';
    const sha = createHash('sha1').update(`${this.fullName}#${item.number}`).digest('hex');
    const repo = this.repositoryJson();
    const branch = (ref: string, at: string) => ({
      label: `${this.owner}:${ref}`,
      ref,
      sha: at,
      user: repo.owner,
      repo,
    });
    return {
      url: `${api}/pulls/${item.number}`,
      id: this.id * 100_000 + item.number,
      node_id: ISSUE_TEMPLATE.node_id,
      html_url: html,
      diff_url: `${html}.diff`,
      patch_url: `${html}.patch`,
      issue_url: `${api}/issues/${item.number}`,
      number: item.number,
      state: closed ? 'closed' : 'open',
      locked: false,
      title: item.title,
      user: userJson(item.author, 5_000),
      body: null,
      created_at: item.createdAt.toISOString(),
      updated_at: item.updatedAt.toISOString(),
      closed_at: closed ? item.updatedAt.toISOString() : null,
      merged_at: item.state === 'merged' ? item.updatedAt.toISOString() : null,
      merge_commit_sha: item.state === 'merged' ? sha : null,
      assignee: null,
      assignees: [],
      requested_reviewers: [],
      requested_teams: [],
      labels: [],
      milestone: null,
      draft: false,
      commits_url: `${api}/pulls/${item.number}/commits`,
      review_comments_url: `${api}/pulls/${item.number}/comments`,
      review_comment_url: `${api}/pulls/comments{/number}`,
      comments_url: `${api}/issues/${item.number}/comments`,
      statuses_url: `${api}/statuses/${sha}`,
      head: branch(`feature-${item.number}`, sha),
      base: branch('main', sha.split('').reverse().join('')),
      _links: {
        self: { href: `${api}/pulls/${item.number}` },
        html: { href: html },
        issue: { href: `${api}/issues/${item.number}` },
        comments: { href: `${api}/issues/${item.number}/comments` },
        review_comments: { href: `${api}/pulls/${item.number}/comments` },
        review_comment: { href: `${api}/pulls/comments{/number}` },
        commits: { href: `${api}/pulls/${item.number}/commits` },
        statuses: { href: `${api}/statuses/${sha}` },
      },
      author_association: 'MEMBER',
      auto_merge: null,
      active_lock_reason: null,
    };
  }
}

export type FakeFailure = null | 'rate-limit' | 'server-error';

export interface FakeGithub {
  /** The API base URL (GITHUB_API_URL), e.g. http://127.0.0.1:PORT. */
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Answers every request with this failure while set. */
  failure: FakeFailure;
  /** Epoch seconds at which the fake's rate limit resets (sent as x-ratelimit-reset). */
  rateLimitReset: number;
  /** Non-304 answers so far (GitHub counts those against the rate limit, not 304s). */
  rateLimitUsed: number;
  /** When set, GET /repos/{owner}/{repo} answers a redirect to this URL instead. */
  redirects: Map<string, string>;
  addRepository(
    owner: string,
    name: string,
    opts?: { private?: boolean; stars?: number; forks?: number },
  ): FakeRepository;
  repository(owner: string, name: string): FakeRepository | undefined;
  close(): Promise<void>;
}

export async function startFakeGithub(opts: { port?: number; host?: string; token?: string } = {}) {
  const repositories = new Map<string, FakeRepository>();
  const key = (owner: string, name: string) => `${owner.toLowerCase()}/${name.toLowerCase()}`;
  let nextId = 1_296_269;
  let baseUrl = '';

  const fake: FakeGithub = {
    url: '',
    port: 0,
    requests: [],
    failure: null,
    rateLimitReset: Math.floor(Date.now() / 1000) + 3600,
    rateLimitUsed: 0,
    redirects: new Map(),
    addRepository(owner, name, o = {}) {
      const repo = new FakeRepository(owner, name, nextId++, o.private ?? false);
      repo.stars = o.stars ?? 0;
      repo.forks = o.forks ?? 0;
      repositories.set(key(owner, name), repo);
      return repo;
    },
    repository: (owner, name) => repositories.get(key(owner, name)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  function send(req: IncomingMessage, res: ServerResponse, status: number, body: unknown, extra: Json = {}) {
    const limit = opts.token ? 5000 : 60;
    const text = body === undefined ? '' : JSON.stringify(body);
    const etag = `W/"${createHash('sha256').update(text).digest('hex')}"`;
    const notModified = status === 200 && req.headers['if-none-match'] === etag;
    const finalStatus = notModified ? 304 : status;
    if (finalStatus !== 304) fake.rateLimitUsed++;
    fake.requests.push({
      method: req.method ?? 'GET',
      path: req.url ?? '',
      conditional: typeof req.headers['if-none-match'] === 'string',
      status: finalStatus,
      authorization: req.headers.authorization,
    });
    res.writeHead(finalStatus, {
      'content-type': 'application/json; charset=utf-8',
      'x-github-media-type': 'github.v3; format=json',
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(Math.max(0, limit - fake.rateLimitUsed)),
      'x-ratelimit-reset': String(fake.rateLimitReset),
      'x-ratelimit-used': String(fake.rateLimitUsed),
      'x-ratelimit-resource': 'core',
      ...(status === 200 ? { etag, 'cache-control': 'private, max-age=60, s-maxage=60' } : {}),
      ...(extra as Record<string, string>),
    });
    res.end(notModified ? undefined : text);
  }

  function listing(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    all: FakeItem[],
    toJson: (i: FakeItem) => Json,
  ) {
    const q = url.searchParams;
    const state = q.get('state') ?? 'open';
    const sort = q.get('sort') === 'updated' ? 'updatedAt' : 'createdAt';
    const direction = q.get('direction') === 'asc' ? 1 : -1;
    const perPage = Math.min(100, Math.max(1, Number(q.get('per_page') ?? 30) || 30));
    const page = Math.max(1, Number(q.get('page') ?? 1) || 1);
    const matching = all
      .filter((i) => state === 'all' || (state === 'open') === (i.state === 'open'))
      .sort(
        (a, b) => direction * (a[sort].getTime() - b[sort].getTime()) || direction * (a.number - b.number),
      );
    const last = Math.max(1, Math.ceil(matching.length / perPage));
    const pageUrl = (n: number) => {
      const u = new URL(`${baseUrl}${url.pathname}${url.search}`);
      u.searchParams.set('page', String(n));
      return u.toString();
    };
    const links: string[] = [];
    if (page > 1) links.push(`<${pageUrl(page - 1)}>; rel="prev"`);
    if (page < last) links.push(`<${pageUrl(page + 1)}>; rel="next"`, `<${pageUrl(last)}>; rel="last"`);
    if (page > 1) links.push(`<${pageUrl(1)}>; rel="first"`);
    const body = matching.slice((page - 1) * perPage, page * perPage).map(toJson);
    send(req, res, 200, body, links.length ? { link: links.join(', ') } : {});
  }

  const notFoundBody = {
    message: 'Not Found',
    documentation_url: 'https://docs.github.com/rest',
    status: '404',
  };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    // GitHub Enterprise serves the same API under /api/v3.
    const path = url.pathname.replace(/^\/api\/v3(?=\/)/, '');
    if (fake.failure === 'rate-limit') {
      return send(
        req,
        res,
        403,
        {
          message:
            "API rate limit exceeded for 127.0.0.1. (But here's the good news: Authenticated requests get a higher rate limit. Check out the documentation for more details.)",
          documentation_url: 'https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting',
        },
        { 'x-ratelimit-remaining': '0' },
      );
    }
    if (fake.failure === 'server-error') {
      return send(req, res, 502, { message: 'Server Error' });
    }
    const match = /^\/repos\/([^/]+)\/([^/]+)(\/pulls|\/issues)?\/?$/.exec(path);
    if (req.method !== 'GET' || !match) return send(req, res, 404, notFoundBody);
    const [, owner = '', name = '', listingPath] = match;
    const redirect = fake.redirects.get(key(owner, name));
    if (redirect && !listingPath) {
      return send(req, res, 301, { message: 'Moved Permanently', url: redirect }, { location: redirect });
    }
    const repo = repositories.get(key(owner, name));
    const authorized =
      !!opts.token && req.headers.authorization?.replace(/^(token|bearer)\s+/i, '') === opts.token;
    if (!repo || (repo.isPrivate && !authorized)) return send(req, res, 404, notFoundBody);
    if (!listingPath) return send(req, res, 200, repo.repositoryJson());
    if (listingPath === '/pulls') {
      return listing(
        req,
        res,
        url,
        repo.items.filter((i) => i.isPull),
        (i) => repo.pullJson(i),
      );
    }
    return listing(req, res, url, repo.items, (i) => repo.issueJson(i));
  });

  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://${opts.host ?? '127.0.0.1'}:${port}`;
  fake.url = baseUrl;
  fake.port = port;
  return fake;
}
