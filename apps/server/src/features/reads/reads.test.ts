import { randomUUID } from 'node:crypto';
import {
  CHAT_NAMESPACE,
  type DirectMessage,
  DM_EVENTS,
  DM_NAMESPACE,
  type SendDirectMessageAck,
} from '@cohort/shared/chat';
import { type ChannelUnread, type DirectUnread, READ_EVENTS, UNREAD_CAP } from '@cohort/shared/reads';
import { eq } from 'drizzle-orm';
import { createClient } from 'redis';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { readMarks } from '../../db/schema.ts';
import {
  baseUrl,
  collect,
  newClientId,
  next,
  openSocket,
  request,
  sleep,
} from '../chat/chat.test-helpers.ts';
import { client, createChannel, createWorkspace, wsUrl } from '../workspaces/test-fixtures.ts';
import { mutedUserIds } from './reads.access.ts';

let t: TestApp;
let url: string;
let api: ReturnType<typeof client>;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let workspace: { _id: string; name: string };

const sockets: Socket[] = [];
async function connectAs(user: TestUser, namespace: string) {
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
  [alice, bob, carol] = await Promise.all([createUser(t.app), createUser(t.app), createUser(t.app)]);
  // Alice and Bob share the workspace; Carol is in none of theirs.
  workspace = await createWorkspace(t, alice, { members: [{ email: bob.email, role: 'viewer' }] });
});
afterAll(() => t.close());

const put = (path: string, as: TestUser | undefined, payload: unknown) =>
  t.app.inject({ method: 'PUT', url: path, headers: as?.auth ?? {}, payload: payload as object });
const unreadOf = (as: TestUser, ws = workspace.name) => api.get(wsUrl(ws, '/unread'), as);
const entryOf = async (as: TestUser, channelId: string) => {
  const res = await unreadOf(as);
  expect(res.statusCode).toBe(200);
  return (res.json() as ChannelUnread[]).find((c) => c.channelId === channelId);
};
const readPath = (channelId: string, ws = workspace.name) => wsUrl(ws, `/channels/${channelId}/read`);
const mutePath = (channelId: string, ws = workspace.name) => wsUrl(ws, `/channels/${channelId}/mute`);

async function post(as: TestUser, channelId: string, content: string, parentId?: string) {
  const res = await api.post(wsUrl(workspace.name, `/channels/${channelId}/messages`), as, {
    clientId: newClientId(),
    content,
    ...(parentId ? { parentId } : {}),
  });
  expect(res.statusCode).toBe(201);
  return res.json() as { _id: string; seq: number };
}

async function freshChannel(body: { private?: boolean; members?: string[] } = {}) {
  return createChannel(t, alice, workspace.name, body);
}

describe('GET …/unread', () => {
  it('treats a channel as read up to its newest message at first sight, then counts what others post', async () => {
    const channel = await freshChannel();
    await post(alice, channel._id, 'before Bob looked');
    await post(alice, channel._id, 'also before');
    expect(await entryOf(bob, channel._id)).toEqual({
      channelId: channel._id,
      workspaceId: workspace._id,
      lastReadSeq: 2,
      lastSeq: 2,
      unread: 0,
      muted: false,
    });
    await post(alice, channel._id, 'news');
    await post(alice, channel._id, 'more news');
    expect(await entryOf(bob, channel._id)).toMatchObject({ lastReadSeq: 2, lastSeq: 4, unread: 2 });
  });

  it('counts neither thread replies, deleted messages nor the reader’s own messages', async () => {
    const channel = await freshChannel();
    expect(await entryOf(bob, channel._id)).toMatchObject({ lastReadSeq: 0, unread: 0 });
    const parent = await post(alice, channel._id, 'top level');
    await post(alice, channel._id, 'a reply', parent._id);
    await post(bob, channel._id, 'Bob replies in the thread', parent._id);
    await post(bob, channel._id, 'Bob at top level');
    const gone = await post(alice, channel._id, 'deleted soon');
    const del = await api.del(wsUrl(workspace.name, `/channels/${channel._id}/messages/${gone._id}`), alice);
    expect(del.statusCode).toBe(200);
    expect(await entryOf(bob, channel._id)).toMatchObject({ lastReadSeq: 0, lastSeq: 5, unread: 1 });
  });

  it(`stops counting at ${UNREAD_CAP}`, async () => {
    const channel = await freshChannel();
    await entryOf(bob, channel._id);
    for (let i = 0; i < UNREAD_CAP + 3; i += 1) await post(alice, channel._id, `message ${i}`);
    expect(await entryOf(bob, channel._id)).toMatchObject({ lastSeq: UNREAD_CAP + 3, unread: UNREAD_CAP });
  });

  it('lists only the channels the caller can read, and hides the workspace from others', async () => {
    const hidden = await freshChannel({ private: true });
    const listed = await freshChannel({ private: true, members: [bob.id] });
    const res = await unreadOf(bob);
    const ids = (res.json() as ChannelUnread[]).map((c) => c.channelId);
    expect(ids).toContain(listed._id);
    expect(ids).not.toContain(hidden._id);
    const outsider = await unreadOf(carol);
    expect(outsider.statusCode).toBe(404);
    expect(outsider.json()).toEqual({ message: 'Workspace not found' });
    expect((await api.get(wsUrl(workspace.name, '/unread'))).statusCode).toBe(401);
  });
});

