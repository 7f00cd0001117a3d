import { randomUUID } from 'node:crypto';
import {
  CHANNEL_EVENTS,
  CHANNEL_MESSAGES,
  type ChannelAccessLostEvent,
  type ChannelMembersChangedEvent,
  type ChannelUpdatedEvent,
} from '@cohort/shared/channels';
import {
  CHAT_EVENTS,
  CHAT_NAMESPACE,
  type ChannelMessage,
  type SendChannelMessageAck,
} from '@cohort/shared/chat';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { PNG, upload } from '../files/files.test-helpers.ts';
import {
  acceptInvitation,
  client,
  createChannel,
  createWorkspace,
  uniqueName,
  wsUrl,
} from '../workspaces/test-fixtures.ts';
import {
  baseUrl,
  collect,
  eventually,
  newClientId,
  next,
  openSocket,
  request,
  sleep,
} from './chat.test-helpers.ts';

/**
 * Managing channels (issue 22): rename, topic, archive, join and leave, the member list and private
 * membership, stars — each rule over HTTP, and what two connected clients see live.
 */

let t: TestApp;
let url: string;
let api: ReturnType<typeof client>;
let admin: TestUser;
let editor: TestUser;
let viewer: TestUser;
let outsider: TestUser;
let ws: { _id: string; name: string };

const sockets: Socket[] = [];
async function chatSocket(user: TestUser) {
  const socket = await openSocket(url, CHAT_NAMESPACE, user.token);
  sockets.push(socket);
  return socket;
}
afterEach(() => {
  for (const s of sockets.splice(0)) s.close();
});

beforeAll(async () => {
  t = await createTestApp({ listen: true });
  url = baseUrl(t.app.server);
  api = client(t);
  [admin, editor, viewer, outsider] = await Promise.all([
    createUser(t.app, { firstName: 'Ada', lastName: 'Admin' }),
    createUser(t.app, { firstName: 'Eddie', lastName: 'Editor' }),
    createUser(t.app, { firstName: 'Vera', lastName: 'Viewer' }),
    createUser(t.app, { firstName: 'Otto', lastName: 'Outsider' }),
  ]);
  ws = await createWorkspace(t, admin, {
    members: [
      { email: editor.email, role: 'editor' },
      { email: viewer.email, role: 'viewer' },
    ],
  });
});
afterAll(() => t.close());

const chUrl = (channelId: string, rest = '') => wsUrl(ws.name, `/channels/${channelId}${rest}`);
const joinRoom = (s: Socket, channelId: string) =>
  request(s, CHAT_EVENTS.joinChannel, { channelId, workspaceName: ws.name });
const send = (s: Socket, channelId: string, content: string) =>
  request<SendChannelMessageAck>(s, CHAT_EVENTS.sendMessage, {
    channelId,
    workspaceName: ws.name,
    clientId: newClientId(),
    message: { content },
  });
const systemMessage = (s: Socket, channelId: string, content: string) =>
  next<ChannelMessage>(s, CHAT_EVENTS.newMessage, (m) => m.channel === channelId && m.content === content);
const browse = async (as: TestUser) =>
  (await api.get(wsUrl(ws.name, '/channels/browse'), as)).json() as Array<{
    _id: string;
    name: string;
    topic: string;
    archived: boolean;
    memberCount: number;
    joined: boolean;
  }>;

