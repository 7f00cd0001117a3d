import {
  CHAT_EVENTS,
  CHAT_MESSAGES,
  CHAT_NAMESPACE,
  type ChannelMessage,
  MAX_DISTINCT_REACTIONS,
  type SendChannelMessageAck,
} from '@cohort/shared/chat';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { client, createChannel, createWorkspace, wsUrl } from '../workspaces/test-fixtures.ts';
import { baseUrl, collect, newClientId, next, openSocket, request } from './chat.test-helpers.ts';

/** Edits, deletes, reactions and threads of channel messages: authorization, live updates, backfill. */

let t: TestApp;
let url: string;
let api: ReturnType<typeof client>;
let admin: TestUser;
let editor: TestUser;
let viewer: TestUser;
let outsider: TestUser;
let ws: { _id: string; name: string };
let open: { _id: string };
let secret: { _id: string };
let other: { _id: string };

const sockets: Socket[] = [];
async function chatSocket(user: TestUser, channelId = open._id) {
  const socket = await openSocket(url, CHAT_NAMESPACE, user.token);
  sockets.push(socket);
  await request(socket, CHAT_EVENTS.joinChannel, { channelId, workspaceName: ws.name });
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
    createUser(t.app),
  ]);
  ws = await createWorkspace(t, admin, {
    members: [
      { email: editor.email, role: 'editor' },
      { email: viewer.email, role: 'viewer' },
    ],
  });
  open = await createChannel(t, admin, ws.name, {});
  other = await createChannel(t, admin, ws.name, {});
  // Private to the editor (who created it) and the viewer; the admin is not listed.
  secret = await createChannel(t, editor, ws.name, { private: true, members: [viewer.id] });
});
afterAll(() => t.close());

const messagesUrl = (channelId = open._id) => wsUrl(ws.name, `/channels/${channelId}/messages`);
const messageUrl = (id: string, channelId = open._id) => `${messagesUrl(channelId)}/${id}`;

async function post(as: TestUser, content: string, channelId = open._id, parentId?: string) {
  const res = await api.post(messagesUrl(channelId), as, { clientId: newClientId(), content, parentId });
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json() as ChannelMessage;
}
const react = (as: TestUser, id: string, emoji: string, on = true, channelId = open._id) =>
  t.app.inject({
    method: on ? 'PUT' : 'DELETE',
    url: `${messageUrl(id, channelId)}/reactions/${encodeURIComponent(emoji)}`,
    headers: as.auth,
  });
const history = async (as: TestUser, query = '', channelId = open._id) =>
  (await api.get(`${messagesUrl(channelId)}?limit=200${query}`, as)).json() as ChannelMessage[];

describe('editing', () => {
  it('lets the sender edit, marks it edited, and tells the room', async () => {
    const m = await post(viewer, 'helo');
    const watcher = await chatSocket(admin);
    const updated = next<ChannelMessage>(watcher, CHAT_EVENTS.messageUpdated, (u) => u._id === m._id);
    const res = await api.patch(messageUrl(m._id), viewer, { content: '  hello  ' });
    expect(res.statusCode).toBe(200);
    const body = res.json() as ChannelMessage;
    expect(body).toMatchObject({ _id: m._id, seq: m.seq, content: 'hello', deleted: false });
    expect(body.editedAt).toEqual(expect.stringMatching(/^\d{4}-/));
    expect(body.rev).toBeGreaterThan(m.rev);
    expect(await updated).toEqual(body);
    expect((await history(admin)).find((x) => x._id === m._id)?.content).toBe('hello');
  });

  it('refuses others (403), non-readers (404), bad input (400) and deleted messages', async () => {
    const m = await post(viewer, 'mine');
    expect((await api.patch(messageUrl(m._id), admin, { content: 'x' })).statusCode).toBe(403);
    expect((await api.patch(messageUrl(m._id), outsider, { content: 'x' })).statusCode).toBe(404);
    expect((await api.patch(messageUrl(m._id), viewer, { content: '   ' })).statusCode).toBe(400);
    expect((await api.patch(messageUrl(m._id), viewer, { content: 'x'.repeat(4001) })).statusCode).toBe(400);
    // A message id through another channel's URL, or no message at all.
    expect((await api.patch(messageUrl(m._id, other._id), viewer, { content: 'x' })).statusCode).toBe(404);
    expect((await api.patch(messageUrl('nope'), viewer, { content: 'x' })).statusCode).toBe(404);
    // The admin is not listed in the private channel: it does not exist for them.
    const hidden = await post(editor, 'secret plans', secret._id);
    expect((await api.patch(messageUrl(hidden._id, secret._id), admin, { content: 'x' })).statusCode).toBe(
      404,
    );
    await api.del(messageUrl(m._id), viewer);
    const res = await api.patch(messageUrl(m._id), viewer, { content: 'back' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: CHAT_MESSAGES.messageDeleted });
    expect((await history(viewer)).find((x) => x._id === m._id)?.content).toBe('');
  });
});

