import { randomUUID } from 'node:crypto';
import {
  CHAT_EVENTS,
  type ChannelMessage,
  type DirectMessage,
  DM_EVENTS,
  DM_NAMESPACE,
  type UserTypingEvent,
} from '@cohort/shared/chat';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../../../test/factories.ts';
import {
  call,
  createTeam,
  freePort,
  freshPostgresDatabase,
  type HttpUser,
  type ServerProcess,
  signUp,
  startReadyServer,
  stopServer,
} from '../../../test/server-process.ts';
import { startProxy } from '../../../test/tcp-proxy.ts';
import { OutboxClient } from './chat.outbox-client.ts';
import { eventually, newClientId, next, openSocket, request, sleep } from './chat.test-helpers.ts';

/**
 * Two server processes on one PostgreSQL database, fanning out through Redis streams. Needs
 * REDIS_URL and TEST_DATABASE_URL, and runs in the `server-postgres` project (the PGlite project
 * cannot share a database between processes).
 */
const redisUrl = process.env.REDIS_URL;
const skipReason = !redisUrl
  ? 'REDIS_URL is not set'
  : !process.env.TEST_DATABASE_URL
    ? 'TEST_DATABASE_URL is not set'
    : process.env.COHORT_TEST_DB !== 'postgres'
      ? 'it runs in the server-postgres project'
      : null;
if (skipReason) console.log(`chat.multinode.test.ts skipped: ${skipReason}`);