describe('renaming, the topic and archiving', () => {
  it('are seen live by every client in the channel and announced in it as system messages', async () => {
    const channel = await createChannel(t, admin, ws.name, { members: [viewer.id] });
    const [adminSocket, viewerSocket] = [await chatSocket(admin), await chatSocket(viewer)];
    await joinRoom(adminSocket, channel._id);
    await joinRoom(viewerSocket, channel._id);

    const name = uniqueName('launch');
    const updated = next<ChannelUpdatedEvent>(
      viewerSocket,
      CHANNEL_EVENTS.channelUpdated,
      (e) => e.channel.name === name,
    );
    const renamed = systemMessage(viewerSocket, channel._id, `Ada Admin renamed the channel to ${name}`);
    const res = await api.patch(chUrl(channel._id), admin, { name });
    expect(res.statusCode).toBe(200);
    expect((await updated).channel).toMatchObject({ _id: channel._id, name, archived: false });
    const announced = await renamed;
    expect(announced).toMatchObject({ kind: 'system', sender: { _id: admin.id } });

    // The topic is an editor's to set too (the name is not: the admin created it).
    const topic = systemMessage(viewerSocket, channel._id, 'Eddie Editor set the topic: Ship it Friday');
    expect((await api.patch(chUrl(channel._id), editor, { topic: ' Ship it Friday ' })).json().topic).toBe(
      'Ship it Friday',
    );
    await topic;
    expect((await api.patch(chUrl(channel._id), editor, { name: uniqueName('x') })).statusCode).toBe(403);
    expect((await api.patch(chUrl(channel._id), viewer, { topic: 'mine' })).statusCode).toBe(403);

    const archivedEvent = next<ChannelUpdatedEvent>(
      viewerSocket,
      CHANNEL_EVENTS.channelUpdated,
      (e) => e.channel.archived,
    );
    const archivedMessage = systemMessage(viewerSocket, channel._id, 'Ada Admin archived the channel');
    expect((await api.post(chUrl(channel._id, '/archive'), admin, {})).json()).toMatchObject({
      archived: true,
    });
    await archivedEvent;
    await archivedMessage;

    // The history keeps the announcements, in order, after the messages before them.
    const history = (await api.get(chUrl(channel._id, '/messages'), viewer)).json() as ChannelMessage[];
    expect(history.filter((m) => m.kind === 'system').map((m) => m.content)).toEqual([
      `Ada Admin renamed the channel to ${name}`,
      'Eddie Editor set the topic: Ship it Friday',
      'Ada Admin archived the channel',
    ]);
  });

  it('an archived channel is read-only over HTTP and sockets, yet readable, searchable and in the browse view', async () => {
    const channel = await createChannel(t, admin, ws.name, { members: [viewer.id] });
    const viewerSocket = await chatSocket(viewer);
    await joinRoom(viewerSocket, channel._id);
    const word = `zebra${randomUUID().slice(0, 6)}`;
    const before = await send(viewerSocket, channel._id, `remember the ${word}`);
    expect(before.ok).toBe(true);
    const messageId = before.ok ? before.message._id : '';
    expect((await api.post(chUrl(channel._id, '/archive'), admin, {})).statusCode).toBe(200);

    const refused = { message: CHANNEL_MESSAGES.archived };
    expect(await send(viewerSocket, channel._id, 'still there?')).toEqual({ ok: false, ...refused });
    const post = await api.post(chUrl(channel._id, '/messages'), viewer, {
      clientId: newClientId(),
      content: 'hi',
    });
    expect([post.statusCode, post.json()]).toEqual([409, refused]);
    const edit = await api.patch(chUrl(channel._id, `/messages/${messageId}`), viewer, {
      content: 'changed',
    });
    expect([edit.statusCode, edit.json()]).toEqual([409, refused]);
    const react = await api.put(
      chUrl(channel._id, `/messages/${messageId}/reactions/${encodeURIComponent('👍')}`),
      viewer,
    );
    expect([react.statusCode, react.json()]).toEqual([409, refused]);
    const del = await api.del(chUrl(channel._id, `/messages/${messageId}`), viewer);
    expect([del.statusCode, del.json()]).toEqual([409, refused]);
    const shared = await upload(t, viewer, { workspaceName: ws.name, channelId: channel._id }, [
      { name: 'file', data: PNG, filename: 'a.png', type: 'image/png' },
    ]);
    expect([shared.statusCode, shared.json()]).toEqual([409, refused]);
    const rename = await api.patch(chUrl(channel._id), admin, { topic: 'new' });
    expect([rename.statusCode, rename.json()]).toEqual([409, refused]);
    // Nobody joins an archived channel; archiving twice is a conflict too.
    expect((await api.post(chUrl(channel._id, '/join'), editor, {})).statusCode).toBe(409);
    expect((await api.post(chUrl(channel._id, '/archive'), admin, {})).json()).toEqual({
      message: CHANNEL_MESSAGES.alreadyArchived,
    });

    // Still readable and searchable by its readers; marked in the browse view.
    const history = (await api.get(chUrl(channel._id, '/messages'), viewer)).json() as ChannelMessage[];
    expect(history.map((m) => m.content)).toContain(`remember the ${word}`);
    const found = await api.get(`/api/search?q=${word}`, viewer);
    expect(found.statusCode).toBe(200);
    expect(found.body).toContain(messageId);
    expect((await browse(editor)).find((c) => c._id === channel._id)).toMatchObject({ archived: true });
    // The workspace listing keeps it (the web hides archived ones from the sidebar), marked archived.
    const detail = (await api.get(wsUrl(ws.name), viewer)).json() as {
      chat: { channels: Array<{ _id: string; archived: boolean }> };
    };
    expect(detail.chat.channels.find((c) => c._id === channel._id)?.archived).toBe(true);

    // Unarchived, it takes messages again.
    expect((await api.post(chUrl(channel._id, '/unarchive'), admin, {})).json()).toMatchObject({
      archived: false,
    });
    expect((await send(viewerSocket, channel._id, 'back again')).ok).toBe(true);
  });

  it('announces changes made one right after another in the order they were made', async () => {
    const channel = await createChannel(t, admin, ws.name, {});
    const adminSocket = await chatSocket(admin);
    await joinRoom(adminSocket, channel._id);
    const heard = collect<ChannelMessage>(adminSocket, CHAT_EVENTS.newMessage);
    const name = uniqueName('fast');
    // No waiting between the changes: each request returns as soon as its change is committed.
    await api.patch(chUrl(channel._id), admin, { name, topic: 'One' });
    await api.patch(chUrl(channel._id), admin, { topic: 'Two' });
    await api.post(chUrl(channel._id, '/archive'), admin, {});
    await api.post(chUrl(channel._id, '/unarchive'), admin, {});
    const expected = [
      `Ada Admin renamed the channel to ${name}`,
      'Ada Admin set the topic: One',
      'Ada Admin set the topic: Two',
      'Ada Admin archived the channel',
      'Ada Admin unarchived the channel',
    ];
    await eventually(() => heard.length >= expected.length);
    expect(heard.map((m) => m.content)).toEqual(expected);
    expect(heard.map((m) => m.seq)).toEqual([...heard.map((m) => m.seq)].sort((a, b) => a - b));
  });

  it('validates names, topics and descriptions with clear 400s', async () => {
    const channel = await createChannel(t, admin, ws.name, {});
    for (const [body, field] of [
      [{ name: 'bell\u0007' }, 'name'],
      [{ name: 'two\nlines' }, 'name'],
      [{ topic: 'tab\there' }, 'topic'],
      [{ topic: 'x'.repeat(251) }, 'topic'],
      [{ description: 'nul\u0000' }, 'description'],
      [{ description: 'esc\u001b[31m' }, 'description'],
      [{ name: '' }, 'name'],
      [{ topic: 42 }, 'topic'],
    ] as const) {
      const res = await api.patch(chUrl(channel._id), admin, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().field).toBe(field);
      expect(typeof res.json().message).toBe('string');
    }
    // Creating a channel follows the same rule.
    const created = await api.post(wsUrl(ws.name, '/channels'), admin, {
      name: 'bell\u0007',
      description: 'd',
    });
    expect([created.statusCode, created.json().field]).toEqual([400, 'name']);
    // A description keeps its line breaks; an empty topic clears it.
    const ok = await api.patch(chUrl(channel._id), admin, { description: 'line one\nline two', topic: 'x' });
    expect(ok.json()).toMatchObject({ description: 'line one\nline two', topic: 'x' });
    expect((await api.patch(chUrl(channel._id), admin, { topic: '' })).json().topic).toBe('');
  });
});

