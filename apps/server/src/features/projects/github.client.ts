import { isValidRepositoryRef, type ProjectItemState, type RepositoryRef } from '@cohort/shared/projects';
import { Octokit } from '@octokit/rest';

/**
 * The only code that talks to GitHub. Requests are built from a validated owner and repository
 * name against GITHUB_API_URL (the user's URL is never requested), each times out after 10 s,
 * redirects are followed only within the API's own origin, and the Link headers GitHub sends are
 * read only for whether a next page exists (their URLs are never requested).
 */

export const GITHUB_TIMEOUT_MS = 10_000;
const PER_PAGE = 100;
/** Up to 1,000 pull requests and 1,000 issues per repository. */
export const MAX_ITEMS = 1_000;
/** The issues listing mixes in pull requests; this bounds how far it is read to find 1,000 issues. */
const MAX_ISSUE_PAGES = 40;

export type GithubErrorKind = 'not-found' | 'rate-limited' | 'unavailable';

export class GithubError extends Error {
  constructor(
    readonly kind: GithubErrorKind,
    message: string,
    readonly resetAt?: Date,
  ) {
    super(message);
  }
}

export interface RepositoryData {
  name: string;
  fullName: string;
  stars: number;
  forks: number;
}

export interface ItemData {
  number: number;
  title: string;
  url: string;
  state: ProjectItemState;
  author: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A conditional read: `null` when GitHub answered 304 (nothing changed since `etag`). */
export type Conditional<T> = { data: T; etag: string | null } | null;

export interface GithubClient {
  repository(ref: RepositoryRef, etag?: string | null): Promise<Conditional<RepositoryData>>;
  pullRequests(ref: RepositoryRef, etag?: string | null): Promise<Conditional<ItemData[]>>;
  issues(ref: RepositoryRef, etag?: string | null): Promise<Conditional<ItemData[]>>;
}

interface GithubUser {
  login?: string | null;
}

export interface GithubPullRequest {
  number: number;
  title: string;
  html_url: string;
  state: string;
  merged_at?: string | null;
  user?: GithubUser | null;
  created_at: string;
  updated_at: string;
}

export interface GithubIssue {
  number: number;
  title: string;
  html_url: string;
  state: string;
  pull_request?: unknown;
  user?: GithubUser | null;
  created_at: string;
  updated_at: string;
}

export function pullRequestState(pr: Pick<GithubPullRequest, 'state' | 'merged_at'>): ProjectItemState {
  if (pr.merged_at) return 'merged';
  return pr.state === 'open' ? 'open' : 'closed';
}

export const issueState = (issue: Pick<GithubIssue, 'state'>): ProjectItemState =>
  issue.state === 'open' ? 'open' : 'closed';

/**
 * The web origin of the GitHub an API URL belongs to: api.github.com → https://github.com; a GitHub
 * Enterprise API (https://github.example.com/api/v3) → its own host.
 */
export function githubWebOrigin(apiUrl: string, webUrl?: string): string {
  if (webUrl) return new URL(webUrl).origin;
  const host = new URL(apiUrl).host;
  return `https://${host === 'api.github.com' ? 'github.com' : host}`;
}

/** Where an item's link may point: GitHub's own pages for this repository. */
export interface ItemLinks {
  webOrigin: string;
  ref: RepositoryRef;
}

/**
 * `html_url` comes from the API or a webhook body, so it is used only when it is an https: link on
 * the configured GitHub host; anything else (javascript:, another host) becomes the item's canonical page.
 */
export function safeItemUrl(htmlUrl: string, kind: 'pull' | 'issues', number: number, links: ItemLinks) {
  try {
    const url = new URL(htmlUrl);
    if (url.protocol === 'https:' && url.origin === links.webOrigin) return url.href;
  } catch {
    // not a URL: fall through to the canonical link
  }
  const { owner, repo } = links.ref;
  return `${links.webOrigin}/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/${kind}/${number}`;
}

export function pullRequestData(pr: GithubPullRequest, links: ItemLinks): ItemData {
  return {
    number: pr.number,
    title: pr.title,
    url: safeItemUrl(pr.html_url, 'pull', pr.number, links),
    state: pullRequestState(pr),
    author: pr.user?.login ?? null,
    createdAt: new Date(pr.created_at),
    updatedAt: new Date(pr.updated_at),
  };
}

export function issueData(issue: GithubIssue, links: ItemLinks): ItemData {
  return {
    number: issue.number,
    title: issue.title,
    url: safeItemUrl(issue.html_url, 'issues', issue.number, links),
    state: issueState(issue),
    author: issue.user?.login ?? null,
    createdAt: new Date(issue.created_at),
    updatedAt: new Date(issue.updated_at),
  };
}

/** A fetch that never leaves the API's origin and gives up after GITHUB_TIMEOUT_MS. */
function guardedFetch(baseUrl: string, timeoutMs: number): typeof fetch {
  const origin = new URL(baseUrl).origin;
  return async (input, init) => {
    let url = new URL(input instanceof Request ? input.url : String(input));
    const signal = AbortSignal.timeout(timeoutMs);
    for (let hops = 0; ; hops++) {
      if (url.origin !== origin)
        throw new Error(`refused a request to ${url.origin}, outside GITHUB_API_URL`);
      const response = await fetch(url, { ...init, redirect: 'manual', signal });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || response.status === 304 || !location) {
        return response;
      }
      // GitHub answers renamed repositories with a redirect within the API; follow those only.
      if (hops >= 3) throw new Error('too many redirects');
      await response.body?.cancel();
      url = new URL(location, url);
    }
  };
}

function header(headers: Record<string, string | number | undefined>, name: string) {
  const value = headers[name];
  return value === undefined ? undefined : String(value);
}

