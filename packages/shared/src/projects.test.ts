import { describe, expect, it } from 'vitest';
import { createProjectBody, PROJECT_MESSAGES, parseRepositoryUrl } from './projects.ts';

describe('parseRepositoryUrl', () => {
  it.each([
    'https://github.com/octo-org/hello-world',
    'https://github.com/octo-org/hello-world.git',
    'https://github.com/octo-org/hello-world/',
    'https://www.github.com/octo-org/hello-world',
    'github.com/octo-org/hello-world',
    'www.github.com/octo-org/hello-world.git/',
    '  HTTPS://GitHub.com/octo-org/hello-world  ',
  ])('accepts %s', (url) => {
    expect(parseRepositoryUrl(url)).toEqual({ owner: 'octo-org', repo: 'hello-world' });
  });

  it('keeps dots, underscores and case in names', () => {
    expect(parseRepositoryUrl('github.com/Socket-IO/socket.io_x')).toEqual({
      owner: 'Socket-IO',
      repo: 'socket.io_x',
    });
  });

  it.each([
    '',
    'github.com',
    'https://github.com/owner',
    'https://github.com/owner/repo/pulls',
    'https://gist.github.com/owner/repo',
    'https://github.com./owner/repo',
    'https://github.com/-owner/repo',
    'https://github.com/owner-/repo',
    'https://github.com/owner/.',
    'https://github.com/owner/.git',
    'https://github.com/owner/repo.git.git',
    'https://github.com/owner/re%20po',
    '\\\\github.com\\owner\\repo',
    'https://github.com/owner/re\npo',
    'https://github.com/owner_x/repo',
    'https://github.com/owner/repo%0a',
    `https://github.com/${'a'.repeat(40)}/repo`,
  ])('refuses %j', (url) => {
    expect(parseRepositoryUrl(url)).toBeNull();
  });
});

describe('createProjectBody', () => {
  it('parses the URL into owner and repo and drops addedBy', () => {
    expect(
      createProjectBody.parse({
        repositoryUrl: 'github.com/a/b',
        workspaceId: 'w1',
        addedBy: 'x@example.com',
      }),
    ).toEqual({ workspaceId: 'w1', owner: 'a', repo: 'b' });
  });

  it('words blank and invalid URLs as the spec does', () => {
    const blank = createProjectBody.safeParse({ repositoryUrl: ' ', workspaceId: 'w1' });
    expect(blank.error?.issues[0]?.message).toBe(PROJECT_MESSAGES.urlRequired);
    const invalid = createProjectBody.safeParse({ repositoryUrl: 'ftp://github.com/a/b', workspaceId: 'w1' });
    expect(invalid.error?.issues[0]?.message).toBe(PROJECT_MESSAGES.urlInvalid);
  });
});