describe('joining and leaving open channels', () => {
  it('the browse view lists open channels with their member count and whether the caller joined', async () => {
    const channel = await createChannel(t, admin, ws.name, { members: [viewer.id] });
    const secret = await createChannel(t, admin, ws.name, { private: true });
    const seen = await browse(editor);
    expect(seen.find((c) => c._id === channel._id)).toMatchObject({
      memberCount: 2,
      joined: false,
      archived: false,
    });
    // Private channels the caller is not in are not there at all, not even for an admin who is not listed.
    expect(seen.map((c) => c._id)).not.toContain(secret._id);
    expect((await browse(admin)).find((c) => c._id === secret._id)).toMatchObject({
      joined: true,
      memberCount: 1,
    });
  });

  it('join and leave are live for the channel and announced; both are idempotent', async () => {
    const channel = await createChannel(t, admin, ws.name, {});
    const [adminSocket, editorSocket] = [await chatSocket(admin), await chatSocket(editor)];
    await joinRoom(adminSocket, channel._id);

    const count = next<ChannelMembersChangedEvent>(
      adminSocket,
      CHANNEL_EVENTS.channelMembersChanged,
      (e) => e.channelId === channel._id,
    );
    // The joiner's other tabs hear it through their own room (their sidebar lists it now).
    const mine = next<ChannelMembersChangedEvent>(
      editorSocket,
      CHANNEL_EVENTS.channelMembersChanged,
      (e) => e.channelId === channel._id,
    );
    const joined = systemMessage(adminSocket, channel._id, 'Eddie Editor joined the channel');
    const res = await api.post(chUrl(channel._id, '/join'), editor, {});
    expect(res.json()).toMatchObject({ joined: true, members: [admin.id, editor.id] });
    expect((await count).memberCount).toBe(2);
    await mine;
    await joined;

    const messages = collect<ChannelMessage>(adminSocket, CHAT_EVENTS.newMessage);
    expect((await api.post(chUrl(channel._id, '/join'), editor, {})).json().joined).toBe(true);
    const left = systemMessage(adminSocket, channel._id, 'Eddie Editor left the channel');
    expect((await api.post(chUrl(channel._id, '/leave'), editor, {})).json()).toMatchObject({
      joined: false,
    });
    await left;
    expect((await api.post(chUrl(channel._id, '/leave'), editor, {})).json().joined).toBe(false);
    await sleep(200);
    // Joining twice and leaving twice announced once each.
    expect(messages.map((m) => m.content)).toEqual(['Eddie Editor left the channel']);
    // Reading an open channel stays every member's, joined or not.
    expect((await api.get(chUrl(channel._id, '/messages'), editor)).statusCode).toBe(200);
  });

  it('announcements are not unread news, and nobody may edit them', async () => {
    const channel = await createChannel(t, admin, ws.name, {});
    await api.post(chUrl(channel._id, '/join'), viewer, {});
    const adminSocket = await chatSocket(admin);
    await joinRoom(adminSocket, channel._id);
    const renamed = systemMessage(adminSocket, channel._id, 'Ada Admin changed the channel description');
    await api.patch(chUrl(channel._id), admin, { description: 'Elsewhere' });
    const message = await renamed;
    const unread = (await api.get(wsUrl(ws.name, '/unread'), viewer)).json() as Array<{
      channelId: string;
      unread: number;
    }>;
    expect(unread.find((u) => u.channelId === channel._id)?.unread).toBe(0);
    const edit = await api.patch(chUrl(channel._id, `/messages/${message._id}`), admin, {
      content: 'mine now',
    });
    expect(edit.statusCode).toBe(403);
  });

  it('a newcomer starts in every open, unarchived channel and in no private one', async () => {
    const open = await createChannel(t, admin, ws.name, {});
    const archived = await createChannel(t, admin, ws.name, {});
    const secret = await createChannel(t, admin, ws.name, { private: true });
    await api.post(chUrl(archived._id, '/archive'), admin, {});
    const newcomer = await createUser(t.app, { firstName: 'Nia', lastName: 'New' });
    await api.post(wsUrl(ws.name, '/members'), admin, { email: newcomer.email, role: 'viewer' });
    await acceptInvitation(t, newcomer, ws.name);
    const seen = await browse(newcomer);
    expect(seen.find((c) => c._id === open._id)?.joined).toBe(true);
    expect(seen.find((c) => c._id === archived._id)?.joined).toBe(false);
    expect(seen.map((c) => c._id)).not.toContain(secret._id);
  });
});

