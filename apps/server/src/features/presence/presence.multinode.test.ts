import { randomUUID } from 'node:crypto';
import {
  PRESENCE_EVENTS,
  PRESENCE_NAMESPACE,
  type PresenceChangedEvent,
  type PresenceStatus,
  type WorkspacePresence,
} from '@cohort/shared/presence';
import { createClient } from 'redis';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
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
import { collect, next, openSocket, request, sleep } from '../chat/chat.test-helpers.ts';

/**
 * Three server processes on one PostgreSQL database, fanning out through Redis streams, presence
 * folded in Redis. Needs REDIS_URL and TEST_DATABASE_URL, and runs in the `server-postgres` project
 * (the PGlite project cannot share a database between processes).
 */
const redisUrl = process.env.REDIS_URL;
const skipReason = !redisUrl
  ? 'REDIS_URL is not set'
  : !process.env.TEST_DATABASE_URL
    ? 'TEST_DATABASE_URL is not set'
    : process.env.COHORT_TEST_DB !== 'postgres'
      ? 'it runs in the server-postgres project'
      : null;
if (skipReason) console.log(`presence.multinode.test.ts skipped: ${skipReason}`);

const GRACE_MS = 500;
const NODE_TIMEOUT_MS = 3000;

describe.skipIf(skipReason !== null)('presence on several nodes (Redis)', () => {
  const stream = `cohort-test-${randomUUID()}`;
  let nodeA: ServerProcess;
  let nodeB: ServerProcess;
  let nodeC: ServerProcess;
  let dropDb: () => Promise<void>;
  let watcher: HttpUser;
  let user: HttpUser;
  let other: HttpUser;
  let team: { workspaceName: string };
  const sockets: Socket[] = [];

  beforeAll(async () => {
    const db = await freshPostgresDatabase();
    if (!db) throw new Error('no database');
    dropDb = db.drop;
    const env = {
      DATABASE_URL: db.url,
      REDIS_URL: redisUrl ?? '',
      REDIS_STREAM: stream,
      PRESENCE_GRACE_MS: String(GRACE_MS),
      PRESENCE_NODE_TIMEOUT_MS: String(NODE_TIMEOUT_MS),
    };
    // One after the other: the first applies the migrations.
    nodeA = await startReadyServer(await freePort(), env);
    [nodeB, nodeC] = await Promise.all([
      freePort().then((port) => startReadyServer(port, env)),
      freePort().then((port) => startReadyServer(port, env)),
    ]);
    [watcher, user, other] = (await Promise.all(
      ['watcher', 'user', 'other'].map((p) => signUp(nodeA.url, uniqueEmail(p))),
    )) as [HttpUser, HttpUser, HttpUser];
    team = await createTeam(nodeA.url, watcher, [user, other], `presence-${randomUUID().slice(0, 8)}`);
    // Three processes starting on a busy machine.
  }, 180_000);

  afterEach(() => {
    for (const s of sockets.splice(0)) s.close();
  });

  afterAll(async () => {
    await Promise.all([nodeA, nodeB, nodeC].map((node) => (node ? stopServer(node, 'SIGKILL') : undefined)));
    await dropDb?.();
    const redis = createClient({ url: redisUrl });
    await redis.connect();
    const keys = await redis.keys(`${stream}*`);
    if (keys.length) await redis.del(keys);
    await redis.quit();
  });

  const tab = async (node: ServerProcess, who: HttpUser) => {
    const socket = await openSocket(node.url, PRESENCE_NAMESPACE, who.token);
    sockets.push(socket);
    return socket;
  };
  const presenceOn = async (node: ServerProcess) => {
    const path = `/api/workspaces/${encodeURIComponent(team.workspaceName)}/presence`;
    const res = await call<WorkspacePresence>(node.url, 'GET', path, { token: watcher.token });
    expect(res.status).toBe(200);
    return res.body;
  };
  const becomes = (socket: Socket, who: HttpUser, status: PresenceStatus, timeoutMs = 5000) =>
    next<PresenceChangedEvent>(
      socket,
      PRESENCE_EVENTS.changed,
      (e) => e.userId === who.id && e.status === status,
      timeoutMs,
    );

  it("folds one user's tabs on two nodes into one status, announced once per change", async () => {
    const onA = await tab(nodeA, watcher);
    const seen = collect<PresenceChangedEvent>(onA, PRESENCE_EVENTS.changed);
    const online = becomes(onA, user, 'online');
    const userOnB = await tab(nodeB, user);
    await online;
    const userOnA = await tab(nodeA, user);
    expect((await presenceOn(nodeA))[user.id]).toBe('online');
    expect((await presenceOn(nodeB))[user.id]).toBe('online');

    // The tab on B goes idle, the one on A is still active: online.
    expect(await request(userOnB, PRESENCE_EVENTS.activity, { state: 'idle' })).toEqual({ ok: true });
    await sleep(300);
    expect((await presenceOn(nodeA))[user.id]).toBe('online');

    // Both idle, on different nodes: away, seen from either node.
    const away = becomes(onA, user, 'away');
    await request(userOnA, PRESENCE_EVENTS.activity, { state: 'idle' });
    await away;
    expect((await presenceOn(nodeB))[user.id]).toBe('away');

    // The tab on A closes; the idle tab on B keeps the user away. Then it closes too: offline.
    userOnA.close();
    await sleep(GRACE_MS + 500);
    expect((await presenceOn(nodeC))[user.id]).toBe('away');
    const offline = becomes(onA, user, 'offline');
    userOnB.close();
    await offline;
    expect((await presenceOn(nodeA))[user.id]).toBe('offline');
    expect(seen.filter((e) => e.userId === user.id).map((e) => e.status)).toEqual([
      'online',
      'away',
      'offline',
    ]);
  }, 30_000);

  it('takes the users of a node that died offline after the node timeout, not those also elsewhere', async () => {
    const onA = await tab(nodeA, watcher);
    const online = Promise.all([becomes(onA, user, 'online'), becomes(onA, other, 'online')]);
    await tab(nodeC, user);
    await tab(nodeC, other);
    await tab(nodeB, other);
    await online;

    const seen = collect<PresenceChangedEvent>(onA, PRESENCE_EVENTS.changed);
    const diedAt = Date.now();
    const offline = becomes(onA, user, 'offline', NODE_TIMEOUT_MS * 3);
    await stopServer(nodeC, 'SIGKILL');
    await offline;
    const took = Date.now() - diedAt;
    // Dead once its last heartbeat is older than the timeout (that heartbeat came up to a third of it
    // before the kill), found by the next heartbeat of a surviving node (another third).
    const heartbeat = NODE_TIMEOUT_MS / 3;
    expect(took).toBeGreaterThanOrEqual(NODE_TIMEOUT_MS - heartbeat - 250);
    expect(took).toBeLessThan(NODE_TIMEOUT_MS * 2 + 1000);
    expect(await presenceOn(nodeB)).toMatchObject({ [user.id]: 'offline', [other.id]: 'online' });
    expect(seen.filter((e) => e.userId === other.id)).toEqual([]);
  }, 30_000);
});