/** Turns whatever octokit threw into one of the three answers the product knows. */
function toGithubError(err: unknown): GithubError {
  const e = err as {
    status?: number;
    response?: { headers?: Record<string, string | number | undefined> };
  };
  const status = typeof e.status === 'number' ? e.status : 0;
  const headers = e.response?.headers ?? {};
  if ((status === 403 || status === 429) && header(headers, 'x-ratelimit-remaining') === '0') {
    const reset = Number(header(headers, 'x-ratelimit-reset'));
    const resetAt =
      Number.isFinite(reset) && reset > 0 ? new Date(reset * 1000) : new Date(Date.now() + 60_000);
    return new GithubError('rate-limited', 'GitHub rate limit reached', resetAt);
  }
  if (status === 429 || (status === 403 && header(headers, 'retry-after'))) {
    const after = Number(header(headers, 'retry-after') ?? 60);
    return new GithubError('rate-limited', 'GitHub rate limit reached', new Date(Date.now() + after * 1000));
  }
  // GitHub answers 404 for a private repository the token may not read; 451 for blocked ones.
  if (status === 404 || status === 410 || status === 451) {
    return new GithubError('not-found', 'Repository not found or not accessible');
  }
  return new GithubError('unavailable', `GitHub request failed (${status || 'no answer'})`);
}

const isNotModified = (err: unknown) => (err as { status?: number }).status === 304;
const hasNextPage = (link: string | undefined) => !!link && /<[^>]*>;\s*rel="next"/.test(link);

export function createGithubClient(opts: {
  baseUrl: string;
  /** GITHUB_WEB_URL: where item links may point (derived from baseUrl when absent). */
  webUrl?: string;
  token?: string;
  timeoutMs?: number;
}): GithubClient {
  const octokit = new Octokit({
    baseUrl: opts.baseUrl.replace(/\/+$/, ''),
    auth: opts.token,
    userAgent: 'Cohort project sync',
    request: { fetch: guardedFetch(opts.baseUrl, opts.timeoutMs ?? GITHUB_TIMEOUT_MS) },
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
  });
  const webOrigin = githubWebOrigin(opts.baseUrl, opts.webUrl);

  function check(ref: RepositoryRef) {
    // The routes validated it already; this is the last line before a path is built from it.
    if (!isValidRepositoryRef(ref))
      throw new GithubError('not-found', 'Repository not found or not accessible');
  }

  const conditional = (etag?: string | null): Record<string, string> =>
    etag ? { 'if-none-match': etag } : {};

  /**
   * Newest activity first (sort=updated): any change to any item moves it onto the first page, so
   * that page's ETag answers "has anything changed?" for the whole listing with one free request.
   */
  /**
   * Every page of a listing. Pages are read one after another while the repository changes: an item
   * updated meanwhile moves to the front and shows up on two pages, so items are kept by number, the
   * first (newest) copy winning.
   */
  async function listAll<T extends { number: number }>(
    fetchPage: (
      page: number,
      headers: Record<string, string>,
    ) => Promise<{ data: T[]; headers: Record<string, string | number | undefined> }>,
    keep: (item: T) => boolean,
    maxPages: number,
    etag?: string | null,
  ): Promise<Conditional<T[]>> {
    const items: T[] = [];
    const seen = new Set<number>();
    let firstEtag: string | null = null;
    for (let page = 1; page <= maxPages; page++) {
      let response: Awaited<ReturnType<typeof fetchPage>>;
      try {
        response = await fetchPage(page, page === 1 ? conditional(etag) : {});
      } catch (err) {
        if (page === 1 && isNotModified(err)) return null;
        throw toGithubError(err);
      }
      if (page === 1) firstEtag = header(response.headers, 'etag') ?? null;
      for (const item of response.data) {
        if (!keep(item) || seen.has(item.number)) continue;
        seen.add(item.number);
        items.push(item);
        if (items.length >= MAX_ITEMS) return { data: items, etag: firstEtag };
      }
      if (!hasNextPage(header(response.headers, 'link'))) break;
    }
    return { data: items, etag: firstEtag };
  }

  return {
    async repository(ref, etag) {
      check(ref);
      try {
        const response = await octokit.rest.repos.get({ ...ref, headers: conditional(etag) });
        const r = response.data;
        return {
          data: { name: r.name, fullName: r.full_name, stars: r.stargazers_count, forks: r.forks_count },
          etag: response.headers.etag ?? null,
        };
      } catch (err) {
        if (isNotModified(err)) return null;
        throw toGithubError(err);
      }
    },

    async pullRequests(ref, etag) {
      check(ref);
      const result = await listAll<GithubPullRequest>(
        (page, headers) =>
          octokit.rest.pulls.list({
            ...ref,
            state: 'all',
            sort: 'updated',
            direction: 'desc',
            per_page: PER_PAGE,
            page,
            headers,
          }),
        () => true,
        Math.ceil(MAX_ITEMS / PER_PAGE),
        etag,
      );
      return (
        result && {
          data: result.data.map((pr) => pullRequestData(pr, { webOrigin, ref })),
          etag: result.etag,
        }
      );
    },

    async issues(ref, etag) {
      check(ref);
      const result = await listAll<GithubIssue>(
        (page, headers) =>
          octokit.rest.issues.listForRepo({
            ...ref,
            state: 'all',
            sort: 'updated',
            direction: 'desc',
            per_page: PER_PAGE,
            page,
            headers,
          }),
        // GitHub lists pull requests among issues; they are synced as pull requests.
        (issue) => !issue.pull_request,
        MAX_ISSUE_PAGES,
        etag,
      );
      return result && { data: result.data.map((i) => issueData(i, { webOrigin, ref })), etag: result.etag };
    },
  };
}
