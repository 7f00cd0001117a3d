import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser, uniqueEmail } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import {
  acceptInvitation,
  addMember,
  client,
  createChannel,
  createWorkspace,
  snapshotWorkspace,
  wsUrl,
} from './test-fixtures.ts';
import type { MembershipEventMap } from './workspaces.events.ts';

let t: TestApp;
let api: ReturnType<typeof client>;
let admin: TestUser;
let editor: TestUser;
let viewer: TestUser;
let newcomer: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  api = client(t);
  [admin, editor, viewer, newcomer] = await Promise.all([
    createUser(t.app, { firstName: 'Ada', lastName: 'Admin' }),
    createUser(t.app, { firstName: 'Eddie', lastName: 'Editor' }),
    createUser(t.app, { firstName: 'Vera', lastName: 'Viewer' }),
    createUser(t.app, { firstName: 'Nora', lastName: 'New' }),
  ]);
});
afterAll(() => t.close());

const team = () =>
  createWorkspace(t, admin, {
    members: [
      { email: editor.email, role: 'editor' },
      { email: viewer.email, role: 'viewer' },
    ],
  });

/** Collects the membership events emitted while `run` executes. */
async function captureEvents(run: () => Promise<unknown>) {
  const seen: Array<[keyof MembershipEventMap, unknown]> = [];
  const names = ['memberAdded', 'roleChanged', 'memberRemoved', 'workspaceDeleted'] as const;
  const listeners = names.map((name) => {
    const l = (e: unknown) => {
      seen.push([name, e]);
    };
    return t.ctx.bus.on(name, l);
  });
  try {
    await run();
  } finally {
    for (const off of listeners) off();
  }
  return seen;
}

describe('GET /api/workspaces/:workspaceName/members', () => {
  it('lists active members with names and roles, then invitations (for admins only)', async () => {
    const invited = uniqueEmail('invited');
    const ws = await createWorkspace(t, admin, {
      members: [{ email: viewer.email }, { email: invited, role: 'admin' }],
    });
    const active = [
      {
        _id: admin.id,
        email: admin.email,
        firstName: 'Ada',
        lastName: 'Admin',
        role: 'admin',
        status: 'active',
      },
      {
        _id: viewer.id,
        email: viewer.email,
        firstName: 'Vera',
        lastName: 'Viewer',
        role: 'viewer',
        status: 'active',
      },
    ];
    const asAdmin = await api.get(wsUrl(ws.name, '/members'), admin);
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.json()).toEqual([
      ...active,
      { _id: null, email: invited, firstName: '', lastName: '', role: 'admin', status: 'invited' },
    ]);
    // Who is invited, and with which role, is the admins' business.
    const asViewer = await api.get(wsUrl(ws.name, '/members'), viewer);
    expect(asViewer.statusCode).toBe(200);
    expect(asViewer.json()).toEqual(active);
  });
});

