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
