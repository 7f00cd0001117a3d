import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { client, createWorkspace, snapshotUser, wsUrl } from './test-fixtures.ts';

let t: TestApp;
let api: ReturnType<typeof client>;
let me: TestUser;
let someoneElse: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  api = client(t);
  me = await createUser(t.app, { firstName: 'Grace', lastName: 'Hopper' });
  someoneElse = await createUser(t.app, { firstName: 'Alan', lastName: 'Turing' });
});
afterAll(() => t.close());

describe('GET /api/profile', () => {
  it('shows the caller with empty role and phone and no workspaces at first', async () => {
    const fresh = await createUser(t.app, { firstName: 'Fresh', lastName: 'Person' });
    const res = await api.get('/api/profile', fresh);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      user: {
        _id: fresh.id,
        firstName: 'Fresh',
        lastName: 'Person',
        email: fresh.email,
        role: null,
        phone: null,
      },
      workspaces: [],
    });
  });

  it('lists the workspaces the caller created (and still belongs to), not ones they were added to', async () => {
    const mine = await createWorkspace(t, me, {
      description: 'Mine',
      members: [{ email: someoneElse.email, role: 'admin' }],
    });
    t.advance(1000);
    const left = await createWorkspace(t, me, { members: [{ email: someoneElse.email, role: 'admin' }] });
    await createWorkspace(t, someoneElse, { members: [{ email: me.email }] });
    // Removed from a workspace they created: it is no longer theirs to show.
    expect((await api.del(wsUrl(left.name, `/members/${me.id}`), someoneElse)).statusCode).toBe(204);

    const res = await api.get('/api/profile', me);
    expect(res.json().workspaces).toEqual([{ _id: mine._id, name: mine.name, description: 'Mine' }]);
  });

  it("ignores ?email=: the profile is always the caller's", async () => {
    const res = await api.get(`/api/profile?email=${encodeURIComponent(someoneElse.email)}`, me);
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ _id: me.id, email: me.email });
  });

  it('requires a session', async () => {
    expect((await api.get('/api/profile')).statusCode).toBe(401);
  });
});

describe('PATCH /api/profile', () => {
  it('updates names, job title and phone, and clears them with null or empty text', async () => {
    const user = await createUser(t.app, { firstName: 'Old', lastName: 'Name' });
    const res = await api.patch('/api/profile', user, {
      firstName: ' Katherine ',
      lastName: 'Johnson',
      role: 'Mathematician',
      phone: '+1 (555) 010-9999',
      email: 'hijack@example.com', // not editable here
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toEqual({
      _id: user.id,
      firstName: 'Katherine',
      lastName: 'Johnson',
      email: user.email,
      role: 'Mathematician',
      phone: '+1 (555) 010-9999',
    });
    expect((await api.get('/api/profile', user)).json().user.role).toBe('Mathematician');

    const cleared = await api.patch('/api/profile', user, { role: '', phone: null });
    expect(cleared.json().user).toMatchObject({ firstName: 'Katherine', role: null, phone: null });
    expect((await api.patch('/api/profile', user, {})).json().user.firstName).toBe('Katherine');
  });

  it.each([
    ['a blank first name', { firstName: '  ' }, 'firstName'],
    ['an 81-character last name', { lastName: 'x'.repeat(81) }, 'lastName'],
    ['an 81-character job title', { role: 'r'.repeat(81) }, 'role'],
    ['a phone with letters', { phone: 'call me maybe' }, 'phone'],
    ['an overlong phone', { phone: `+${'1'.repeat(30)}` }, 'phone'],
    ['a phone of the wrong type', { phone: 5551234 }, 'phone'],
  ])('refuses %s with 400 and changes nothing', async (_case, payload, field) => {
    const before = await snapshotUser(t, me.id);
    const res = await api.patch('/api/profile', me, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe(field);
    expect(await snapshotUser(t, me.id)).toEqual(before);
  });

  it('requires a session', async () => {
    const before = await snapshotUser(t, me.id);
    expect((await api.patch('/api/profile', undefined, { firstName: 'Anon' })).statusCode).toBe(401);
    expect(await snapshotUser(t, me.id)).toEqual(before);
  });
});