describe('deleting', () => {
  it('keeps a placeholder in place: no content, no reactions, same seq; announced live', async () => {
    const m = await post(editor, 'oops');
    expect((await react(viewer, m._id, '👍')).statusCode).toBe(200);
    const watcher = await chatSocket(viewer);
    const updated = next<ChannelMessage>(watcher, CHAT_EVENTS.messageUpdated, (u) => u._id === m._id);
    const res = await api.del(messageUrl(m._id), editor);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ _id: m._id, seq: m.seq, content: '', deleted: true, reactions: [] });
    expect((await updated).deleted).toBe(true);
    const stored = (await history(viewer)).find((x) => x._id === m._id);
    expect(stored).toMatchObject({ seq: m.seq, content: '', deleted: true });
    // Deleting again answers the deleted message; reacting to it is refused.
    expect((await api.del(messageUrl(m._id), editor)).statusCode).toBe(200);
    expect((await react(viewer, m._id, '👍')).statusCode).toBe(400);
  });

  it('lets a workspace admin delete anyone’s message, but not an editor or viewer', async () => {
    const m = await post(viewer, 'spam');
    expect((await api.del(messageUrl(m._id), editor)).statusCode).toBe(403);
    expect((await api.del(messageUrl(m._id), outsider)).statusCode).toBe(404);
    expect((await api.del(messageUrl(m._id), admin)).statusCode).toBe(200);
  });
});

describe('backfill of changes', () => {
  it('answers everything inserted or changed after a rev, in rev order', async () => {
    const a = await post(admin, 'first');
    const b = await post(viewer, 'second');
    const cursor = b.rev;
    await api.patch(messageUrl(a._id), admin, { content: 'first, edited' });
    await api.del(messageUrl(b._id), viewer);
    await react(editor, a._id, '🎉');
    const c = await post(editor, 'third');
    const changes = await history(viewer, `&changedAfter=${cursor}`);
    // Each message once, in its newest state, ordered by the rev of its last change.
    expect(changes.map((m) => m._id)).toEqual([b._id, a._id, c._id]);
    expect(changes[0]).toMatchObject({ deleted: true, content: '' });
    expect(changes[1]).toMatchObject({ content: 'first, edited', reactions: [{ emoji: '🎉', count: 1 }] });
    const revs = changes.map((m) => m.rev);
    expect(revs).toEqual([...revs].sort((x, y) => x - y));
    expect(await history(viewer, `&changedAfter=${c.rev}`)).toEqual([]);
    // A reader who may not read the channel gets nothing.
    expect((await api.get(`${messagesUrl(secret._id)}?changedAfter=0`, admin)).statusCode).toBe(404);
  });
});

describe('reactions', () => {
  it(`caps a message at ${MAX_DISTINCT_REACTIONS} different emoji, even when they arrive at once`, async () => {
    const m = await post(viewer, 'react to me a lot');
    // Emoji the schema accepts: one pictographic grapheme each.
    const pool = [
      ...'😀😁😂🤣😃😄😅😆😉😊😋😎😍😘🥰😗😙😚🙂🤗🤩🤔🤨😐😑😶🙄😏😣😥😮🤐😯😪😫🥱😴😌😛😜😝🤤😒😓😔😕🙃🤑😲🙁😖😞😟😤😢😭😦😧😨😩🤯😬😰😱🥵🥶',
    ];
    expect(pool.length).toBeGreaterThan(MAX_DISTINCT_REACTIONS + 5);
    const answers = await Promise.all(pool.map((emoji, i) => react(i % 2 ? viewer : admin, m._id, emoji)));
    expect(answers.filter((r) => r.statusCode === 200).length).toBe(MAX_DISTINCT_REACTIONS);
    const refused = answers.filter((r) => r.statusCode !== 200);
    for (const r of refused) expect(r.json()).toEqual({ message: CHAT_MESSAGES.tooManyReactions });
    // Joining an emoji already there is still fine.
    const first = (await history(viewer)).find((x) => x._id === m._id)?.reactions[0]?.emoji ?? '';
    expect((await react(editor, m._id, first)).statusCode).toBe(200);
  });

  it('adds and removes idempotently, counts and names who reacted, tells the room', async () => {
    const m = await post(admin, 'ship it?');
    const watcher = await chatSocket(admin);
    const seen = collect<ChannelMessage>(watcher, CHAT_EVENTS.messageUpdated);
    expect((await react(viewer, m._id, '👍')).statusCode).toBe(200);
    expect((await react(viewer, m._id, '👍')).statusCode).toBe(200);
    const res = await react(editor, m._id, '👍');
    expect(res.json()).toMatchObject({
      reactions: [
        {
          emoji: '👍',
          count: 2,
          users: [
            { _id: viewer.id, name: 'Vera Viewer' },
            { _id: editor.id, name: 'Eddie Editor' },
          ],
        },
      ],
    });
    const off = await react(viewer, m._id, '👍', false);
    expect(off.json()).toMatchObject({ reactions: [{ emoji: '👍', count: 1 }] });
    expect((await react(viewer, m._id, '👍', false)).json()).toMatchObject({ reactions: [{ count: 1 }] });
    // A change is announced before its PUT answers: once the last real change arrives, announcements
    // of the repeated PUTs (an add and a removal) would have arrived before it.
    const last = next<ChannelMessage>(watcher, CHAT_EVENTS.messageUpdated, (u) => u.reactions.length === 0);
    expect((await react(editor, m._id, '👍', false)).statusCode).toBe(200);
    await last;
    const counts = seen.filter((u) => u._id === m._id).map((u) => u.reactions[0]?.count ?? 0);
    expect(counts).toEqual([1, 2, 1, 0]);
  });

  it('accepts any single emoji of the picker: sequences, skin tones, flags and keycaps', async () => {
    const m = await post(admin, 'react with anything');
    for (const emoji of ['😄', '🦄', '👩🏽‍💻', '🇫🇷', '1️⃣']) {
      const res = await react(viewer, m._id, emoji);
      expect(res.statusCode, emoji).toBe(200);
    }
    const last = await react(viewer, m._id, '🏳️‍🌈');
    expect(last.json().reactions.map((r: { emoji: string }) => r.emoji)).toEqual([
      '😄',
      '🦄',
      '👩🏽‍💻',
      '🇫🇷',
      '1️⃣',
      '🏳️‍🌈',
    ]);
  });

  it('refuses non-emoji, unreadable messages and other channels', async () => {
    const m = await post(admin, 'react to me');
    expect((await react(viewer, m._id, 'abc')).statusCode).toBe(400);
    expect((await react(viewer, m._id, '👍👍👍👍👍👍👍👍👍')).statusCode).toBe(400);
    expect((await react(viewer, m._id, '1')).statusCode).toBe(400);
    expect((await react(outsider, m._id, '👍')).statusCode).toBe(404);
    expect((await react(viewer, m._id, '👍', true, other._id)).statusCode).toBe(404);
    const hidden = await post(editor, 'psst', secret._id);
    expect((await react(admin, hidden._id, '👍', true, secret._id)).statusCode).toBe(404);
  });
});