describe.skipIf(skipReason !== null)('chat on two nodes (Redis streams adapter, one PostgreSQL)', () => {
  const stream = `cohort-test-${randomUUID()}`;
  let nodeA: ServerProcess;
  let nodeB: ServerProcess;
  let proxyB: Awaited<ReturnType<typeof startProxy>>;
  let dropDb: () => Promise<void>;
  let users: HttpUser[];
  let team: { workspaceName: string; channelId: string };
  const clients: OutboxClient[] = [];

  beforeAll(async () => {
    const db = await freshPostgresDatabase();
    if (!db) throw new Error('no database');
    dropDb = db.drop;
    const env = { DATABASE_URL: db.url, REDIS_URL: redisUrl ?? '', REDIS_STREAM: stream };
    // One after the other: the first applies the migrations.
    nodeA = await startReadyServer(await freePort(), env);
    nodeB = await startReadyServer(await freePort(), env);
    // B's clients reach it through a "load balancer" that can move them to A.
    proxyB = await startProxy(nodeB.port);
    users = await Promise.all(
      Array.from({ length: 4 }, (_, i) => signUp(nodeA.url, uniqueEmail(`node${i}`))),
    );
    const [owner, ...rest] = users as [HttpUser, ...HttpUser[]];
    team = await createTeam(nodeB.url, owner, rest, `multinode-${randomUUID().slice(0, 8)}`);
  });

  afterAll(async () => {
    for (const c of clients) c.close();
    await proxyB?.close();
    await Promise.all([nodeA && stopServer(nodeA, 'SIGKILL'), nodeB && stopServer(nodeB, 'SIGKILL')]);
    await dropDb?.();
    const redis = createClient({ url: redisUrl });
    await redis.connect();
    await redis.del(stream);
    await redis.quit();
  });

  const fetchAll = async () => {
    const path = `/api/workspaces/${encodeURIComponent(team.workspaceName)}/channels/${team.channelId}/messages`;
    const res = await call<ChannelMessage[]>(nodeA.url, 'GET', `${path}?limit=200`, {
      token: users[0]?.token,
    });
    expect(res.status).toBe(200);
    return res.body;
  };

  it('delivers every message live to clients on both nodes, in one identical history', async () => {
    const urls = [nodeA.url, nodeA.url, proxyB.url, proxyB.url];
    users.forEach((u, i) => {
      const url = urls[i] ?? nodeA.url;
      clients.push(new OutboxClient(() => url, u.token, team));
    });
    await eventually(() => clients.every((c) => c.isJoined), 10_000);

    await Promise.all(
      clients.map(async (c, i) => {
        for (let j = 0; j < 10; j++) await c.send(`node client ${i} message ${j}`);
      }),
    );
    const stored = await fetchAll();
    expect(stored).toHaveLength(40);
    expect(stored.map((m) => m.seq)).toEqual(stored.map((_, i) => i + 1));
    // Live deliveries alone (no backfill) reach everyone, whichever node the sender was on.
    await eventually(() => clients.every((c) => c.live.length === 40), 10_000);
    for (const c of clients) {
      expect([...c.live].sort((a, b) => a.seq - b.seq)).toEqual(stored);
      expect(c.history()).toEqual(stored);
    }
  }, 60_000);

  it('relays typing and direct messages across nodes', async () => {
    const [a, b] = [clients[0], clients[2]] as [OutboxClient, OutboxClient];
    const typing = next<UserTypingEvent>(b.socket, CHAT_EVENTS.userTyping, (e) => e.isTyping);
    a.socket.emit(CHAT_EVENTS.typing, { ...team, isTyping: true });
    expect(await typing).toMatchObject({ userId: users[0]?.id, isTyping: true });

    const [u0, , u2] = users as [HttpUser, HttpUser, HttpUser];
    const dmA = await openSocket(nodeA.url, DM_NAMESPACE, u0.token);
    const dmB = await openSocket(nodeB.url, DM_NAMESPACE, u2.token);
    try {
      const arrives = next<DirectMessage>(dmB, DM_EVENTS.newMessage);
      const ack = await request(dmA, DM_EVENTS.sendMessage, {
        content: 'across nodes',
        receiverEmail: u2.email,
        clientId: newClientId(),
        messageType: 'text',
      });
      expect(ack.ok).toBe(true);
      expect(await arrives).toEqual(ack.message);
    } finally {
      dmA.close();
      dmB.close();
    }
  }, 30_000);

  it('revokes across nodes: a removal on A empties rooms on B, a logout on A disconnects on B', async () => {
    const [owner] = users as [HttpUser];
    const member = await signUp(nodeA.url, uniqueEmail('removed'));
    const other = await createTeam(nodeA.url, owner, [member], `revoke-${randomUUID().slice(0, 8)}`);
    const onB = await openSocket(nodeB.url, '/chat', member.token);
    const onA = await openSocket(nodeA.url, '/chat', owner.token);
    const ownerOnB = await openSocket(nodeB.url, '/chat', owner.token);
    try {
      expect(await request(onB, CHAT_EVENTS.joinChannel, other)).toEqual({ ok: true });
      expect(await request(ownerOnB, CHAT_EVENTS.joinChannel, other)).toEqual({ ok: true });
      const post = (content: string) =>
        request(onA, CHAT_EVENTS.sendMessage, { ...other, clientId: newClientId(), message: { content } });
      const first = next<ChannelMessage>(onB, CHAT_EVENTS.newMessage);
      await post('before removal');
      await first;

      const seen: ChannelMessage[] = [];
      onB.on(CHAT_EVENTS.newMessage, (m: ChannelMessage) => seen.push(m));
      const removed = await call(
        nodeA.url,
        'DELETE',
        `/api/workspaces/${encodeURIComponent(other.workspaceName)}/members/${member.id}`,
        { token: owner.token },
      );
      expect(removed.status).toBe(204);
      // The removal reaches B's rooms through Redis: give it a moment before posting.
      await sleep(500);
      const fannedOut = next<ChannelMessage>(
        ownerOnB,
        CHAT_EVENTS.newMessage,
        (m) => m.content === 'after removal',
      );
      await post('after removal');
      // B has broadcast it to the room (the owner's socket there got it)...
      await fannedOut;
      // ...and the member's socket on B still hears what it may (its own team's channel), after it.
      const own = await createTeam(nodeB.url, member, [], `own-${randomUUID().slice(0, 8)}`);
      expect(await request(onB, CHAT_EVENTS.joinChannel, own)).toEqual({ ok: true });
      const echo = next<ChannelMessage>(onB, CHAT_EVENTS.newMessage);
      await request(onB, CHAT_EVENTS.sendMessage, {
        ...own,
        clientId: newClientId(),
        message: { content: 'mine' },
      });
      await echo;
      expect(seen.map((m) => m.content)).toEqual(['mine']);

      const started = Date.now();
      expect((await call(nodeA.url, 'POST', '/api/logout', { token: member.token })).status).toBe(200);
      await eventually(() => onB.disconnected, 5000);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      onA.close();
      onB.close();
      ownerOnB.close();
    }
  }, 30_000);

  it('moves the clients of a stopped node to the other one with nothing lost', async () => {
    const sending = clients.map(async (c, i) => {
      for (let j = 0; j < 20; j++) {
        await c.send(`failover client ${i} message ${j}`);
        await sleep(25);
      }
    });
    await eventually(() => clients.reduce((n, c) => n + c.acked.length, 0) >= 40 + 30, 20_000);
    // The load balancer sends new connections to A; B shuts down gracefully.
    proxyB.switchTo(nodeA.port);
    expect(await stopServer(nodeB, 'SIGTERM')).toBe(0);
    await Promise.all(sending);

    const stored = await fetchAll();
    expect(stored).toHaveLength(40 + 80);
    expect(stored.map((m) => m.seq)).toEqual(stored.map((_, i) => i + 1));
    expect(new Set(stored.map((m) => m.clientId)).size).toBe(stored.length);
    const byId = new Map(stored.map((m) => [m._id, m]));
    for (const acked of clients.flatMap((c) => c.acked)) expect(byId.get(acked._id)).toEqual(acked);
    for (const c of clients) {
      await c.backfill();
      expect(c.history()).toEqual(stored);
    }
  }, 60_000);
});
