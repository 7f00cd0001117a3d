import {
  CHAT_EVENTS,
  CHAT_MESSAGES,
  CHAT_NAMESPACE,
  type ChannelMessage,
  MESSAGE_MAX_LENGTH,
  SEND_RATE_LIMIT,
  type SendChannelMessageAck,
  type UserTypingEvent,
} from '@cohort/shared/chat';
import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { channelMessages, sessions } from '../../db/schema.ts';
import { client, createChannel, createWorkspace, wsUrl } from '../workspaces/test-fixtures.ts';
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

let t: TestApp;
let url: string;
let api: ReturnType<typeof client>;
let admin: TestUser;
let viewer: TestUser;
let editor: TestUser;
let outsider: TestUser;
let ws: { _id: string; name: string };
let open: { _id: string };

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
  [admin, viewer, editor, outsider] = await Promise.all([
    createUser(t.app, { firstName: 'Ada', lastName: 'Admin' }),
    createUser(t.app, { firstName: 'Vera', lastName: 'Viewer' }),
    createUser(t.app, { firstName: 'Eddie', lastName: 'Editor' }),
    createUser(t.app, { firstName: 'Otto', lastName: 'Outsider' }),
  ]);
  ws = await createWorkspace(t, admin, {
    members: [
      { email: viewer.email, role: 'viewer' },
      { email: editor.email, role: 'editor' },
    ],
  });
  open = await createChannel(t, admin, ws.name, {});
});
afterAll(() => t.close());

const ref = (channelId = open._id, workspaceName = ws.name) => ({ channelId, workspaceName });
const join = (s: Socket, channelId = open._id, workspaceName = ws.name) =>
  request(s, CHAT_EVENTS.joinChannel, ref(channelId, workspaceName));
const send = (s: Socket, content: string, extra: Record<string, unknown> = {}, channelId = open._id) =>
  request<SendChannelMessageAck>(s, CHAT_EVENTS.sendMessage, {
    ...ref(channelId),
    clientId: newClientId(),
    message: { content },
    ...extra,
  });
const history = async (channelId = open._id, as = admin, query = '') =>
  (
    await api.get(wsUrl(ws.name, `/channels/${channelId}/messages?limit=200${query}`), as)
  ).json() as ChannelMessage[];