describe('PUT …/channels/:channelId/read', () => {
  it('moves the mark forward only, and clears the count', async () => {
    const channel = await freshChannel();
    await entryOf(bob, channel._id);
    for (const n of [1, 2, 3]) await post(alice, channel._id, `m${n}`);
    const half = await put(readPath(channel._id), bob, { seq: 2 });
    expect(half.statusCode).toBe(200);
    expect(half.json()).toMatchObject({ channelId: channel._id, lastReadSeq: 2, lastSeq: 3, unread: 1 });
    const all = await put(readPath(channel._id), bob, { seq: 3 });
    expect(all.json()).toMatchObject({ lastReadSeq: 3, unread: 0 });
    // A late request from another tab must not move it back.
    const back = await put(readPath(channel._id), bob, { seq: 1 });
    expect(back.statusCode).toBe(200);
    expect(back.json()).toMatchObject({ lastReadSeq: 3, unread: 0 });
    expect(await entryOf(bob, channel._id)).toMatchObject({ lastReadSeq: 3, unread: 0 });
  });

  it('refuses a seq beyond the newest message and malformed bodies with 400, changing nothing', async () => {
    const channel = await freshChannel();
    await post(alice, channel._id, 'one');
    await entryOf(bob, channel._id);
    const beyond = await put(readPath(channel._id), bob, { seq: 2 });
    expect(beyond.statusCode).toBe(400);
    expect(beyond.json()).toEqual({ message: 'seq is beyond the newest message', field: 'seq' });
    for (const body of [{}, { seq: -1 }, { seq: 1.5 }, { seq: '1' }, { seq: null }]) {
      const res = await put(readPath(channel._id), bob, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(/seq/);
    }
    expect(await entryOf(bob, channel._id)).toMatchObject({ lastReadSeq: 1 });
  });

  it('answers 404 for channels the caller cannot read, and after the membership is revoked', async () => {
    const hidden = await freshChannel({ private: true });
    const open = await freshChannel();
    for (const [as, path] of [
      [bob, readPath(hidden._id)],
      [carol, readPath(open._id)],
      [bob, readPath(randomUUID())],
      [bob, readPath('not-a-uuid')],
      [bob, mutePath(hidden._id)],
    ] as const) {
      const res = await put(path, as, path.endsWith('mute') ? { muted: true } : { seq: 0 });
      expect(res.statusCode, path).toBe(404);
    }
    const other = await createWorkspace(t, alice, { members: [{ email: bob.email, role: 'viewer' }] });
    const elsewhere = await createChannel(t, alice, other.name, {});
    // A channel of another workspace under this workspace's path does not exist here.
    expect((await put(readPath(elsewhere._id), bob, { seq: 0 })).statusCode).toBe(404);
    expect((await put(readPath(elsewhere._id, other.name), bob, { seq: 0 })).statusCode).toBe(200);
    const removed = await api.del(wsUrl(other.name, `/members/${bob.id}`), alice);
    expect(removed.statusCode).toBeLessThan(300);
    expect((await put(readPath(elsewhere._id, other.name), bob, { seq: 0 })).statusCode).toBe(404);
    expect((await unreadOf(bob, other.name)).statusCode).toBe(404);
  });

  it('pushes the new mark to every socket of that user, and to nobody else', async () => {
    const channel = await freshChannel();
    await entryOf(bob, channel._id);
    await post(alice, channel._id, 'hello Bob');
    const [tab1, tab2, aliceTab] = await Promise.all([
      connectAs(bob, CHAT_NAMESPACE),
      connectAs(bob, CHAT_NAMESPACE),
      connectAs(alice, CHAT_NAMESPACE),
    ]);
    const aliceSaw = collect<ChannelUnread>(aliceTab, READ_EVENTS.readMarkChanged);
    const inTab2 = next<ChannelUnread>(tab2, READ_EVENTS.readMarkChanged);
    const inTab1 = next<ChannelUnread>(tab1, READ_EVENTS.readMarkChanged);
    expect((await put(readPath(channel._id), bob, { seq: 1 })).statusCode).toBe(200);
    const expected = {
      channelId: channel._id,
      workspaceId: workspace._id,
      lastReadSeq: 1,
      lastSeq: 1,
      unread: 0,
      muted: false,
    };
    expect(await inTab2).toEqual(expected);
    expect(await inTab1).toEqual(expected);
    // A mark that does not move announces nothing.
    const repeats = collect<ChannelUnread>(tab1, READ_EVENTS.readMarkChanged);
    expect((await put(readPath(channel._id), bob, { seq: 0 })).statusCode).toBe(200);
    // Positive controls, pushed (as every mark is) before their PUT answers, hence after anything the
    // calls above pushed: Alice's tab gets her own mark, Bob's tab his next real move.
    await post(bob, channel._id, 'hi Alice');
    const aliceOwn = next<ChannelUnread>(aliceTab, READ_EVENTS.readMarkChanged);
    expect((await put(readPath(channel._id), alice, { seq: 2 })).statusCode).toBe(200);
    await aliceOwn;
    const bobMoved = next<ChannelUnread>(tab1, READ_EVENTS.readMarkChanged);
    expect((await put(readPath(channel._id), bob, { seq: 2 })).statusCode).toBe(200);
    await bobMoved;
    expect(repeats.map((e) => [e.channelId, e.lastReadSeq])).toEqual([[channel._id, 2]]);
    expect(aliceSaw.map((e) => [e.channelId, e.lastReadSeq])).toEqual([[channel._id, 2]]);
  });
});

describe('PUT …/channels/:channelId/mute', () => {
  it('persists the mute, lists it, pushes it, and tells notifications who muted', async () => {
    const channel = await freshChannel();
    const tab = await connectAs(bob, CHAT_NAMESPACE);
    const pushed = next<ChannelUnread>(tab, READ_EVENTS.readMarkChanged);
    const res = await put(mutePath(channel._id), bob, { muted: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ channelId: channel._id, muted: true });
    expect(await pushed).toMatchObject({ channelId: channel._id, muted: true });
    expect(await entryOf(bob, channel._id)).toMatchObject({ muted: true });
    expect(await entryOf(alice, channel._id)).toMatchObject({ muted: false });
    expect(await mutedUserIds(t.ctx, channel._id, [alice.id, bob.id, carol.id])).toEqual(new Set([bob.id]));
    expect(await mutedUserIds(t.ctx, channel._id, [])).toEqual(new Set());

    expect((await put(mutePath(channel._id), bob, { muted: false })).json()).toMatchObject({ muted: false });
    expect(await mutedUserIds(t.ctx, channel._id, [bob.id])).toEqual(new Set());
    for (const body of [{}, { muted: 'yes' }, { muted: 1 }]) {
      const bad = await put(mutePath(channel._id), bob, body);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toMatch(/muted/);
    }
  });

  it('keeps the read mark when muting a channel never listed (read up to now)', async () => {
    const channel = await freshChannel();
    await post(alice, channel._id, 'old');
    expect((await put(mutePath(channel._id), bob, { muted: true })).json()).toMatchObject({
      lastReadSeq: 1,
      unread: 0,
      muted: true,
    });
  });
});

describe('deletions', () => {
  const marksOf = (conversationId: string) =>
    t.ctx.db.select().from(readMarks).where(eq(readMarks.conversationId, conversationId));
  async function until(check: () => Promise<boolean>) {
    for (let i = 0; i < 100 && !(await check()); i += 1) await sleep(20);
    expect(await check()).toBe(true);
  }

  it('removes the marks of a deleted channel and of every channel of a deleted workspace', async () => {
    const channel = await freshChannel();
    await put(mutePath(channel._id), bob, { muted: true });
    await entryOf(alice, channel._id);
    expect(await marksOf(channel._id)).toHaveLength(2);
    expect((await api.del(wsUrl(workspace.name, `/channels/${channel._id}`), alice)).statusCode).toBeLessThan(
      300,
    );
    await until(async () => (await marksOf(channel._id)).length === 0);

    const doomed = await createWorkspace(t, alice);
    const inDoomed = await createChannel(t, alice, doomed.name, {});
    await unreadOf(alice, doomed.name);
    expect(await marksOf(inDoomed._id)).toHaveLength(1);
    expect((await api.del(wsUrl(doomed.name), alice)).statusCode).toBeLessThan(300);
    await until(async () => (await marksOf(inDoomed._id)).length === 0);
  });
});

describe('direct conversations', () => {
  const sendDm = async (from: Socket, to: TestUser, content: string) => {
    const ack = await request<SendDirectMessageAck>(from, DM_EVENTS.sendMessage, {
      content,
      receiverEmail: to.email,
      clientId: newClientId(),
      messageType: 'text',
    });
    if (!ack.ok) throw new Error(ack.message);
    return ack.message as DirectMessage;
  };
  const directOf = async (as: TestUser) => {
    const res = await api.get('/api/direct/unread', as);
    expect(res.statusCode).toBe(200);
    return res.json() as DirectUnread[];
  };
  const dmReadPath = (email: string) => `/api/direct/${encodeURIComponent(email)}/read`;

  it('counts messages to the reader, moves forward only, and pushes to the reader’s tabs', async () => {
    const [dave, erin] = await Promise.all([
      createUser(t.app, { firstName: 'Dave', lastName: 'D' }),
      createUser(t.app, { firstName: 'Erin', lastName: 'E' }),
    ]);
    await createWorkspace(t, dave, { members: [{ email: erin.email, role: 'viewer' }] });
    const [daveDm, erinDm, erinTab2] = await Promise.all([
      connectAs(dave, DM_NAMESPACE),
      connectAs(erin, DM_NAMESPACE),
      connectAs(erin, DM_NAMESPACE),
    ]);
    await sendDm(daveDm, erin, 'one');
    await sendDm(erinDm, dave, 'my own reply');
    await sendDm(daveDm, erin, 'two');
    const two = { excerpt: 'two', createdAt: expect.any(String), deleted: false };
    expect(await directOf(erin)).toEqual([
      {
        email: dave.email,
        name: 'Dave D',
        lastReadSeq: 0,
        lastSeq: 3,
        unread: 2,
        lastMessage: { ...two, fromMe: false },
      },
    ]);
    expect(await directOf(dave)).toEqual([
      {
        email: erin.email,
        name: 'Erin E',
        lastReadSeq: 0,
        lastSeq: 3,
        unread: 1,
        lastMessage: { ...two, fromMe: true },
      },
    ]);

    const daveSaw = collect<DirectUnread>(daveDm, READ_EVENTS.readMarkChanged);
    const pushed = next<DirectUnread>(erinTab2, READ_EVENTS.readMarkChanged);
    const res = await put(dmReadPath(dave.email.toUpperCase()), erin, { seq: 1 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ email: dave.email, name: 'Dave D', lastReadSeq: 1, lastSeq: 3, unread: 1 });
    expect(await pushed).toEqual(res.json());
    expect((await put(dmReadPath(dave.email), erin, { seq: 3 })).json()).toMatchObject({ unread: 0 });
    expect((await put(dmReadPath(dave.email), erin, { seq: 2 })).json()).toMatchObject({ lastReadSeq: 3 });
    expect((await put(dmReadPath(dave.email), erin, { seq: 4 })).statusCode).toBe(400);
    expect((await directOf(erin))[0]).toMatchObject({ lastReadSeq: 3, unread: 0 });
    // Positive control: Dave's tab gets his own mark, pushed after all of Erin's.
    const daveOwn = next<DirectUnread>(daveDm, READ_EVENTS.readMarkChanged);
    expect((await put(dmReadPath(erin.email), dave, { seq: 3 })).statusCode).toBe(200);
    await daveOwn;
    expect(daveSaw).toEqual([{ email: erin.email, name: 'Erin E', lastReadSeq: 3, lastSeq: 3, unread: 0 }]);
  });

  it('lists conversations newest message first, each with its newest message (deleted: no content)', async () => {
    const [gus, hal, ivy] = await Promise.all([
      createUser(t.app, { firstName: 'Gus', lastName: 'G' }),
      createUser(t.app, { firstName: 'Hal', lastName: 'H' }),
      createUser(t.app, { firstName: 'Ivy', lastName: 'I' }),
    ]);
    await createWorkspace(t, gus, {
      members: [
        { email: hal.email, role: 'viewer' },
        { email: ivy.email, role: 'viewer' },
      ],
    });
    const [gusDm, halDm] = await Promise.all([connectAs(gus, DM_NAMESPACE), connectAs(hal, DM_NAMESPACE)]);
    await sendDm(gusDm, ivy, 'to Ivy first');
    t.advance(1000);
    await sendDm(halDm, gus, `from Hal ${'x'.repeat(300)}`);
    t.advance(1000);
    const secret = await sendDm(gusDm, ivy, 'to Ivy, then deleted');
    expect((await api.del(`/api/direct-messages/${secret._id}`, gus)).statusCode).toBe(200);
    let listing = await directOf(gus);
    expect(listing.map((c) => [c.name, c.lastMessage?.excerpt, c.lastMessage?.deleted])).toEqual([
      ['Ivy I', '', true],
      ['Hal H', `from Hal ${'x'.repeat(131)}`, false],
    ]);
    t.advance(1000);
    await sendDm(halDm, gus, 'Hal again');
    listing = await directOf(gus);
    expect(listing.map((c) => [c.email, c.lastMessage?.excerpt, c.lastMessage?.fromMe, c.unread])).toEqual([
      [hal.email, 'Hal again', false, 2],
      [ivy.email, '', true, 0],
    ]);
  });

  it('answers 404 for strangers, unknown e-mails and oneself; 400 for bad input', async () => {
    const stranger = await put(dmReadPath(carol.email), alice, { seq: 0 });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json()).toEqual({ message: 'Recipient not found' });
    expect((await put(dmReadPath('nobody@example.com'), alice, { seq: 0 })).statusCode).toBe(404);
    expect((await put(dmReadPath(alice.email), alice, { seq: 0 })).statusCode).toBe(404);
    expect((await put(dmReadPath('not-an-email'), alice, { seq: 0 })).statusCode).toBe(400);
    expect((await put(dmReadPath(bob.email), alice, { seq: -1 })).statusCode).toBe(400);
    // Someone one may write to but never did: nothing to read yet.
    expect((await put(dmReadPath(bob.email), alice, { seq: 0 })).json()).toMatchObject({
      email: bob.email,
      lastSeq: 0,
      unread: 0,
    });
    expect((await put(dmReadPath(bob.email), alice, { seq: 1 })).statusCode).toBe(400);
    expect((await api.get('/api/direct/unread')).statusCode).toBe(401);
    expect(await directOf(carol)).toEqual([]);
  });
});