describe('threads', () => {
  it('replies over the socket; the parent counts replies and the room hears both', async () => {
    const parent = await post(admin, 'thread starter');
    const [replier, watcher] = await Promise.all([chatSocket(viewer), chatSocket(editor)]);
    const parentUpdate = next<ChannelMessage>(
      watcher,
      CHAT_EVENTS.messageUpdated,
      (u) => u._id === parent._id,
    );
    const reply = next<ChannelMessage>(watcher, CHAT_EVENTS.newMessage, (u) => u.parentId === parent._id);
    const ack = await request<SendChannelMessageAck>(replier, CHAT_EVENTS.sendMessage, {
      channelId: open._id,
      workspaceName: ws.name,
      clientId: newClientId(),
      message: { content: 'a reply', parentId: parent._id },
    });
    expect(ack.ok).toBe(true);
    if (!ack.ok) return;
    expect(ack.message).toMatchObject({ parentId: parent._id, content: 'a reply' });
    expect(await reply).toEqual(ack.message);
    const updated = await parentUpdate;
    expect(updated).toMatchObject({ replyCount: 1, lastReplyAt: ack.message.timestamp });
    await post(editor, 'second reply', open._id, parent._id);
    const thread = await api.get(`${messageUrl(parent._id)}/thread`, viewer);
    expect(thread.statusCode).toBe(200);
    expect((thread.json() as ChannelMessage[]).map((m) => m.content)).toEqual(['a reply', 'second reply']);
    expect((await history(viewer)).find((m) => m._id === parent._id)?.replyCount).toBe(2);
  });

  it('refuses replies to replies, to other channels’ messages and for non-readers', async () => {
    const parent = await post(admin, 'root');
    const reply = await post(viewer, 'child', open._id, parent._id);
    const bad = (parentId: string, channelId = open._id) =>
      api.post(messagesUrl(channelId), viewer, { clientId: newClientId(), content: 'x', parentId });
    expect((await bad(reply._id)).statusCode).toBe(400);
    expect((await bad(parent._id, other._id)).statusCode).toBe(400);
    expect((await bad('not-a-uuid')).statusCode).toBe(400);
    const socket = await chatSocket(viewer);
    const ack = await request<SendChannelMessageAck>(socket, CHAT_EVENTS.sendMessage, {
      channelId: open._id,
      workspaceName: ws.name,
      clientId: newClientId(),
      message: { content: 'x', parentId: reply._id },
    });
    expect(ack).toEqual({ ok: false, message: CHAT_MESSAGES.invalidParent });
    expect((await api.get(`${messageUrl(parent._id)}/thread`, outsider)).statusCode).toBe(404);
    const hidden = await post(editor, 'private root', secret._id);
    const res = await api.post(messagesUrl(secret._id), admin, {
      clientId: newClientId(),
      content: 'sneaky',
      parentId: hidden._id,
    });
    expect(res.statusCode).toBe(404);
    expect((await api.get(`${messageUrl(hidden._id, secret._id)}/thread`, admin)).statusCode).toBe(404);
  });
});