describe('/chat delivery', () => {
  it('delivers a committed message to the channel members in the room, and to nobody else', async () => {
    const [a, v, o] = await Promise.all([chatSocket(admin), chatSocket(viewer), chatSocket(outsider)]);
    expect(await join(a)).toEqual({ ok: true });
    expect(await join(v)).toEqual({ ok: true });
    expect(await join(o)).toEqual({ ok: false, message: CHAT_MESSAGES.channelNotFound });
    const outsiderSaw = collect<ChannelMessage>(o, CHAT_EVENTS.newMessage);

    const delivered = next<ChannelMessage>(v, CHAT_EVENTS.newMessage);
    const echoed = next<ChannelMessage>(a, CHAT_EVENTS.newMessage);
    const ack = await send(a, '  hello team  ');
    expect(ack.ok).toBe(true);
    if (!ack.ok) return;
    expect(ack.message).toMatchObject({
      channel: open._id,
      content: 'hello team',
      sender: { _id: admin.id, email: admin.email, name: 'Ada Admin' },
    });
    expect(Number.isInteger(ack.message.seq)).toBe(true);
    expect(await delivered).toEqual(ack.message);
    expect(await echoed).toEqual(ack.message);

    // The outsider can neither post there nor see anything.
    expect(await send(o, 'let me in')).toEqual({ ok: false, message: CHAT_MESSAGES.channelNotFound });
    // Positive control: the same listener gets a message the outsider may read, sent after the
    // team's message reached the members: had the team's reached the outsider, it would be first.
    const own = await createWorkspace(t, outsider);
    const ownChannel = await createChannel(t, outsider, own.name, {});
    expect(await join(o, ownChannel._id, own.name)).toEqual({ ok: true });
    const control = next<ChannelMessage>(o, CHAT_EVENTS.newMessage);
    expect((await send(o, 'in my own channel', { workspaceName: own.name }, ownChannel._id)).ok).toBe(true);
    await control;
    expect(outsiderSaw.map((m) => m.content)).toEqual(['in my own channel']);
  });

  it('refuses private channels to workspace members who are not listed, and delivers nothing to them', async () => {
    const secret = await createChannel(t, admin, ws.name, { private: true, members: [viewer.id] });
    const [a, v, e] = await Promise.all([chatSocket(admin), chatSocket(viewer), chatSocket(editor)]);
    expect(await join(a, secret._id)).toEqual({ ok: true });
    expect(await join(v, secret._id)).toEqual({ ok: true });
    expect(await join(e, secret._id)).toEqual({ ok: false, message: CHAT_MESSAGES.channelNotFound });
    expect(await join(e)).toEqual({ ok: true });
    const editorSaw = collect<ChannelMessage>(e, CHAT_EVENTS.newMessage);
    const got = next<ChannelMessage>(v, CHAT_EVENTS.newMessage);
    expect((await send(a, 'just us', {}, secret._id)).ok).toBe(true);
    await got;
    expect(await send(e, 'me too', {}, secret._id)).toEqual({
      ok: false,
      message: CHAT_MESSAGES.channelNotFound,
    });
    // Positive control: a message in the open channel, sent after the private one was delivered,
    // reaches the editor; the private one, had it leaked, would have arrived before it.
    const control = next<ChannelMessage>(e, CHAT_EVENTS.newMessage);
    expect((await send(a, 'for everyone')).ok).toBe(true);
    await control;
    expect(editorSaw.map((m) => m.content)).toEqual(['for everyone']);
    expect((await history(secret._id, admin)).map((m) => m.content)).toEqual(['just us']);
  });

  it('refuses joins with malformed or unknown references', async () => {
    const s = await chatSocket(admin);
    const notFound = { ok: false, message: CHAT_MESSAGES.channelNotFound };
    expect(await join(s, 'not-a-uuid')).toEqual(notFound);
    expect(await join(s, crypto.randomUUID())).toEqual(notFound);
    expect(await join(s, open._id, 'no-such-workspace')).toEqual(notFound);
    expect(await request(s, CHAT_EVENTS.joinChannel, 'garbage')).toEqual(notFound);
  });

  it('takes the sender from the session, ignoring any senderId or userId in the payload', async () => {
    const v = await chatSocket(viewer);
    await join(v);
    const ack = await send(v, 'who am I', {
      senderId: admin.email,
      userId: admin.id,
      message: { content: 'who am I', senderId: admin.email },
    });
    expect(ack.ok && ack.message.sender).toEqual({
      _id: viewer.id,
      email: viewer.email,
      name: 'Vera Viewer',
    });
    const stored = (await history()).find((m) => ack.ok && m._id === ack.message._id);
    expect(stored?.sender._id).toBe(viewer.id);
  });

  it('lets a viewer chat (docs/permissions.md: viewer — read, chat, comment)', async () => {
    const v = await chatSocket(viewer);
    const ack = await send(v, 'viewers talk too');
    expect(ack.ok).toBe(true);
  });

  it('answers a resend of a clientId with the original message, storing and broadcasting nothing', async () => {
    const [a, v] = await Promise.all([chatSocket(admin), chatSocket(viewer)]);
    await join(v);
    const seen = collect<ChannelMessage>(v, CHAT_EVENTS.newMessage);
    const clientId = newClientId();
    const first = await send(a, 'once', { clientId });
    const again = await send(a, 'once, edited on retry', { clientId });
    expect(first.ok && again.ok).toBe(true);
    expect(again).toEqual(first);
    const rows = await t.ctx.db.select().from(channelMessages).where(eq(channelMessages.clientId, clientId));
    expect(rows).toHaveLength(1);
    // The original and the next message arrive; a broadcast of the resend would sit between them.
    const later = next<ChannelMessage>(v, CHAT_EVENTS.newMessage, (m) => m.content === 'after the resend');
    expect((await send(a, 'after the resend')).ok).toBe(true);
    await later;
    expect(seen.map((m) => m.content)).toEqual(['once', 'after the resend']);

    // The same clientId for another channel is a client bug, not a resend.
    const other = await createChannel(t, admin, ws.name, {});
    const misuse = await send(a, 'elsewhere', { clientId }, other._id);
    expect(misuse).toEqual({ ok: false, message: CHAT_MESSAGES.invalidClientId });
  });

  it('acknowledges only after the commit: the acked message is already in the history', async () => {
    const a = await chatSocket(admin);
    for (let i = 0; i < 5; i++) {
      const ack = await send(a, `committed ${i}`);
      if (!ack.ok) throw new Error(ack.message);
      const res = await api.get(
        wsUrl(ws.name, `/channels/${open._id}/messages?after=${ack.message.seq - 1}&limit=1`),
        viewer,
      );
      expect(res.json()).toEqual([ack.message]);
    }
  });

  it('keeps seq gapless and unique under 20 concurrent senders', async () => {
    const channel = await createChannel(t, admin, ws.name, {});
    const senders = await Promise.all(
      Array.from({ length: 20 }, (_, i) => chatSocket([admin, viewer, editor][i % 3] as TestUser)),
    );
    const perSender = 5;
    const acks = await Promise.all(
      senders.flatMap((s, i) =>
        Array.from({ length: perSender }, (_, j) => send(s, `s${i} m${j}`, {}, channel._id)),
      ),
    );
    expect(acks.every((a) => a.ok)).toBe(true);
    const seqs = acks.map((a) => (a.ok ? a.message.seq : -1)).sort((x, y) => x - y);
    expect(seqs).toEqual(Array.from({ length: 20 * perSender }, (_, i) => i + 1));
    const stored = await history(channel._id);
    expect(stored.map((m) => m.seq)).toEqual(seqs);
  });

  it('refuses invalid messages with a reason', async () => {
    const a = await chatSocket(admin);
    const refuse = async (payload: unknown) => {
      const ack = (await request(a, CHAT_EVENTS.sendMessage, payload)) as { ok: boolean; message: string };
      expect(ack.ok).toBe(false);
      expect(typeof ack.message).toBe('string');
      return ack.message;
    };
    const valid = { ...ref(), clientId: newClientId(), message: { content: 'ok' } };
    expect(await refuse({ ...valid, message: { content: '   ' } })).toBe(CHAT_MESSAGES.contentRequired);
    expect(await refuse({ ...valid, message: { content: 'x'.repeat(MESSAGE_MAX_LENGTH + 1) } })).toBe(
      CHAT_MESSAGES.contentTooLong,
    );
    await refuse({ ...valid, message: { content: 42 } });
    await refuse({ ...valid, message: 'hello' });
    await refuse({ ...valid, message: undefined });
    expect(await refuse({ ...valid, clientId: 'not-a-uuid' })).toBe(CHAT_MESSAGES.invalidClientId);
    await refuse({ ...valid, clientId: undefined });
    await refuse({ ...valid, channelId: 7 });
    await refuse('hello');
    await refuse(null);
    // Exactly at the limit is fine; and the socket survived all of the above.
    const ok = await send(a, 'y'.repeat(MESSAGE_MAX_LENGTH));
    expect(ok.ok).toBe(true);
    // Emitting without an acknowledgement callback does not crash anything either.
    a.emit(CHAT_EVENTS.sendMessage, { ...valid, message: { content: '' } });
    a.emit(CHAT_EVENTS.joinChannel, null);
    expect((await send(a, 'still here')).ok).toBe(true);
  });

  it('refuses a flood with "Slow down"', async () => {
    t.realtime.sendRateLimit = SEND_RATE_LIMIT;
    onTestFinished(() => {
      t.realtime.sendRateLimit = 10_000;
    });
    // A sender with no sends yet in the window: the budget is per user.
    const fresh = await createUser(t.app);
    const freshWs = await createWorkspace(t, fresh);
    const channel = await createChannel(t, fresh, freshWs.name, {});
    const e = await chatSocket(fresh);
    await join(e, channel._id, freshWs.name);
    const acks = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        request<SendChannelMessageAck>(e, CHAT_EVENTS.sendMessage, {
          ...ref(channel._id, freshWs.name),
          clientId: newClientId(),
          message: { content: `flood ${i}` },
        }),
      ),
    );
    expect(acks.filter((a) => a.ok)).toHaveLength(20);
    expect(acks.filter((a) => !a.ok).map((a) => a.message)).toEqual(Array(5).fill(CHAT_MESSAGES.slowDown));
  });

  it("shares one budget between all of a user's sockets and HTTP posts", async () => {
    t.realtime.sendRateLimit = SEND_RATE_LIMIT;
    onTestFinished(() => {
      t.realtime.sendRateLimit = 10_000;
    });
    const flooder = await createUser(t.app, { firstName: 'Flo', lastName: 'Oder' });
    const flooderWs = await createWorkspace(t, flooder);
    const channel = await createChannel(t, flooder, flooderWs.name, {});
    const sockets = await Promise.all(Array.from({ length: 4 }, () => chatSocket(flooder)));
    await Promise.all(sockets.map((s) => join(s, channel._id, flooderWs.name)));
    const sendTo = (s: Socket, i: number) =>
      request<SendChannelMessageAck>(s, CHAT_EVENTS.sendMessage, {
        ...ref(channel._id, flooderWs.name),
        clientId: newClientId(),
        message: { content: `many tabs ${i}` },
      });
    // Ten from each of four sockets: twenty pass in all, not twenty per socket.
    const acks = await Promise.all(
      sockets.flatMap((s) => Array.from({ length: 10 }, (_, i) => sendTo(s, i))),
    );
    expect(acks.filter((a) => a.ok)).toHaveLength(20);
    const http = await api.post(wsUrl(flooderWs.name, `/channels/${channel._id}/messages`), flooder, {
      clientId: newClientId(),
      content: 'over HTTP instead',
    });
    expect(http.statusCode).toBe(429);
    expect(http.json().message).toBe(CHAT_MESSAGES.slowDown);
  });
});

