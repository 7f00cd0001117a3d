import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import {
  client,
  createChannel,
  createWorkspace,
  snapshotWorkspace,
  uniqueName,
  wsUrl,
} from './test-fixtures.ts';

let t: TestApp;
let api: ReturnType<typeof client>;
let admin: TestUser;
let editor: TestUser;
let viewer: TestUser;
let outsider: TestUser;
let ws: { _id: string; name: string };
let other: { _id: string; name: string };

beforeAll(async () => {
  t = await createTestApp();
  api = client(t);
  [admin, editor, viewer, outsider] = await Promise.all([
    createUser(t.app),
    createUser(t.app),
    createUser(t.app),
    createUser(t.app),
  ]);
  ws = await createWorkspace(t, admin, {
    members: [
      { email: editor.email, role: 'editor' },
      { email: viewer.email, role: 'viewer' },
    ],
  });
  // Another workspace the outsider administers, with the editor as a member too.
  other = await createWorkspace(t, outsider, { members: [{ email: editor.email, role: 'editor' }] });
});
afterAll(() => t.close());

const channelIds = async (as: TestUser, workspace = ws.name) =>
  ((await api.get(wsUrl(workspace), as)).json().chat.channels as Array<{ _id: string }>).map((c) => c._id);

describe('POST /api/workspaces/:workspaceName/channels', () => {
  it('creates an open channel listing the creator and the chosen members', async () => {
    const name = uniqueName('General');
    const res = await api.post(wsUrl(ws.name.toUpperCase(), '/channels'), editor, {
      name: ` ${name} `,
      description: 'Everything',
      members: [viewer.id, viewer.id, editor.id],
      createdBy: outsider.email,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      _id: expect.any(String),
      workspaceId: ws._id,
      name,
      description: 'Everything',
      private: false,
      members: [editor.id, viewer.id],
      createdBy: editor.id,
      createdAt: expect.any(String),
      topic: '',
      archived: false,
      joined: true,
      starred: false,
    });
    // Open: every member sees it, including those not listed.
    for (const who of [admin, editor, viewer]) expect(await channelIds(who)).toContain(res.json()._id);
  });

  it('refuses a repeated name in the same workspace, whatever its case, but allows it in another', async () => {
    const name = uniqueName('Dup');
    await createChannel(t, admin, ws.name, { name });
    const before = await snapshotWorkspace(t, ws._id);
    const res = await api.post(wsUrl(ws.name, '/channels'), editor, {
      name: name.toUpperCase(),
      description: 'd',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('A channel with this name already exists in this workspace');
    expect(await snapshotWorkspace(t, ws._id)).toEqual(before);
    expect(
      (await api.post(wsUrl(other.name, '/channels'), editor, { name, description: 'd' })).statusCode,
    ).toBe(201);
  });

  it.each([
    ['no name', { description: 'd' }, 'name'],
    ['no description', { name: 'n' }, 'description'],
    ['blank name', { name: '  ', description: 'd' }, 'name'],
    ['nothing at all', {}, 'name'],
  ])('answers %s with the spec sentence and creates nothing', async (_case, payload, field) => {
    const before = await snapshotWorkspace(t, ws._id);
    const res = await api.post(wsUrl(ws.name, '/channels'), admin, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Please provide a channel name and description.', field });
    expect(await snapshotWorkspace(t, ws._id)).toEqual(before);
  });

  it.each([
    ['an 81-character name', { name: 'x'.repeat(81) }, 'name'],
    ['a private flag that is not a boolean', { private: 'yes' }, 'private'],
    ['members that are not user ids', { members: ['someone@example.com'] }, 'members.0'],
    ['members that are not a list', { members: 'abc' }, 'members'],
  ])('refuses %s with 400', async (_case, change, field) => {
    const before = await snapshotWorkspace(t, ws._id);
    const res = await api.post(wsUrl(ws.name, '/channels'), admin, {
      name: uniqueName(),
      description: 'd',
      ...change,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe(field);
    expect(await snapshotWorkspace(t, ws._id)).toEqual(before);
  });

  it('refuses members of another workspace (or nobody) with 404 and creates nothing', async () => {
    const before = await snapshotWorkspace(t, ws._id);
    for (const foreign of [outsider.id, randomUUID()]) {
      const res = await api.post(wsUrl(ws.name, '/channels'), admin, {
        name: uniqueName(),
        description: 'd',
        members: [viewer.id, foreign],
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({
        message: 'Channel members must be members of this workspace',
        field: 'members',
      });
    }
    expect(await snapshotWorkspace(t, ws._id)).toEqual(before);
  });

  it('stores HTML in channel names as text', async () => {
    const name = `<b onclick="x()">${uniqueName()}</b>`;
    const created = await createChannel(t, admin, ws.name, { name, description: '<i>d</i>' });
    const res = await api.get(wsUrl(ws.name, `/channels/${created._id}`), viewer);
    expect(res.json()).toMatchObject({ name, description: '<i>d</i>' });
  });
});

describe('private channels', () => {
  it('are visible only to their listed members and creator, not to unlisted admins', async () => {
    const secret = await createChannel(t, editor, ws.name, { private: true, members: [viewer.id] });
    expect(secret.members).toEqual([editor.id, viewer.id]);
    expect(await channelIds(editor)).toContain(secret._id);
    expect(await channelIds(viewer)).toContain(secret._id);
    expect(await channelIds(admin)).not.toContain(secret._id);

    const list = await api.get(wsUrl(ws.name, '/channels'), admin);
    expect(list.json().map((c: { _id: string }) => c._id)).not.toContain(secret._id);

    const asAdmin = await api.get(wsUrl(ws.name, `/channels/${secret._id}`), admin);
    const missing = await api.get(wsUrl(ws.name, `/channels/${randomUUID()}`), admin);
    expect(asAdmin.statusCode).toBe(404);
    expect(asAdmin.body).toBe(missing.body);
    expect(asAdmin.json()).toEqual({ message: 'Channel not found' });

    const asViewer = await api.get(wsUrl(ws.name, `/channels/${secret._id}`), viewer);
    expect(asViewer.statusCode).toBe(200);
    expect(asViewer.json()).toMatchObject({
      _id: secret._id,
      private: true,
      members: [editor.id, viewer.id],
    });
  });
});

describe('channel lookups across workspaces', () => {
  it("answers 404 for a channel of workspace B under workspace A's path, even to a member of both", async () => {
    const inOther = await createChannel(t, editor, other.name, {});
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const body = method === 'PATCH' ? { name: 'hijack' } : undefined;
      const res = await api.call(method, wsUrl(ws.name, `/channels/${inOther._id}`), editor, body);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Channel not found' });
    }
    const still = await api.get(wsUrl(other.name, `/channels/${inOther._id}`), editor);
    expect(still.json().name).toBe(inOther.name);
  });

  it('answers 404 for malformed channel ids', async () => {
    const res = await api.get(wsUrl(ws.name, '/channels/not-a-uuid'), admin);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Channel not found' });
  });
});

describe('PATCH and DELETE channels', () => {
  it('lets the creator and admins rename a channel, keeping names unique', async () => {
    const mine = await createChannel(t, editor, ws.name, {});
    const taken = await createChannel(t, editor, ws.name, {});
    const renamed = await api.patch(wsUrl(ws.name, `/channels/${mine._id}`), editor, {
      name: 'renamed-by-creator',
      description: 'new',
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ _id: mine._id, name: 'renamed-by-creator', description: 'new' });
    const byAdmin = await api.patch(wsUrl(ws.name, `/channels/${mine._id}`), admin, {
      name: 'renamed-by-admin',
    });
    expect(byAdmin.json().name).toBe('renamed-by-admin');
    const clash = await api.patch(wsUrl(ws.name, `/channels/${mine._id}`), admin, {
      name: taken.name.toUpperCase(),
    });
    expect(clash.statusCode).toBe(409);
    const bad = await api.patch(wsUrl(ws.name, `/channels/${mine._id}`), admin, { name: '' });
    expect(bad.statusCode).toBe(400);
  });

  it('lets an admin delete a channel and tells subscribers', async () => {
    const doomed = await createChannel(t, editor, ws.name, {});
    const seen: unknown[] = [];
    const off = t.ctx.bus.on('channelDeleted', (e) => {
      seen.push(e);
    });
    try {
      expect((await api.del(wsUrl(ws.name, `/channels/${doomed._id}`), admin)).statusCode).toBe(204);
    } finally {
      off();
    }
    expect(seen).toEqual([{ workspaceId: ws._id, channelId: doomed._id }]);
    expect((await api.get(wsUrl(ws.name, `/channels/${doomed._id}`), admin)).statusCode).toBe(404);
  });
});