/**
 * Two nodes (two apps on one database, as two processes would be) fanning out through Redis: a mark
 * moved through node A reaches the user's socket on node B. Needs REDIS_URL.
 */
describe.skipIf(!process.env.REDIS_URL)('across nodes', () => {
  it('pushes a moved mark to the user’s sockets on another node', async () => {
    const stream = `cohort-reads-test-${randomUUID()}`;
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      REDIS_URL: process.env.REDIS_URL ?? '',
      REDIS_STREAM: stream,
    });
    const nodes = [
      await buildApp({ config, database: t.database, logger: false }),
      await buildApp({ config, database: t.database, logger: false }),
    ];
    try {
      for (const node of nodes) await node.app.listen({ port: 0, host: '127.0.0.1' });
      const [nodeA, nodeB] = nodes as [(typeof nodes)[0], (typeof nodes)[0]];
      const channel = await freshChannel();
      await post(alice, channel._id, 'news for Bob');
      const onB = await openSocket(baseUrl(nodeB.app.server), CHAT_NAMESPACE, bob.token);
      sockets.push(onB);
      const pushed = next<ChannelUnread>(onB, READ_EVENTS.readMarkChanged);
      const res = await nodeA.app.inject({
        method: 'PUT',
        url: readPath(channel._id),
        headers: bob.auth,
        payload: { seq: 1 },
      });
      expect(res.statusCode).toBe(200);
      expect(await pushed).toMatchObject({ channelId: channel._id, lastReadSeq: 1, unread: 0 });
    } finally {
      for (const node of nodes) await node.app.close();
      const redis = createClient({ url: process.env.REDIS_URL });
      await redis.connect();
      await redis.del(stream);
      await redis.quit();
    }
  });
});