describe('/chat typing', () => {
  it('relays typing to the others (throttled, never to the typer) and expires it', async () => {
    t.realtime.typingExpireMs = 1000;
    try {
      const [a, a2, v] = await Promise.all([chatSocket(admin), chatSocket(admin), chatSocket(viewer)]);
      await Promise.all([join(a), join(a2), join(v)]);
      // (Two arrays, filled as events come: spreading them into one would copy them empty.)
      const ownTabs = [
        collect<UserTypingEvent>(a, CHAT_EVENTS.userTyping),
        collect<UserTypingEvent>(a2, CHAT_EVENTS.userTyping),
      ];
      const seen = collect<UserTypingEvent>(v, CHAT_EVENTS.userTyping);
      const typing = (isTyping: boolean) =>
        a.emit(CHAT_EVENTS.typing, { ...ref(), isTyping, userId: 'spoof' });

      typing(true);
      await eventually(() => seen.length === 1);
      expect(seen[0]).toEqual({ channelId: open._id, userId: admin.id, email: admin.email, isTyping: true });
      // Refreshes inside the throttle window are not relayed (the next event is the stop, not a
      // second start), but keep the indicator alive: the stop comes a full expiry after the refresh.
      await sleep(200);
      const refreshedAt = Date.now();
      typing(true);
      // No refresh for the expiry time: the server itself says the typing stopped.
      await eventually(() => seen.length === 2, 3000);
      expect(seen[1]).toMatchObject({ userId: admin.id, isTyping: false });
      expect(Date.now() - refreshedAt).toBeGreaterThanOrEqual(1000);

      // Sending a message ends the indicator at once.
      typing(true);
      await eventually(() => seen.length === 3);
      expect((await send(a, 'done typing')).ok).toBe(true);
      await eventually(() => seen.length === 4);
      expect(seen[3]).toMatchObject({ isTyping: false });

      // An explicit stop too.
      typing(true);
      await eventually(() => seen.length === 5);
      typing(false);
      await eventually(() => seen.length === 6);
      expect(seen[5]).toMatchObject({ isTyping: false });
      // Positive control: the typer's tabs do get someone else's typing, relayed after all of theirs.
      v.emit(CHAT_EVENTS.typing, { ...ref(), isTyping: true });
      await eventually(() => ownTabs.every((tab) => tab.length > 0));
      const viewerTyping = { channelId: open._id, userId: viewer.id, email: viewer.email, isTyping: true };
      expect(ownTabs).toEqual([[viewerTyping], [viewerTyping]]);
    } finally {
      t.realtime.typingExpireMs = 5000;
    }
  });

  it('throttles typing per user: alternating between channels relays no faster', async () => {
    const channels = await Promise.all(Array.from({ length: 6 }, () => createChannel(t, admin, ws.name, {})));
    const [a, v] = await Promise.all([chatSocket(admin), chatSocket(viewer)]);
    for (const c of channels) await Promise.all([join(a, c._id), join(v, c._id)]);
    const seen = collect<UserTypingEvent>(v, CHAT_EVENTS.userTyping);
    for (let round = 0; round < 10; round++) {
      for (const c of channels) {
        a.emit(CHAT_EVENTS.typing, { ...ref(c._id), isTyping: true });
        a.emit(CHAT_EVENTS.typing, { ...ref(c._id), isTyping: false });
      }
    }
    await sleep(300);
    // 120 starts and stops in six channels: a few announcements, each taken back once.
    const starts = seen.filter((e) => e.isTyping).length;
    expect(starts).toBeGreaterThan(0);
    expect(starts).toBeLessThanOrEqual(4);
    expect(seen.filter((e) => !e.isTyping).length).toBe(starts);
  });

  it('ignores typing in a channel the socket has not joined', async () => {
    const [o, e, v] = await Promise.all([chatSocket(outsider), chatSocket(editor), chatSocket(viewer)]);
    await Promise.all([join(e), join(v)]);
    const seen = collect<UserTypingEvent>(v, CHAT_EVENTS.userTyping);
    o.emit(CHAT_EVENTS.typing, { ...ref(), isTyping: true });
    o.emit(CHAT_EVENTS.typing, { nonsense: true });
    // The server handles a socket's events in order: once this is acknowledged, both were handled.
    expect(await request(o, CHAT_EVENTS.leaveChannel, ref())).toEqual({ ok: true });
    // Positive control: a member's typing, relayed after those, reaches the same listener.
    e.emit(CHAT_EVENTS.typing, { ...ref(), isTyping: true });
    await eventually(() => seen.length > 0);
    expect(seen).toEqual([{ channelId: open._id, userId: editor.id, email: editor.email, isTyping: true }]);
  });
});

