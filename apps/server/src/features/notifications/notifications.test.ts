import { randomUUID } from 'node:crypto';
import { CHAT_EVENTS, CHAT_NAMESPACE, DM_EVENTS, DM_NAMESPACE } from '@cohort/shared/chat';
import {
  mentionMarkup,
  NOTIFICATION_EVENTS,
  NOTIFICATIONS_NAMESPACE,
  type Notification,
  type NotificationPage,
} from '@cohort/shared/notifications';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { baseUrl, next, openSocket, request } from '../chat/chat.test-helpers.ts';
import { createList, createTask, client as tasksClient } from '../tasks/tasks.test-helpers.ts';
import { client, createChannel, createWorkspace, wsUrl } from '../workspaces/test-fixtures.ts';

/** Mentions, @channel, DMs, thread followers and task notifications in one feed; mute; privacy; push. */

let t: TestApp;
let url: string;
let api: ReturnType<typeof client>;
let ann: TestUser;
let bob: TestUser;
let cat: TestUser;
let dan: TestUser;
let outsider: TestUser;
let ws: { _id: string; name: string };
let open: { _id: string };
let secret: { _id: string };

const sockets: Socket[] = [];
async function socketOf(user: TestUser, namespace = NOTIFICATIONS_NAMESPACE) {
  const socket = await openSocket(url, namespace, user.token);
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
  [ann, bob, cat, dan, outsider] = await Promise.all([
    createUser(t.app, { firstName: 'Ann', lastName: 'Able' }),
    createUser(t.app, { firstName: 'Bob', lastName: 'Baker' }),
    createUser(t.app, { firstName: 'Cat', lastName: 'Cole' }),
    createUser(t.app, { firstName: 'Dan', lastName: 'Dale' }),
    createUser(t.app),
  ]);
  ws = await createWorkspace(t, ann, {
    members: [
      { email: bob.email, role: 'editor' },
      { email: cat.email, role: 'viewer' },
      { email: dan.email, role: 'viewer' },
    ],
  });
  open = await createChannel(t, ann, ws.name, {});
  // Private to Bob (its creator) and Cat.
  secret = await createChannel(t, bob, ws.name, { private: true, members: [cat.id] });
});
afterAll(() => t.close());

const mention = (u: TestUser, name = 'Someone') => mentionMarkup(name, u.email);

async function post(
  as: TestUser,
  content: string,
  opts: { channelId?: string; parentId?: string; clientId?: string } = {},
) {
  const res = await api.post(wsUrl(ws.name, `/channels/${opts.channelId ?? open._id}/messages`), as, {
    clientId: opts.clientId ?? randomUUID(),
    content,
    parentId: opts.parentId,
  });
  if (res.statusCode !== 201 && res.statusCode !== 200) throw new Error(res.body);
  return res.json() as { _id: string };
}

async function feed(as: TestUser, query = ''): Promise<NotificationPage> {
  const res = await api.get(`/api/notifications${query}`, as);
  expect(res.statusCode).toBe(200);
  return res.json() as NotificationPage;
}

/** The caller's notifications about one message. */
async function about(as: TestUser, text: string) {
  return (await feed(as, '?limit=100')).notifications.filter((n) => n.text.includes(text));
}

const tag = () => randomUUID().slice(0, 8);

