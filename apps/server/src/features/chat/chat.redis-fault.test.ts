import { randomUUID } from 'node:crypto';
import type { ChannelMessage } from '@cohort/shared/chat';
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
import { eventually, sleep } from './chat.test-helpers.ts';

/**
 * Redis stopping under two nodes: both reach Redis through a TCP proxy the test cuts (connections
 * reset, new ones refused) while clients on both nodes keep sending, then restores. Sending must
 * go on (PostgreSQL is the source of truth), cross-node delivery must resume, and every client must
 * end with the same history: every acknowledged message once, in order.
 *
 * The outage lasts 10 s by default to fit CI time (COHORT_FAULT_REDIS_OUTAGE_MS=30000 runs the
 * 30 s of the issue): nothing in the adapter or the clients is timed between the two, the longer
 * outage only queues more.
 */
const redisUrl = process.env.REDIS_URL;
const skipReason = !redisUrl
  ? 'REDIS_URL is not set'
  : !process.env.TEST_DATABASE_URL
    ? 'TEST_DATABASE_URL is not set'
    : process.env.COHORT_TEST_DB !== 'postgres'
      ? 'it runs in the server-postgres project'
      : null;
if (skipReason) console.log(`chat.redis-fault.test.ts skipped: ${skipReason}`);

const OUTAGE_MS = Number(process.env.COHORT_FAULT_REDIS_OUTAGE_MS ?? 10_000);

describe.skipIf(skipReason !== null)('chat on two nodes while Redis is down', () => {
  const stream = `cohort-test-${randomUUID()}`;
  let nodeA: ServerProcess;
  let nodeB: ServerProcess;
  let redisProxy: Awaited<ReturnType<typeof startProxy>>;
  let dropDb: () => Promise<void>;
  let users: HttpUser[];
  let team: { workspaceName: string; channelId: string };
  const clients: OutboxClient[] = [];

  beforeAll(async () => {
    const db = await freshPostgresDatabase();
    if (!db) throw new Error('no database');
    dropDb = db.drop;
    const redis = new URL(redisUrl ?? '');
    redisProxy = await startProxy(Number(redis.port || 6379), redis.hostname);
    const viaProxy = new URL(redisUrl ?? '');
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(redisProxy.port);
    const env = { DATABASE_URL: db.url, REDIS_URL: viaProxy.toString(), REDIS_STREAM: stream };
    nodeA = await startReadyServer(await freePort(), env);
    nodeB = await startReadyServer(await freePort(), env);
    users = await Promise.all(
      Array.from({ length: 4 }, (_, i) => signUp(nodeA.url, uniqueEmail(`redis${i}`))),
    );
    const [owner, ...rest] = users as [HttpUser, ...HttpUser[]];
    team = await createTeam(nodeA.url, owner, rest, `redis-fault-${randomUUID().slice(0, 8)}`);
  }, 180_000); // server cold starts on a loaded CI machine

  afterAll(async () => {
    for (const c of clients) c.close();
    await Promise.all([nodeA && stopServer(nodeA, 'SIGKILL'), nodeB && stopServer(nodeB, 'SIGKILL')]);
    await redisProxy?.close();
    await dropDb?.();
    const redis = createClient({ url: redisUrl });
    await redis.connect();
    await redis.del(stream);
    await redis.quit();
  });

  const fetchAll = async () => {
    const path = `/api/workspaces/${encodeURIComponent(team.workspaceName)}/channels/${team.channelId}/messages`;
    const all: ChannelMessage[] = [];
    for (;;) {
      const res = await call<ChannelMessage[]>(
        nodeB.url,
        'GET',
        `${path}?after=${all.at(-1)?.seq ?? 0}&limit=200`,
        { token: users[0]?.token },
      );
      expect(res.status).toBe(200);
      all.push(...res.body);
      if (res.body.length < 200) return all;
    }
  };

  it(`keeps sending through a ${OUTAGE_MS / 1000} s Redis outage, then delivers across nodes again with identical histories`, async () => {
    const urls = [nodeA.url, nodeA.url, nodeB.url, nodeB.url];
    users.forEach((u, i) => {
      const url = urls[i] ?? nodeA.url;
      clients.push(new OutboxClient(() => url, u.token, team));
    });
    await eventually(() => clients.every((c) => c.isJoined), 10_000);

    let sending = true;
    const sent = clients.map(() => 0);
    const loops = clients.map(async (c, i) => {
      while (sending) {
        await c.send(`client ${i} message ${sent[i]}`);
        sent[i] = (sent[i] ?? 0) + 1;
        await sleep(200);
      }
    });
    await eventually(() => sent.every((n) => n >= 3), 20_000);
    redisProxy.cut();
    const ackedBefore = sent.reduce((a, b) => a + b, 0);
    const ackedAtCut = clients.map((c) => c.acked.length);
    await sleep(OUTAGE_MS);
    const ackedDuring = sent.reduce((a, b) => a + b, 0) - ackedBefore;
    // A node's own sockets do not wait for Redis (issue 21): clients on the same node got each
    // other's messages of the outage live, before Redis came back.
    const sentDuring = clients.map((c, i) => c.acked.slice(ackedAtCut[i]).map((m) => m._id));
    const peer = [1, 0, 3, 2];
    await eventually(
      () =>
        clients.every((c, i) =>
          (sentDuring[peer[i] ?? i] ?? []).every((id) => c.live.some((m) => m._id === id)),
        ),
      5_000,
    );
    redisProxy.restore();
    await sleep(2000);
    sending = false;
    await Promise.all(loops);
    // Sends did not stop for Redis: each node stores and acknowledges on its own.
    expect(ackedDuring).toBeGreaterThanOrEqual(clients.length * 3);
    expect(nodeA.child.exitCode).toBeNull();
    expect(nodeB.child.exitCode).toBeNull();

    // Cross-node delivery is back: a last round reaches everyone live, from either node.
    const finals = await Promise.all(clients.map((c, i) => c.send(`final from ${i}`)));
    await eventually(
      () => clients.every((c) => finals.every((f) => c.live.some((m) => m._id === f._id))),
      20_000,
    );

    const stored = await fetchAll();
    const total = sent.reduce((a, b) => a + b, 0) + clients.length;
    expect(stored).toHaveLength(total);
    expect(stored.map((m) => m.seq)).toEqual(stored.map((_, i) => i + 1));
    expect(new Set(stored.map((m) => m.clientId)).size).toBe(total);
    clients.forEach((_, i) => {
      const mine = stored.filter((m) => m.content.startsWith(`client ${i} `)).map((m) => m.content);
      expect(mine).toEqual(Array.from({ length: sent[i] ?? 0 }, (_, j) => `client ${i} message ${j}`));
    });
    const byId = new Map(stored.map((m) => [m._id, m]));
    for (const acked of clients.flatMap((c) => c.acked)) expect(byId.get(acked._id)).toEqual(acked);
    // The gap a client saw (messages from the other node that never came live) was filled by its
    // own backfill on the next message past it: no explicit backfill here.
    await eventually(() => clients.every((c) => c.lastSeq === total), 10_000);
    for (const c of clients) expect(c.history()).toEqual(stored);
  }, 120_000);
});
