import { CHAT_MESSAGES, type ChannelMessage } from '@cohort/shared/chat';
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
 * PostgreSQL going away under traffic (a restart, a failover): the shared server at TEST_DATABASE_URL
 * cannot be restarted here, so the server process reaches it through a TCP proxy that the test cuts
 * (every connection reset, new ones refused) and restores. The server must stay up, answer sends
 * with a transient refusal the outbox retries, reconnect by itself, and lose or duplicate nothing.
 */
const skipReason = !process.env.TEST_DATABASE_URL
  ? 'TEST_DATABASE_URL is not set'
  : process.env.COHORT_TEST_DB !== 'postgres'
    ? 'it runs in the server-postgres project'
    : null;
if (skipReason) console.log(`chat.database-fault.test.ts skipped: ${skipReason}`);

/** How long the database stays unreachable: long enough that every pooled connection is lost. */
const OUTAGE_MS = 4000;

describe.skipIf(skipReason !== null)('chat while PostgreSQL restarts (real server process)', () => {
  let server: ServerProcess;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let dropDb: () => Promise<void>;
  let users: HttpUser[];
  let team: { workspaceName: string; channelId: string };
  const clients: OutboxClient[] = [];

  beforeAll(async () => {
    const db = await freshPostgresDatabase();
    if (!db) throw new Error('no database');
    dropDb = db.drop;
    const target = new URL(db.url);
    proxy = await startProxy(Number(target.port || 5432), target.hostname);
    const viaProxy = new URL(db.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    server = await startReadyServer(await freePort(), { DATABASE_URL: viaProxy.toString() });
    users = await Promise.all(Array.from({ length: 3 }, (_, i) => signUp(server.url, uniqueEmail(`pg${i}`))));
    const [owner, ...rest] = users as [HttpUser, ...HttpUser[]];
    team = await createTeam(server.url, owner, rest, `pg-fault-${Date.now()}`);
  }, 180_000); // server cold starts on a loaded CI machine

  afterAll(async () => {
    for (const c of clients) c.close();
    if (server) await stopServer(server, 'SIGKILL');
    await proxy?.close();
    await dropDb?.();
  });

  it('keeps every acknowledged message once and in order across a database outage', async () => {
    for (const u of users) clients.push(new OutboxClient(() => server.url, u.token, team));
    await eventually(() => clients.every((c) => c.isJoined), 10_000);
    const PER_CLIENT = 30;
    const sending = clients.map(async (client, i) => {
      for (let j = 0; j < PER_CLIENT; j++) {
        await client.send(`client ${i} message ${j}`);
        await sleep(30);
      }
    });
    await eventually(() => clients.reduce((n, c) => n + c.acked.length, 0) >= 20, 20_000);
    proxy.cut();
    const cutAt = Date.now();
    // While it is down the server stays up and says so: readiness fails, the API answers 503.
    await sleep(500);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(503);
    const during = await call<{ message: string }>(server.url, 'GET', '/api/me', { token: users[0]?.token });
    expect(during.status).toBe(503);
    expect(during.body.message).toMatch(/temporarily unavailable/i);
    await sleep(OUTAGE_MS - (Date.now() - cutAt));
    proxy.restore();
    await Promise.all(sending);

    expect(server.child.exitCode).toBeNull();
    // Sends in the outage were refused as transient (not failed) and resent.
    expect(
      clients.reduce((n, c) => n + (c.transient.get(CHAT_MESSAGES.unavailable) ?? 0), 0),
    ).toBeGreaterThan(0);

    const res = await call<ChannelMessage[]>(
      server.url,
      'GET',
      `/api/workspaces/${encodeURIComponent(team.workspaceName)}/channels/${team.channelId}/messages?limit=200`,
      { token: users[0]?.token },
    );
    expect(res.status).toBe(200);
    const stored = res.body;
    expect(stored).toHaveLength(3 * PER_CLIENT);
    expect(stored.map((m) => m.seq)).toEqual(stored.map((_, i) => i + 1));
    expect(new Set(stored.map((m) => m.clientId)).size).toBe(stored.length);
    // Each sender's messages in the order it wrote them.
    clients.forEach((_, i) => {
      const mine = stored.filter((m) => m.content.startsWith(`client ${i} `)).map((m) => m.content);
      expect(mine).toEqual(Array.from({ length: PER_CLIENT }, (_, j) => `client ${i} message ${j}`));
    });
    const byId = new Map(stored.map((m) => [m._id, m]));
    for (const acked of clients.flatMap((c) => c.acked)) expect(byId.get(acked._id)).toEqual(acked);
    for (const c of clients) {
      await c.backfill();
      expect(c.history()).toEqual(stored);
    }
  }, 90_000);
});