describe('POST /api/workspaces/:workspaceName/members', () => {
  it('invites an existing account, who joins only on accepting (and subscribers hear it then)', async () => {
    const ws = await team();
    let res: Awaited<ReturnType<typeof api.post>> | undefined;
    const invitedEvents = await captureEvents(async () => {
      res = await api.post(wsUrl(ws.name, '/members'), admin, {
        email: newcomer.email.toUpperCase(),
        role: 'Editor',
      });
    });
    expect(res?.statusCode).toBe(201);
    // The same answer as for an address without an account: it says nothing about who has one.
    expect(res?.json()).toEqual({
      _id: null,
      email: newcomer.email,
      firstName: '',
      lastName: '',
      role: 'editor',
      status: 'invited',
    });
    expect(invitedEvents).toEqual([]);
    expect((await api.get(wsUrl(ws.name), newcomer)).statusCode).toBe(404);

    const joinedEvents = await captureEvents(() => acceptInvitation(t, newcomer, ws.name));
    expect(joinedEvents).toEqual([
      ['memberAdded', { workspaceId: ws._id, userId: newcomer.id, role: 'editor' }],
    ]);
    expect((await api.get(wsUrl(ws.name), newcomer)).json().role).toBe('editor');
  });

  it('invites an e-mail without an account (viewer by default); signing up does not join', async () => {
    const ws = await team();
    const email = uniqueEmail('soon');
    const res = await api.post(wsUrl(ws.name, '/members'), admin, { email });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      _id: null,
      email,
      firstName: '',
      lastName: '',
      role: 'viewer',
      status: 'invited',
    });
    const joined = await createUser(t.app, { email });
    expect((await api.get(wsUrl(ws.name), joined)).statusCode).toBe(404);
    expect((await api.get(wsUrl(ws.name, '/members'), admin)).json()).toContainEqual(
      expect.objectContaining({ _id: null, email, status: 'invited' }),
    );
    // The new account, once verified, finds the invitation and accepts it.
    await acceptInvitation(t, joined, ws.name);
    expect((await api.get(wsUrl(ws.name, '/members'), admin)).json()).toContainEqual(
      expect.objectContaining({ _id: joined.id, role: 'viewer', status: 'active' }),
    );
  });

  it('refuses people who are already members or already invited with 409', async () => {
    const ws = await team();
    const email = uniqueEmail('twice');
    expect((await api.post(wsUrl(ws.name, '/members'), admin, { email })).statusCode).toBe(201);
    const before = await snapshotWorkspace(t, ws._id);
    const member = await api.post(wsUrl(ws.name, '/members'), admin, { email: viewer.email, role: 'admin' });
    expect(member.statusCode).toBe(409);
    expect(member.json().message).toBe('This person is already a member of this workspace');
    const again = await api.post(wsUrl(ws.name, '/members'), admin, { email });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This e-mail has already been invited to this workspace');
    expect(await snapshotWorkspace(t, ws._id)).toEqual(before);
  });

  it.each([
    ['an invalid e-mail', { email: 'nope' }, 'email'],
    ['a missing e-mail', { role: 'viewer' }, 'email'],
    ['an unknown role', { email: 'x@example.com', role: 'owner' }, 'role'],
    ['a role of the wrong type', { email: 'x@example.com', role: 3 }, 'role'],
  ])('refuses %s with 400', async (_case, payload, field) => {
    const ws = await team();
    const before = await snapshotWorkspace(t, ws._id);
    const res = await api.post(wsUrl(ws.name, '/members'), admin, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe(field);
    expect(await snapshotWorkspace(t, ws._id)).toEqual(before);
  });
});