describe('/chat revocation', () => {
  it('makes a removed member leave the rooms at once, and refuses their sends', async () => {
    const member = await createUser(t.app);
    const team = await createWorkspace(t, admin, { members: [{ email: member.email, role: 'editor' }] });
    const channel = await createChannel(t, admin, team.name, {});
    const [a, m] = await Promise.all([chatSocket(admin), chatSocket(member)]);
    expect(await join(a, channel._id, team.name)).toEqual({ ok: true });
    expect(await join(m, channel._id, team.name)).toEqual({ ok: true });
    const seen = collect<ChannelMessage>(m, CHAT_EVENTS.newMessage);

    const removed = await api.del(wsUrl(team.name, `/members/${member.id}`), admin);
    expect(removed.statusCode).toBe(204);
    const room = `channel:${channel._id}`;
    await eventually(() => t.io.of(CHAT_NAMESPACE).adapter.rooms.get(room)?.size === 1, 5000);

    const echoed = next<ChannelMessage>(a, CHAT_EVENTS.newMessage);
    await request(a, CHAT_EVENTS.sendMessage, {
      channelId: channel._id,
      workspaceName: team.name,
      clientId: newClientId(),
      message: { content: 'after removal' },
    });
    await echoed;
    // Positive control: the removed member's socket still gets messages they may read, sent after
    // the team's message was broadcast (had that one reached them, it would be first).
    const own = await createWorkspace(t, member);
    const ownChannel = await createChannel(t, member, own.name, {});
    expect(await join(m, ownChannel._id, own.name)).toEqual({ ok: true });
    const control = next<ChannelMessage>(m, CHAT_EVENTS.newMessage);
    expect((await send(m, 'my own channel', { workspaceName: own.name }, ownChannel._id)).ok).toBe(true);
    await control;
    expect(seen.map((msg) => msg.content)).toEqual(['my own channel']);
    const ack = await request(m, CHAT_EVENTS.sendMessage, {
      channelId: channel._id,
      workspaceName: team.name,
      clientId: newClientId(),
      message: { content: 'still here?' },
    });
    expect(ack).toEqual({ ok: false, message: CHAT_MESSAGES.channelNotFound });
  });

  it('empties the rooms of a deleted channel and of a deleted workspace', async () => {
    const team = await createWorkspace(t, admin, { members: [{ email: viewer.email }] });
    const [c1, c2] = [
      await createChannel(t, admin, team.name, {}),
      await createChannel(t, admin, team.name, {}),
    ];
    const [a, v] = await Promise.all([chatSocket(admin), chatSocket(viewer)]);
    for (const s of [a, v]) {
      await join(s, c1._id, team.name);
      await join(s, c2._id, team.name);
    }
    const rooms = t.io.of(CHAT_NAMESPACE).adapter.rooms;
    expect(rooms.get(`channel:${c1._id}`)?.size).toBe(2);
    expect((await api.del(wsUrl(team.name, `/channels/${c1._id}`), admin)).statusCode).toBe(204);
    await eventually(() => !rooms.has(`channel:${c1._id}`));
    expect(rooms.get(`channel:${c2._id}`)?.size).toBe(2);
    expect((await api.del(wsUrl(team.name), admin)).statusCode).toBe(204);
    await eventually(() => !rooms.has(`channel:${c2._id}`));
  });

  it('disconnects the sockets of a session at logout, and of a session revoked elsewhere within 5 s', async () => {
    const user = await createUser(t.app);
    const other = await createUser(t.app);
    const s1 = await openSocket(url, CHAT_NAMESPACE, user.token);
    const s2 = await openSocket(url, '/dm', user.token);
    const untouched = await openSocket(url, CHAT_NAMESPACE, other.token);
    sockets.push(s1, s2, untouched);
    const started = Date.now();
    await t.app.inject({ method: 'POST', url: '/api/logout', headers: user.auth });
    await eventually(() => s1.disconnected && s2.disconnected, 5000);
    expect(Date.now() - started).toBeLessThan(5000);

    // Revoked without a logout request (another node, an admin tool): the periodic check finds it.
    const [row] = await t.ctx.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(eq(sessions.userId, other.id));
    const revokedAt = Date.now();
    await t.ctx.db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(eq(sessions.id, row?.id ?? ''));
    await eventually(() => untouched.disconnected, 5000);
    expect(Date.now() - revokedAt).toBeLessThan(5000);
  });
});

