import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser, uniqueEmail } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { workspaceInvitations, workspaces } from '../../db/schema.ts';
import {
  acceptInvitation,
  client,
  createChannel,
  createWorkspace,
  snapshotWorkspace,
  uniqueName,
  wsUrl,
} from './test-fixtures.ts';

let t: TestApp;
let api: ReturnType<typeof client>;
let owner: TestUser;
let colleague: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  api = client(t);
  owner = await createUser(t.app, { firstName: 'Olive', lastName: 'Owner' });
  colleague = await createUser(t.app, { firstName: 'Cole', lastName: 'League' });
  stranger = await createUser(t.app);
});
afterAll(() => t.close());

const countWorkspacesNamed = async (name: string) =>
  (await t.ctx.db.select().from(workspaces).where(sql`lower(${workspaces.name}) = lower(${name})`)).length;

describe('POST /api/workspaces', () => {
  it('creates the workspace with the caller as admin and an invitation for every listed e-mail', async () => {
    const invited = uniqueEmail('invitee');
    const name = uniqueName('Design');
    const res = await api.post('/api/workspaces', owner, {
      name: `  ${name} `,
      description: ' Where we design ',
      members: [
        { email: colleague.email.toUpperCase(), role: 'editor' },
        { email: invited }, // role defaults to viewer
        { email: owner.email, role: 'viewer' }, // the creator's own e-mail is ignored
      ],
      createdBy: stranger.email, // never trusted
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      name,
      description: 'Where we design',
      createdBy: owner.email,
      role: 'admin',
      chat: { channels: [] },
    });
    expect(body._id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(body.createdAt).toString()).not.toBe('Invalid Date');
    // An account is invited like an address without one: nobody joins without accepting. Invitations
    // made together are listed by e-mail.
    const invitations = [
      { userId: null, email: colleague.email, role: 'editor', status: 'invited' },
      { userId: null, email: invited, role: 'viewer', status: 'invited' },
    ].sort((a, b) => a.email.localeCompare(b.email));
    expect(body.members).toEqual([
      { userId: owner.id, email: owner.email, role: 'admin', status: 'active' },
      ...invitations,
    ]);
    expect((await api.get(wsUrl(name), colleague)).statusCode).toBe(404);
  });

  it('keeps the last entry when an e-mail is listed twice', async () => {
    const res = await api.post('/api/workspaces', owner, {
      name: uniqueName(),
      description: 'd',
      members: [
        { email: colleague.email, role: 'viewer' },
        { email: ` ${colleague.email.toUpperCase()}`, role: 'Admin' },
      ],
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().members).toEqual([
      expect.objectContaining({ userId: owner.id, role: 'admin' }),
      expect.objectContaining({ email: colleague.email, role: 'admin', status: 'invited' }),
    ]);
  });

  it('refuses a taken name whatever its case, with 409 and nothing stored', async () => {
    const name = uniqueName('Taken');
    await createWorkspace(t, owner, { name });
    const res = await api.post('/api/workspaces', colleague, { name: name.toUpperCase(), description: 'x' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'A workspace with this name already exists' });
    expect(await countWorkspacesNamed(name)).toBe(1);
  });

  it.each([
    ['no name', { description: 'd' }, 'name'],
    ['no description', { name: 'n' }, 'description'],
    ['blank name', { name: '   ', description: 'd' }, 'name'],
    ['empty description', { name: 'n', description: '' }, 'description'],
    ['empty body', {}, 'name'],
  ])('answers %s with the spec sentence', async (_case, payload, field) => {
    const res = await api.post('/api/workspaces', owner, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Name and description are required', field });
  });

  it.each([
    ['an 81-character name', { name: 'x'.repeat(81) }, 'name', /80 characters/],
    ['an oversized description', { description: 'd'.repeat(1001) }, 'description', /1000 characters/],
    ['a name of the wrong type', { name: 42 }, 'name', /expected string/],
    ['an invalid member e-mail', { members: [{ email: 'not-an-email' }] }, 'members.0.email', /valid e-mail/],
    [
      'an unknown role',
      { members: [{ email: uniqueEmail(), role: 'owner' }] },
      'members.0.role',
      /viewer, editor or admin/,
    ],
    ['members that are not a list', { members: 'a@b.c' }, 'members', /expected array/],
  ])('refuses %s with 400 naming the field and stores nothing', async (_case, change, field, message) => {
    const name = uniqueName('bad');
    const res = await api.post('/api/workspaces', owner, { name, description: 'd', ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe(field);
    expect(res.json().message).toMatch(message);
    expect(await countWorkspacesNamed(name)).toBe(0);
  });

  it('accepts exactly 80 characters', async () => {
    const name = `${uniqueName()}${'n'.repeat(80)}`.slice(0, 80);
    const res = await api.post('/api/workspaces', owner, { name, description: 'd' });
    expect(res.statusCode).toBe(201);
    expect(res.json().name).toHaveLength(80);
  });

  it('stores HTML in names and descriptions verbatim, as text', async () => {
    const name = `<img src=x onerror=alert(1)> ${uniqueName()}`;
    const description = '<script>alert("x")</script> & "quotes"';
    const created = await api.post('/api/workspaces', owner, { name, description });
    expect(created.statusCode).toBe(201);
    const res = await api.get(wsUrl(name), owner);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toMatchObject({ name, description });
  });

  it('requires a session', async () => {
    const name = uniqueName();
    const res = await api.post('/api/workspaces', undefined, { name, description: 'd' });
    expect(res.statusCode).toBe(401);
    expect(await countWorkspacesNamed(name)).toBe(0);
  });
});

describe('GET /api/workspaces', () => {
  it("lists the caller's workspaces newest first with creator and member e-mails", async () => {
    const me = await createUser(t.app);
    const first = await createWorkspace(t, me, { members: [{ email: colleague.email, role: 'editor' }] });
    t.advance(1000);
    const second = await createWorkspace(t, colleague, { members: [{ email: me.email }] });
    t.advance(1000);
    await createWorkspace(t, colleague); // not mine

    const res = await api.get('/api/workspaces', me);
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list.map((w: { _id: string }) => w._id)).toEqual([second._id, first._id]);
    expect(list[0]).toEqual({
      _id: second._id,
      name: second.name,
      description: 'A place to work',
      createdBy: colleague.email,
      createdAt: expect.any(String),
      members: [
        { userId: colleague.id, email: colleague.email, role: 'admin', status: 'active' },
        { userId: me.id, email: me.email, role: 'viewer', status: 'active' },
      ],
    });
  });

  it("ignores ?userEmail: the list is always the caller's", async () => {
    const me = await createUser(t.app);
    const mine = await createWorkspace(t, me);
    const other = await api.get(`/api/workspaces?userEmail=${encodeURIComponent(owner.email)}`, me);
    expect(other.statusCode).toBe(200);
    expect(other.json().map((w: { _id: string }) => w._id)).toEqual([mine._id]);
    const same = await api.get(`/api/workspaces?userEmail=${encodeURIComponent(me.email)}`, me);
    expect(same.json()).toEqual(other.json());
  });

  it('is empty for a new user and refuses anonymous callers', async () => {
    const fresh = await createUser(t.app);
    expect((await api.get('/api/workspaces', fresh)).json()).toEqual([]);
    expect((await api.get('/api/workspaces')).statusCode).toBe(401);
  });
});

describe('GET /api/workspaces/:workspaceName', () => {
  it('resolves the name in any case and the id, with the caller role and readable channels', async () => {
    const ws = await createWorkspace(t, owner, { members: [{ email: colleague.email, role: 'viewer' }] });
    const open = await createChannel(t, owner, ws.name, { name: 'general', members: [colleague.id] });
    const secret = await createChannel(t, owner, ws.name, { name: 'secret', private: true });

    for (const key of [ws.name, ws.name.toUpperCase(), ws._id]) {
      const res = await api.get(`${wsUrl(key)}?userId=${encodeURIComponent(stranger.email)}`, colleague);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ _id: ws._id, name: ws.name, role: 'viewer', createdBy: owner.email });
      expect(body.chat.channels).toEqual([
        {
          _id: open._id,
          workspaceId: ws._id,
          name: 'general',
          description: 'Talk here',
          private: false,
          members: [owner.id, colleague.id],
          createdBy: owner.id,
          createdAt: expect.any(String),
          topic: '',
          archived: false,
          joined: true,
          starred: false,
        },
      ]);
    }
    const asOwner = await api.get(wsUrl(ws.name), owner);
    expect(asOwner.json().role).toBe('admin');
    expect(asOwner.json().chat.channels.map((c: { _id: string }) => c._id)).toEqual([open._id, secret._id]);
  });

  it('answers a non-member exactly like a workspace that does not exist', async () => {
    const ws = await createWorkspace(t, owner);
    const hidden = await api.get(wsUrl(ws.name), stranger);
    const byId = await api.get(wsUrl(ws._id), stranger);
    const missing = await api.get(wsUrl(uniqueName('nope')), stranger);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual({ message: 'Workspace not found' });
    expect(byId.body).toBe(missing.body);
    expect(hidden.body).toBe(missing.body);
  });
});

describe('PATCH and DELETE /api/workspaces/:workspaceName', () => {
  it('lets an admin rename and re-describe, keeping names unique', async () => {
    const ws = await createWorkspace(t, owner);
    const other = await createWorkspace(t, owner);
    const newName = uniqueName('Renamed');
    const res = await api.patch(wsUrl(ws.name), owner, { name: newName, description: 'New text' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ _id: ws._id, name: newName, description: 'New text' });
    expect((await api.get(wsUrl(ws.name), owner)).statusCode).toBe(404);
    expect((await api.get(wsUrl(newName), owner)).statusCode).toBe(200);

    // Changing only the case of its own name is fine; taking another's is not.
    expect((await api.patch(wsUrl(newName), owner, { name: newName.toUpperCase() })).statusCode).toBe(200);
    const clash = await api.patch(wsUrl(ws._id), owner, { name: other.name.toLowerCase() });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().message).toBe('A workspace with this name already exists');

    const tooLong = await api.patch(wsUrl(ws._id), owner, { name: 'x'.repeat(81) });
    expect(tooLong.statusCode).toBe(400);
    const blank = await api.patch(wsUrl(ws._id), owner, { description: '  ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().field).toBe('description');
  });

  it('deletes the workspace with its channels, memberships and invitations', async () => {
    const invited = uniqueEmail('gone');
    const ws = await createWorkspace(t, owner, { members: [{ email: colleague.email }, { email: invited }] });
    await createChannel(t, owner, ws.name, { private: true, members: [colleague.id] });
    const res = await api.del(wsUrl(ws.name), owner);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await snapshotWorkspace(t, ws._id)).toEqual({
      workspace: [],
      members: [],
      invitations: [],
      channels: [],
      channelMembers: [],
    });
    expect((await api.get(wsUrl(ws.name), colleague)).statusCode).toBe(404);
    // The name is free again.
    expect(
      (await api.post('/api/workspaces', colleague, { name: ws.name, description: 'd' })).statusCode,
    ).toBe(201);
  });
});

describe('invitations', () => {
  it('do not turn into memberships when the e-mail signs up: the new account accepts them', async () => {
    const email = uniqueEmail('later');
    const ws = await createWorkspace(t, owner, { members: [{ email: email.toUpperCase(), role: 'editor' }] });
    const before = await api.get(wsUrl(ws.name, '/members'), owner);
    expect(before.json()).toContainEqual({
      _id: null,
      email,
      firstName: '',
      lastName: '',
      role: 'editor',
      status: 'invited',
    });

    // Signing up with an invited address proves nothing: no silent join.
    const newcomer = await createUser(t.app, { email, firstName: 'New', lastName: 'Comer' });
    expect((await api.get('/api/workspaces', newcomer)).json()).toEqual([]);
    expect((await api.get(wsUrl(ws.name), newcomer)).statusCode).toBe(404);
    expect((await api.get(wsUrl(ws.name, '/members'), owner)).json()).toEqual(before.json());

    await acceptInvitation(t, newcomer, ws.name);
    const after = await api.get(wsUrl(ws.name, '/members'), owner);
    expect(after.json()).toContainEqual({
      _id: newcomer.id,
      email,
      firstName: 'New',
      lastName: 'Comer',
      role: 'editor',
      status: 'active',
    });
    expect(after.json().filter((m: { email: string }) => m.email === email)).toHaveLength(1);
    expect(
      await t.ctx.db.select().from(workspaceInvitations).where(eq(workspaceInvitations.email, email)),
    ).toEqual([]);

    const mine = await api.get('/api/workspaces', newcomer);
    expect(mine.json().map((w: { _id: string }) => w._id)).toEqual([ws._id]);
    const page = await api.get(wsUrl(ws.name), newcomer);
    expect(page.statusCode).toBe(200);
    expect(page.json().role).toBe('editor');
    // As an editor the newcomer may create channels right away.
    expect(
      (await api.post(wsUrl(ws.name, '/channels'), newcomer, { name: 'hello', description: 'd' })).statusCode,
    ).toBe(201);
  });

  it('from several workspaces are each accepted with their own role', async () => {
    const email = uniqueEmail('popular');
    const a = await createWorkspace(t, owner, { members: [{ email }] });
    const b = await createWorkspace(t, colleague, { members: [{ email, role: 'admin' }] });
    const newcomer = await createUser(t.app, { email });
    await acceptInvitation(t, newcomer, a._id);
    await acceptInvitation(t, newcomer, b._id);
    const roles = Object.fromEntries(
      (await api.get('/api/workspaces', newcomer))
        .json()
        .map((w: { _id: string; members: Array<{ userId: string; role: string }> }) => [
          w._id,
          w.members.find((m) => m.userId === newcomer.id)?.role,
        ]),
    );
    expect(roles).toEqual({ [a._id]: 'viewer', [b._id]: 'admin' });
  });
});

describe('names as URL keys', () => {
  it('resolve with URL-special and non-ASCII characters when encoded', async () => {
    const name = `R&D / Q4 #1 ? 100% café ${uniqueName()}`;
    const ws = await createWorkspace(t, owner, { name });
    const res = await api.get(wsUrl(name), owner);
    expect(res.statusCode).toBe(200);
    expect(res.json()._id).toBe(ws._id);
    expect((await api.get(wsUrl(name, '/members'), owner)).statusCode).toBe(200);
  });
});

describe('OpenAPI', () => {
  it('documents every route with its request and response schemas', async () => {
    const spec = (await api.get('/api/docs/json')).json();
    const paths = spec.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>;
    const expected: Array<[string, string, string]> = [
      ['/api/workspaces', 'post', '201'],
      ['/api/workspaces', 'get', '200'],
      ['/api/workspaces/{workspaceName}', 'get', '200'],
      ['/api/workspaces/{workspaceName}', 'patch', '200'],
      ['/api/workspaces/{workspaceName}', 'delete', '204'],
      ['/api/workspaces/{workspaceName}/members', 'get', '200'],
      ['/api/workspaces/{workspaceName}/members', 'post', '201'],
      ['/api/workspaces/{workspaceName}/members/{userId}', 'patch', '200'],
      ['/api/workspaces/{workspaceName}/members/{userId}', 'delete', '204'],
      ['/api/workspaces/{workspaceName}/invitations/{email}', 'delete', '204'],
      ['/api/workspaces/{workspaceName}/invitations', 'get', '200'],
      ['/api/workspaces/{workspaceName}/invitations/{email}/resend', 'post', '200'],
      ['/api/workspaces/{workspaceName}/leave', 'post', '204'],
      ['/api/invitations', 'get', '200'],
      ['/api/invitations/{invitationId}/accept', 'post', '200'],
      ['/api/invitations/{invitationId}/decline', 'post', '204'],
      ['/api/workspaces/{workspaceName}/channels', 'get', '200'],
      ['/api/workspaces/{workspaceName}/channels', 'post', '201'],
      ['/api/workspaces/{workspaceName}/channels/{channelId}', 'get', '200'],
      ['/api/workspaces/{workspaceName}/channels/{channelId}', 'patch', '200'],
      ['/api/workspaces/{workspaceName}/channels/{channelId}', 'delete', '204'],
      ['/api/profile', 'get', '200'],
      ['/api/profile', 'patch', '200'],
    ];
    for (const [path, method, status] of expected) {
      const op = paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(Object.keys(op?.responses ?? {})).toEqual(expect.arrayContaining([status, '401']));
    }
  });
});
