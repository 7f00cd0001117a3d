import { PEOPLE_MAX_LIMIT, PEOPLE_MESSAGES, type Person } from '@cohort/shared/people';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { client, createWorkspace, uniqueName, wsUrl } from '../workspaces/test-fixtures.ts';

let t: TestApp;
let api: ReturnType<typeof client>;
let ada: TestUser;
let bob: TestUser;
let cy: TestUser;
let dee: TestUser;
let stranger: TestUser;
let one: string;
let two: string;
const tag = uniqueName('p');

beforeAll(async () => {
  t = await createTestApp();
  api = client(t);
  [ada, bob, cy, dee, stranger] = await Promise.all([
    createUser(t.app, { firstName: 'Ada', lastName: tag }),
    createUser(t.app, { firstName: 'Bob', lastName: tag }),
    createUser(t.app, { firstName: 'Cy', lastName: tag }),
    createUser(t.app, { firstName: 'Dee', lastName: tag }),
    createUser(t.app, { firstName: 'Stranger', lastName: tag }),
  ]);
  // Ada shares "one" with Bob and Cy, and "two" with Bob; Dee is only invited (not a member yet);
  // the stranger has a workspace of their own with nobody in it.
  one = (
    await createWorkspace(t, ada, {
      name: `b-${tag}`,
      members: [
        { email: bob.email, role: 'viewer' },
        { email: cy.email, role: 'editor' },
      ],
    })
  ).name;
  two = (await createWorkspace(t, bob, { name: `a-${tag}`, members: [{ email: ada.email, role: 'viewer' }] }))
    .name;
  await createWorkspace(t, ada, { members: [{ email: dee.email, role: 'viewer' }], accept: false });
  await createWorkspace(t, stranger);
});
afterAll(() => t.close());

const search = async (as: TestUser, query: Record<string, string | number> = {}) => {
  const params = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  return api.get(`/api/people?${params}`, as);
};
const found = async (as: TestUser, query: Record<string, string | number> = {}) => {
  const res = await search(as, query);
  expect(res.statusCode).toBe(200);
  return (res.json() as Person[]).map((p) => p.email);
};

describe('GET /api/people', () => {
  it('lists only people who share a workspace with me, by name, never me', async () => {
    expect(await found(ada)).toEqual([bob.email, cy.email]);
    expect(await found(cy)).toEqual([ada.email, bob.email]);
    // Sharing nothing: nobody, whatever is searched (the stranger's name is not even findable).
    expect(await found(stranger)).toEqual([]);
    expect(await found(ada, { q: 'Stranger' })).toEqual([]);
    expect(await found(ada, { q: dee.email })).toEqual([]);
  });

  it('matches every word on name or e-mail, literally, and answers with names and shared workspaces', async () => {
    expect(await found(ada, { q: 'bob' })).toEqual([bob.email]);
    expect(await found(ada, { q: `  cy ${cy.email.split('@')[0]} ` })).toEqual([cy.email]);
    expect(await found(ada, { q: 'bob cy' })).toEqual([]);
    expect(await found(ada, { q: '%' })).toEqual([]);
    const res = await search(ada, { q: 'Bob' });
    expect(res.json()).toEqual([
      {
        _id: bob.id,
        email: bob.email,
        firstName: 'Bob',
        lastName: tag,
        name: `Bob ${tag}`,
        sharedWorkspaces: [two, one],
      },
    ]);
  });

  it('is limited, validated and needs a session', async () => {
    expect(await found(ada, { limit: 1 })).toEqual([bob.email]);
    const badLimit = await search(ada, { limit: PEOPLE_MAX_LIMIT + 1 });
    expect(badLimit.statusCode).toBe(400);
    expect(badLimit.json().message).toContain(PEOPLE_MESSAGES.invalidLimit);
    expect((await search(ada, { limit: 0 })).statusCode).toBe(400);
    expect((await search(ada, { limit: 'many' })).statusCode).toBe(400);
    const long = await search(ada, { q: 'x'.repeat(101) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toContain(PEOPLE_MESSAGES.queryTooLong);
    expect((await api.get('/api/people')).statusCode).toBe(401);
  });

  it('forgets a person once they no longer share a workspace', async () => {
    const [eve, fay] = await Promise.all([createUser(t.app), createUser(t.app)]);
    const ws = await createWorkspace(t, eve, { members: [{ email: fay.email, role: 'viewer' }] });
    expect(await found(eve)).toEqual([fay.email]);
    expect((await api.del(wsUrl(ws.name, `/members/${fay.id}`), eve)).statusCode).toBe(204);
    expect(await found(eve)).toEqual([]);
    expect((await api.get(`/api/people/${encodeURIComponent(fay.email)}`, eve)).statusCode).toBe(404);
  });
});

describe('GET /api/people/:email', () => {
  const profile = (as: TestUser | undefined, email: string) =>
    api.get(`/api/people/${encodeURIComponent(email)}`, as);

  it('answers a co-member, and 404 alike for a stranger, an unknown address and myself', async () => {
    const res = await profile(ada, cy.email.toUpperCase());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email: cy.email, name: `Cy ${tag}`, sharedWorkspaces: [one] });
    for (const email of [stranger.email, 'nobody@example.com', ada.email, dee.email]) {
      const refused = await profile(ada, email);
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual({ message: PEOPLE_MESSAGES.notMessageable });
    }
    expect((await profile(ada, 'not-an-email')).statusCode).toBe(400);
    expect((await profile(undefined, cy.email)).statusCode).toBe(401);
  });
});