describe('mentions', () => {
  it('notifies a mentioned member once, with actor, excerpt and a link to the message in context', async () => {
    const word = tag();
    const msg = await post(bob, `hi ${mention(ann, 'Ann Able')} look ${word} ${mention(ann, 'Ann Able')}`);
    const [n, ...more] = await about(ann, word);
    expect(more).toEqual([]);
    expect(n).toMatchObject({
      kind: 'mention',
      read: false,
      actor: { _id: bob.id, email: bob.email, name: 'Bob Baker' },
      channelId: open._id,
      workspaceId: ws._id,
      link: `/workspace/${ws._id}/channel/${open._id}?message=${msg._id}`,
    });
    expect(n?.text).toBe(`hi @Ann Able look ${word} @Ann Able`);
    // Nobody else was mentioned; the sender is never notified of their own message.
    expect(await about(cat, word)).toEqual([]);
    expect(await about(bob, word)).toEqual([]);
  });

  it('@channel notifies everyone who can read the channel except the sender', async () => {
    const word = tag();
    await post(bob, `@channel standup ${word}`);
    for (const u of [ann, cat, dan]) expect((await about(u, word)).map((n) => n.kind)).toEqual(['mention']);
    expect(await about(bob, word)).toEqual([]);
    expect(await about(outsider, word)).toEqual([]);
    // "@channelx" and "a@channel" are not @channel.
    const other = tag();
    await post(bob, `@channelx ${other} mail@channel.org`);
    expect(await about(ann, other)).toEqual([]);
  });

  it('in a private channel, a mentioned non-member and @channel reach only its members', async () => {
    const word = tag();
    await post(bob, `${mention(ann)} ${mention(dan)} @channel ${word}`, { channelId: secret._id });
    expect((await about(cat, word)).map((n) => n.kind)).toEqual(['mention']);
    expect(await about(ann, word)).toEqual([]);
    expect(await about(dan, word)).toEqual([]);
  });

  it('a mention of someone outside the workspace creates nothing', async () => {
    const word = tag();
    await post(bob, `${mention(outsider)} ${word}`);
    expect(await about(outsider, word)).toEqual([]);
  });

  it('a resend of the same clientId does not notify twice', async () => {
    const word = tag();
    const clientId = randomUUID();
    await post(bob, `${mention(ann)} ${word}`, { clientId });
    await post(bob, `${mention(ann)} ${word}`, { clientId });
    // Over the socket too.
    const chat = await socketOf(bob, CHAT_NAMESPACE);
    const ack = await request<{ ok: boolean }>(chat, CHAT_EVENTS.sendMessage, {
      workspaceName: ws.name,
      channelId: open._id,
      clientId,
      message: { content: `${mention(ann)} ${word}` },
    });
    expect(ack.ok).toBe(true);
    expect(await about(ann, word)).toHaveLength(1);
  });
});

describe('threads and direct messages', () => {
  it('notifies the parent author and earlier repliers, not the replier', async () => {
    const word = tag();
    const parent = await post(ann, `question ${word}`);
    await post(bob, `reply one ${word}`, { parentId: parent._id });
    expect((await about(ann, `reply one ${word}`)).map((n) => n.kind)).toEqual(['thread']);
    expect(await about(bob, `reply one ${word}`)).toEqual([]);
    await post(cat, `reply two ${word}`, { parentId: parent._id });
    const toAnn = await about(ann, `reply two ${word}`);
    expect(toAnn.map((n) => n.kind)).toEqual(['thread']);
    expect(toAnn[0]?.link).toContain(`&thread=${parent._id}`);
    expect((await about(bob, `reply two ${word}`)).map((n) => n.kind)).toEqual(['thread']);
    expect(await about(cat, `reply two ${word}`)).toEqual([]);
    // Dan never took part.
    expect(await about(dan, word)).toEqual([]);
  });

  it('a direct message notifies its recipient, pushed live, linking to the conversation', async () => {
    const word = tag();
    const live = await socketOf(dan);
    const arrived = next<Notification>(live, NOTIFICATION_EVENTS.notification, (n) => n.text.includes(word));
    const dm = await socketOf(cat, DM_NAMESPACE);
    const ack = await request<{ ok: boolean }>(dm, DM_EVENTS.sendMessage, {
      receiverEmail: dan.email,
      clientId: randomUUID(),
      content: `psst ${word}`,
    });
    expect(ack.ok).toBe(true);
    const pushed = await arrived;
    expect(pushed).toMatchObject({
      kind: 'direct',
      actor: { email: cat.email },
      link: `/chat?with=${encodeURIComponent(cat.email)}`,
      channelId: null,
    });
    expect((await about(dan, word)).map((n) => n._id)).toEqual([pushed._id]);
    expect(await about(cat, word)).toEqual([]);
  });

  it('reading a direct conversation reads its notifications up to the read mark, and only those', async () => {
    const word = tag();
    const dm = await socketOf(bob, DM_NAMESPACE);
    const send = async (to: TestUser, content: string) => {
      const ack = await request<{ ok: boolean; message: { seq: number } }>(dm, DM_EVENTS.sendMessage, {
        receiverEmail: to.email,
        clientId: randomUUID(),
        content,
      });
      expect(ack.ok).toBe(true);
      return ack.message.seq;
    };
    const first = await send(dan, `one ${word}`);
    await send(dan, `two ${word}`);
    await send(cat, `other ${word}`);
    const unread = async (as: TestUser) => (await about(as, word)).filter((n) => !n.read).map((n) => n.text);
    await expect.poll(() => unread(dan)).toHaveLength(2);
    // Dan reads up to the first message: its notification is read, the second's is not.
    const read = (seq: number) => api.put(`/api/direct/${encodeURIComponent(bob.email)}/read`, dan, { seq });
    expect((await read(first)).statusCode).toBe(200);
    expect(await unread(dan)).toEqual([expect.stringContaining(`two ${word}`)]);
    expect((await read(first + 1)).statusCode).toBe(200);
    expect(await unread(dan)).toEqual([]);
    // Cat's notification from Bob is another conversation's: still unread.
    expect(await unread(cat)).toHaveLength(1);
  });
});