describe('the member list and private channels', () => {
  it('lists members with their workspace roles, creator first; private ones are 404 to everyone else', async () => {
    const secret = await createChannel(t, editor, ws.name, { private: true, members: [viewer.id] });
    const list = (await api.get(chUrl(secret._id, '/members'), viewer)).json();
    expect(list).toEqual([
      expect.objectContaining({ _id: editor.id, role: 'editor', isCreator: true, firstName: 'Eddie' }),
      expect.objectContaining({ _id: viewer.id, role: 'viewer', isCreator: false }),
    ]);
    for (const who of [admin, outsider]) {
      const res = await api.get(chUrl(secret._id, '/members'), who);
      expect(res.statusCode).toBe(404);
    }
    expect((await api.get(chUrl(secret._id, '/members'), admin)).json()).toEqual({
      message: 'Channel not found',
    });
  });

  it('an admin adds people live; a removed member loses access at once: their sockets leave the room', async () => {
    const staff = await createChannel(t, admin, ws.name, { private: true });
    const [adminSocket, viewerSocket] = [await chatSocket(admin), await chatSocket(viewer)];
    await joinRoom(adminSocket, staff._id);
    expect(await joinRoom(viewerSocket, staff._id)).toEqual({ ok: false, message: 'Channel not found' });

    const told = next<ChannelMembersChangedEvent>(
      viewerSocket,
      CHANNEL_EVENTS.channelMembersChanged,
      (e) => e.channelId === staff._id,
    );
    const added = systemMessage(adminSocket, staff._id, 'Ada Admin added Vera Viewer');
    const res = await api.post(chUrl(staff._id, '/members'), admin, { userIds: [viewer.id] });
    expect(res.json().map((m: { _id: string }) => m._id)).toEqual([admin.id, viewer.id]);
    expect((await told).memberCount).toBe(2);
    await added;
    expect(await joinRoom(viewerSocket, staff._id)).toEqual({ ok: true });

    const lost = next<ChannelAccessLostEvent>(viewerSocket, CHANNEL_EVENTS.channelAccessLost);
    const removed = systemMessage(adminSocket, staff._id, 'Ada Admin removed Vera Viewer');
    expect((await api.del(chUrl(staff._id, `/members/${viewer.id}`), admin)).statusCode).toBe(204);
    expect(await lost).toEqual({ workspaceId: ws._id, channelId: staff._id });
    await removed;
    const heard = collect<ChannelMessage>(viewerSocket, CHAT_EVENTS.newMessage);
    const after = await send(adminSocket, staff._id, 'not for Vera');
    expect(after.ok).toBe(true);
    await sleep(200);
    expect(heard).toEqual([]);
    expect((await api.get(chUrl(staff._id), viewer)).statusCode).toBe(404);
    expect(await send(viewerSocket, staff._id, 'let me in')).toEqual({
      ok: false,
      message: 'Channel not found',
    });
  });

  it('refuses what does not fit: open channels, strangers, oneself, the wrong shapes', async () => {
    const open = await createChannel(t, admin, ws.name, {});
    const staff = await createChannel(t, admin, ws.name, { private: true, members: [editor.id] });
    const cases: Array<[string, () => Promise<{ statusCode: number; json(): unknown }>, number]> = [
      [
        'add to an open channel',
        () => api.post(chUrl(open._id, '/members'), admin, { userIds: [viewer.id] }),
        400,
      ],
      [
        'add a non-member',
        () => api.post(chUrl(staff._id, '/members'), admin, { userIds: [outsider.id] }),
        404,
      ],
      ['add nobody', () => api.post(chUrl(staff._id, '/members'), admin, { userIds: [] }), 400],
      ['add a non-id', () => api.post(chUrl(staff._id, '/members'), admin, { userIds: ['bob'] }), 400],
      ['add without a body', () => api.post(chUrl(staff._id, '/members'), admin, {}), 400],
      ['remove oneself', () => api.del(chUrl(staff._id, `/members/${admin.id}`), admin), 400],
      ['remove someone not in it', () => api.del(chUrl(staff._id, `/members/${viewer.id}`), admin), 404],
      ['remove a malformed id', () => api.del(chUrl(staff._id, '/members/nope'), admin), 404],
      ['join a private channel one is not in', () => api.post(chUrl(staff._id, '/join'), viewer, {}), 404],
    ];
    for (const [label, call, status] of cases) {
      const res = await call();
      expect(res.statusCode, label).toBe(status);
      expect(typeof (res.json() as { message: unknown }).message, label).toBe('string');
    }
    // Nothing changed.
    expect(
      (await api.get(chUrl(staff._id, '/members'), admin)).json().map((m: { _id: string }) => m._id),
    ).toEqual([admin.id, editor.id]);
  });
});

describe('stars', () => {
  it('are per user and persisted', async () => {
    const channel = await createChannel(t, admin, ws.name, {});
    expect((await api.put(chUrl(channel._id, '/star'), viewer)).json().starred).toBe(true);
    const starredBy = async (who: TestUser) =>
      (
        (await api.get(wsUrl(ws.name), who)).json() as {
          chat: { channels: Array<{ _id: string; starred: boolean }> };
        }
      ).chat.channels.find((c) => c._id === channel._id)?.starred;
    expect(await starredBy(viewer)).toBe(true);
    expect(await starredBy(admin)).toBe(false);
    expect((await api.del(chUrl(channel._id, '/star'), viewer)).json().starred).toBe(false);
    expect(await starredBy(viewer)).toBe(false);
  });
});