describe('POST /api/workspaces/:workspaceName/channels/:channelId/messages', () => {
  it('stores, broadcasts and deduplicates like the socket', async () => {
    const v = await chatSocket(viewer);
    await join(v);
    const got = next<ChannelMessage>(v, CHAT_EVENTS.newMessage, (m) => m.content === 'over http');
    const clientId = newClientId();
    const url = wsUrl(ws.name, `/channels/${open._id}/messages`);
    const first = await api.post(url, editor, { clientId, content: ' over http ', senderId: admin.email });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ content: 'over http', sender: { _id: editor.id } });
    expect(await got).toEqual(first.json());
    const again = await api.post(url, editor, { clientId, content: 'over http' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
  });

  it('validates and authorizes', async () => {
    const url = wsUrl(ws.name, `/channels/${open._id}/messages`);
    expect((await api.post(url, undefined, { clientId: newClientId(), content: 'x' })).statusCode).toBe(401);
    expect((await api.post(url, outsider, { clientId: newClientId(), content: 'x' })).statusCode).toBe(404);
    expect((await api.post(url, editor, { clientId: newClientId(), content: ' ' })).statusCode).toBe(400);
    expect((await api.post(url, editor, { clientId: 'nope', content: 'x' })).statusCode).toBe(400);
    expect((await api.post(url, editor, { content: 'x' })).statusCode).toBe(400);
    expect(
      (await api.post(url, editor, { clientId: newClientId(), content: 'x'.repeat(4001) })).statusCode,
    ).toBe(400);
  });
});