describe('mute', () => {
  it('silences @channel and thread replies but not a mention by name', async () => {
    const muted = await createChannel(t, ann, ws.name, {});
    const mute = await tasksClient(t).put(wsUrl(ws.name, `/channels/${muted._id}/mute`), dan, {
      muted: true,
    });
    expect(mute.statusCode).toBe(200);
    const word = tag();
    const parent = await post(dan, `dan asks ${word}`, { channelId: muted._id });
    await post(bob, `@channel all ${word}`, { channelId: muted._id });
    await post(bob, `thread ${word}`, { channelId: muted._id, parentId: parent._id });
    await post(bob, `named ${mention(dan)} ${word}`, { channelId: muted._id });
    expect((await about(dan, word)).map((n) => n.text)).toEqual([`named @Someone ${word}`]);
    // Others who did not mute still hear @channel.
    expect((await about(cat, `all ${word}`)).map((n) => n.kind)).toEqual(['mention']);
  });
});

describe('the feed', () => {
  it('merges task assignments, pages newest first, and marks read by id, by channel and all', async () => {
    const me = await createUser(t.app, { firstName: 'Pia', lastName: 'Page' });
    const boss = await createUser(t.app, { firstName: 'Max', lastName: 'Boss' });
    const team = await createWorkspace(t, boss, { members: [{ email: me.email, role: 'viewer' }] });
    const room = await createChannel(t, boss, team.name, {});
    const list = await createList(t, boss);
    const task = await createTask(t, boss, list, { title: 'Write the report' });
    const assigned = await tasksClient(t).put(`/api/tasks/${task._id}/assignees`, boss, { userIds: [me.id] });
    expect(assigned.statusCode).toBe(200);
    for (let i = 0; i < 3; i++) {
      t.advance(1000);
      const res = await api.post(wsUrl(team.name, `/channels/${room._id}/messages`), boss, {
        clientId: randomUUID(),
        content: `${mention(me)} note ${i}`,
      });
      expect(res.statusCode).toBe(201);
    }
    const all = await feed(me);
    expect(all.unreadCount).toBe(4);
    expect(all.notifications.map((n) => n.text)).toEqual([
      '@Someone note 2',
      '@Someone note 1',
      '@Someone note 0',
      'Write the report',
    ]);
    expect(all.notifications[3]).toMatchObject({
      kind: 'assigned',
      link: `/tasks/${task._id}`,
      actor: { email: boss.email },
    });

    // Pages of two, no overlap, no gap.
    const first = await feed(me, '?limit=2');
    expect(first.nextCursor).not.toBeNull();
    const second = await feed(me, `?limit=2&cursor=${first.nextCursor}`);
    expect(second.nextCursor).toBeNull();
    expect([...first.notifications, ...second.notifications].map((n) => n._id)).toEqual(
      all.notifications.map((n) => n._id),
    );
    expect((await api.get('/api/notifications?cursor=nonsense', me)).statusCode).toBe(400);

    // Mention badges per channel; opening the channel clears them.
    const counts = await api.get(wsUrl(team.name, '/mentions'), me);
    expect(counts.json()).toEqual([{ channelId: room._id, count: 3 }]);
    expect((await api.get(wsUrl(team.name, '/mentions'), outsider)).statusCode).toBe(404);

    const [newest, , , taskOne] = all.notifications as Notification[];
    // Someone else's ids change nothing and say nothing.
    const foreign = await api.post('/api/notifications/read', boss, { ids: [newest?._id, taskOne?._id] });
    expect(foreign.json()).toEqual({ updated: 0 });
    const read = await api.post('/api/notifications/read', me, { ids: [newest?._id, taskOne?._id] });
    expect(read.json()).toEqual({ updated: 2 });
    expect((await feed(me, '?unread=true')).notifications.map((n) => n.text)).toEqual([
      '@Someone note 1',
      '@Someone note 0',
    ]);
    const byChannel = await api.post('/api/notifications/read', me, { channelId: room._id });
    expect(byChannel.json()).toEqual({ updated: 2 });
    expect((await api.get(wsUrl(team.name, '/mentions'), me)).json()).toEqual([]);
    expect((await feed(me)).unreadCount).toBe(0);

    await api.post(wsUrl(team.name, `/channels/${room._id}/messages`), boss, {
      clientId: randomUUID(),
      content: `${mention(me)} again`,
    });
    expect((await feed(me)).unreadCount).toBe(1);
    expect((await api.post('/api/notifications/read-all', me, {})).json()).toEqual({ updated: 1 });
    expect((await feed(me)).unreadCount).toBe(0);
  });

  it('a removed member no longer sees notifications of that workspace', async () => {
    const gone = await createUser(t.app);
    const boss = await createUser(t.app);
    const team = await createWorkspace(t, boss, { members: [{ email: gone.email, role: 'viewer' }] });
    const room = await createChannel(t, boss, team.name, {});
    await api.post(wsUrl(team.name, `/channels/${room._id}/messages`), boss, {
      clientId: randomUUID(),
      content: `${mention(gone)} bye`,
    });
    expect((await feed(gone)).unreadCount).toBe(1);
    const removed = await api.del(wsUrl(team.name, `/members/${gone.id}`), boss);
    expect(removed.statusCode).toBe(204);
    const after = await feed(gone);
    expect(after).toMatchObject({ notifications: [], unreadCount: 0 });
  });

  it('pushes a mention live to every tab of the recipient only', async () => {
    const word = tag();
    const [tab1, tab2, other] = await Promise.all([socketOf(ann), socketOf(ann), socketOf(cat)]);
    const heard: Notification[] = [];
    other.on(NOTIFICATION_EVENTS.notification, (n: Notification) => heard.push(n));
    const got = [tab1, tab2].map((s) =>
      next<Notification>(s, NOTIFICATION_EVENTS.notification, (n) => n.text.includes(word)),
    );
    await post(bob, `${mention(ann, 'Ann')} ping ${word}`);
    const [a, b] = await Promise.all(got);
    expect(a).toMatchObject({ kind: 'mention', text: `@Ann ping ${word}`, read: false });
    expect(b?._id).toBe(a?._id);
    // Positive control: Cat's tab hears her own mention, posted after Ann's was delivered; Ann's,
    // had it been pushed to Cat, would have arrived before it.
    const catsWord = tag();
    const catsOwn = next<Notification>(other, NOTIFICATION_EVENTS.notification, (n) =>
      n.text.includes(catsWord),
    );
    await post(bob, `${mention(cat, 'Cat')} ping ${catsWord}`);
    await catsOwn;
    const ours = heard.filter((n) => n.text.includes(word) || n.text.includes(catsWord));
    expect(ours.map((n) => n.text)).toEqual([`@Cat ping ${catsWord}`]);
  });

  it('refuses anonymous callers and bad input', async () => {
    expect((await api.get('/api/notifications')).statusCode).toBe(401);
    expect((await api.post('/api/notifications/read', undefined, { ids: [randomUUID()] })).statusCode).toBe(
      401,
    );
    expect((await api.post('/api/notifications/read-all', undefined, {})).statusCode).toBe(401);
    expect((await api.get(wsUrl(ws.name, '/mentions'))).statusCode).toBe(401);
    await expect(openSocket(url, NOTIFICATIONS_NAMESPACE, 'not-a-token')).rejects.toThrow();
    const neither = await api.post('/api/notifications/read', ann, {});
    expect(neither.statusCode).toBe(400);
    const bad = await api.post('/api/notifications/read', ann, { ids: ['x'] });
    expect(bad.statusCode).toBe(400);
    expect((await api.get('/api/notifications?limit=1000', ann)).statusCode).toBe(400);
  });
});
