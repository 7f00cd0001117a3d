import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeGithub, startFakeGithub } from '../../../test/fakes/github.ts';
import { createGithubClient, GithubError } from './github.client.ts';

let fake: FakeGithub;
beforeAll(async () => {
  fake = await startFakeGithub();
});
afterAll(() => fake.close());

describe('the GitHub client', () => {
  it('gives up on a request that takes longer than its timeout', async () => {
    const hanging: Server = createServer(() => {});
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const { port } = hanging.address() as AddressInfo;
    try {
      const client = createGithubClient({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 200 });
      const started = Date.now();
      const error = await client.repository({ owner: 'a', repo: 'b' }).catch((err) => err);
      expect(error).toBeInstanceOf(GithubError);
      expect(error.kind).toBe('unavailable');
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      hanging.closeAllConnections();
      await new Promise<void>((resolve) => hanging.close(() => resolve()));
    }
  });

  it('follows a redirect within the API (a renamed repository) and answers 304 as "unchanged"', async () => {
    const repo = fake.addRepository('client-org', 'renamed', { stars: 3 });
    fake.redirects.set('client-org/old-name', `${fake.url}/repos/client-org/renamed`);
    const client = createGithubClient({ baseUrl: fake.url });
    const first = await client.repository({ owner: 'client-org', repo: 'old-name' });
    expect(first?.data).toEqual({ name: 'renamed', fullName: repo.fullName, stars: 3, forks: 0 });
    expect(await client.repository({ owner: 'client-org', repo: 'renamed' }, first?.etag)).toBeNull();
  });

  it('keeps one copy of an item that moved between pages while they were read (the newest)', async () => {
    const pull = (n: number, title: string) => ({
      number: n,
      title,
      html_url: `https://github.com/o/r/pull/${n}`,
      state: 'open',
      merged_at: null,
      user: { login: 'octo' },
      created_at: '2024-01-01T00:00:00Z',
      updated_at: '2024-01-02T00:00:00Z',
    });
    // Page 1 was read, then #2 was updated: it moved up, so page 2 starts with it again.
    const pages: Record<string, unknown[]> = {
      '1': [pull(3, 'three'), pull(2, 'two (newest)')],
      '2': [pull(2, 'two (older copy)'), pull(1, 'one')],
    };
    const server: Server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const page = url.searchParams.get('page') ?? '1';
      const next = `<http://${req.headers.host}${url.pathname}?page=2>; rel="next"`;
      res.writeHead(200, { 'content-type': 'application/json', ...(page === '1' ? { link: next } : {}) });
      res.end(JSON.stringify(pages[page] ?? []));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const client = createGithubClient({ baseUrl: `http://127.0.0.1:${port}` });
      const listed = await client.pullRequests({ owner: 'o', repo: 'r' });
      expect(listed?.data.map((p) => [p.number, p.title])).toEqual([
        [3, 'three'],
        [2, 'two (newest)'],
        [1, 'one'],
      ]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('refuses an owner or repository that is not a valid GitHub name without a request', async () => {
    const client = createGithubClient({ baseUrl: fake.url });
    fake.requests.length = 0;
    for (const ref of [
      { owner: '..', repo: 'x' },
      { owner: 'a', repo: '..' },
      { owner: 'a/b', repo: 'c' },
      { owner: 'a', repo: 'b?c' },
    ]) {
      await expect(client.pullRequests(ref)).rejects.toBeInstanceOf(GithubError);
    }
    expect(fake.requests).toEqual([]);
  });
});