describe('PATCH /api/workspaces/:workspaceName/members/:userId', () => {
  it('changes a role, effective at once, and tells subscribers', async () => {
    const ws = await team();
    expect(
      (await api.post(wsUrl(ws.name, '/channels'), viewer, { name: 'a', description: 'd' })).statusCode,
    ).toBe(403);
    let res: Awaited<ReturnType<typeof api.patch>> | undefined;
    const events = await captureEvents(async () => {
      res = await api.patch(wsUrl(ws.name, `/members/${viewer.id}`), admin, { role: 'editor' });
    });
    expect(res?.statusCode).toBe(200);
    expect(res?.json()).toMatchObject({ _id: viewer.id, role: 'editor', status: 'active' });
    expect(events).toEqual([
      ['roleChanged', { workspaceId: ws._id, userId: viewer.id, role: 'editor', previousRole: 'viewer' }],
    ]);
    expect(
      (await api.post(wsUrl(ws.name, '/channels'), viewer, { name: 'a', description: 'd' })).statusCode,
    ).toBe(201);
  });

  it('answers 404 for someone who is not a member, and 400 for an unknown role', async () => {
    const ws = await team();
    const before = await snapshotWorkspace(t, ws._id);
    for (const id of [newcomer.id, randomUUID(), 'not-a-uuid']) {
      const res = await api.patch(wsUrl(ws.name, `/members/${id}`), admin, { role: 'editor' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Member not found' });
    }
    const bad = await api.patch(wsUrl(ws.name, `/members/${viewer.id}`), admin, { role: 'superuser' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: 'role: Role must be viewer, editor or admin', field: 'role' });
    expect(await snapshotWorkspace(t, ws._id)).toEqual(before);
  });
});

describe('DELETE /api/workspaces/:workspaceName/members/:userId', () => {
  it('removes the member, their channel memberships, and their access at once', async () => {
    const ws = await team();
    const secret = await createChannel(t, editor, ws.name, { private: true, members: [viewer.id] });
    const open = await createChannel(t, admin, ws.name, { members: [viewer.id] });
    const events = await captureEvents(async () => {
      expect((await api.del(wsUrl(ws.name, `/members/${viewer.id}`), admin)).statusCode).toBe(204);
    });
    expect(events).toEqual([['memberRemoved', { workspaceId: ws._id, userId: viewer.id }]]);

    const snapshot = await snapshotWorkspace(t, ws._id);
    expect(snapshot.members.map((m) => m.userId)).not.toContain(viewer.id);
    expect(snapshot.channelMembers.filter((m) => m.userId === viewer.id)).toEqual([]);
    expect((await api.get(wsUrl(ws.name), viewer)).statusCode).toBe(404);
    expect((await api.get(wsUrl(ws.name, `/channels/${open._id}`), viewer)).statusCode).toBe(404);
    expect((await api.get(wsUrl(ws.name, `/channels/${secret._id}`), editor)).json().members).toEqual([
      editor.id,
    ]);

    // Invited back and joined again, the person does not regain the private channel.
    await addMember(t, admin, ws.name, viewer);
    expect((await api.get(wsUrl(ws.name), viewer)).statusCode).toBe(200);
    expect((await api.get(wsUrl(ws.name, `/channels/${secret._id}`), viewer)).statusCode).toBe(404);
  });

  it('answers 404 for a non-member id', async () => {
    const ws = await team();
    expect((await api.del(wsUrl(ws.name, `/members/${newcomer.id}`), admin)).statusCode).toBe(404);
  });
});

describe('the last admin', () => {
  it('can be neither demoted nor removed; with a second admin both work', async () => {
    const ws = await team();
    const before = await snapshotWorkspace(t, ws._id);
    const demote = await api.patch(wsUrl(ws.name, `/members/${admin.id}`), admin, { role: 'editor' });
    expect(demote.statusCode).toBe(409);
    expect(demote.json()).toEqual({ message: 'A workspace needs at least one admin' });
    const remove = await api.del(wsUrl(ws.name, `/members/${admin.id}`), admin);
    expect(remove.statusCode).toBe(409);
    expect(remove.json()).toEqual({ message: 'A workspace needs at least one admin' });
    expect(await snapshotWorkspace(t, ws._id)).toEqual(before);

    // Keeping the role is not a demotion.
    expect(
      (await api.patch(wsUrl(ws.name, `/members/${admin.id}`), admin, { role: 'admin' })).statusCode,
    ).toBe(200);

    expect(
      (await api.patch(wsUrl(ws.name, `/members/${editor.id}`), admin, { role: 'admin' })).statusCode,
    ).toBe(200);
    expect(
      (await api.patch(wsUrl(ws.name, `/members/${admin.id}`), admin, { role: 'viewer' })).statusCode,
    ).toBe(200);
    // The former admin is now a viewer and may no longer manage members.
    expect((await api.del(wsUrl(ws.name, `/members/${editor.id}`), admin)).statusCode).toBe(403);
    // The new (and now only) admin cannot leave either, but can remove the old one.
    expect((await api.del(wsUrl(ws.name, `/members/${editor.id}`), editor)).statusCode).toBe(409);
    expect((await api.del(wsUrl(ws.name, `/members/${admin.id}`), editor)).statusCode).toBe(204);
  });

  it('holds when two admins demote each other at the same time', async () => {
    const ws = await createWorkspace(t, admin, { members: [{ email: editor.email, role: 'admin' }] });
    const results = await Promise.all([
      api.patch(wsUrl(ws.name, `/members/${editor.id}`), admin, { role: 'viewer' }),
      api.patch(wsUrl(ws.name, `/members/${admin.id}`), editor, { role: 'viewer' }),
    ]);
    const codes = results.map((r) => r.statusCode).sort();
    // One wins; the other is either refused as last admin or no longer allowed to manage roles.
    expect(codes[0]).toBe(200);
    expect([403, 409]).toContain(codes[1]);
    const admins = (await snapshotWorkspace(t, ws._id)).members.filter((m) => m.role === 'admin');
    expect(admins).toHaveLength(1);
  });
});

describe('DELETE /api/workspaces/:workspaceName/invitations/:email', () => {
  it('withdraws an invitation so that a later signup does not join', async () => {
    const ws = await team();
    const email = uniqueEmail('withdrawn');
    await api.post(wsUrl(ws.name, '/members'), admin, { email });
    const res = await api.del(
      wsUrl(ws.name, `/invitations/${encodeURIComponent(email.toUpperCase())}`),
      admin,
    );
    expect(res.statusCode).toBe(204);
    expect((await snapshotWorkspace(t, ws._id)).invitations).toEqual([]);
    const again = await api.del(wsUrl(ws.name, `/invitations/${encodeURIComponent(email)}`), admin);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ message: 'Invitation not found' });
    const late = await createUser(t.app, { email });
    expect((await api.get(wsUrl(ws.name), late)).statusCode).toBe(404);
  });
});
