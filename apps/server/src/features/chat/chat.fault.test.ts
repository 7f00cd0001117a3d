import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChannelMessage } from '@cohort/shared/chat';
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
import { OutboxClient } from './chat.outbox-client.ts';
import { sleep } from './chat.test-helpers.ts';

/**
 * Fault tests against the real server process: SIGKILL mid-traffic and a restart on the same data,
 * and a client cut off while others talk. The clients behave as docs/realtime.md asks (outbox with
 * resends under the same clientId, backfill by seq), and nothing may be lost or duplicated.
 */

let server: ServerProcess;
let port: number;
let env: Record<string, string>;
let cleanup: () => Promise<void>;
let users: HttpUser[];
let team: { workspaceName: string; channelId: string };
const clients: OutboxClient[] = [];

beforeAll(async () => {
  port = await freePort();
  const pgDb = await freshPostgresDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'cohort-fault-'));
  env = pgDb ? { DATABASE_URL: pgDb.url } : { DATA_DIR: dataDir };
  cleanup = async () => {
    await pgDb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  server = await startReadyServer(port, env);
  users = await Promise.all(
    Array.from({ length: 5 }, (_, i) => signUp(server.url, uniqueEmail(`fault${i}`))),
  );
  const [owner, ...rest] = users as [HttpUser, ...HttpUser[]];
  team = await createTeam(server.url, owner, rest, `fault-${port}-${Date.now()}`);
});

afterAll(async () => {
  for (const c of clients) c.close();
  if (server) await stopServer(server, 'SIGKILL');
  await cleanup?.();
});

const fetchAll = async (token: string) => {
  const path = `/api/workspaces/${encodeURIComponent(team.workspaceName)}/channels/${team.channelId}/messages`;
  const all: ChannelMessage[] = [];
  for (;;) {
    const page = await call<ChannelMessage[]>(
      server.url,
      'GET',
      `${path}?after=${all.at(-1)?.seq ?? 0}&limit=200`,
      {
        token,
      },
    );
    expect(page.status).toBe(200);
    all.push(...page.body);
    if (page.body.length < 200) return all;
  }
};

describe('chat under faults (real server process)', () => {
  it('loses and duplicates nothing when the server is SIGKILLed mid-traffic and restarted', async () => {
    const url = () => server.url;
    for (const u of users) clients.push(new OutboxClient(url, u.token, team));
    const PER_CLIENT = 40;
    let killed = false;
    const ackedBeforeKill: ChannelMessage[] = [];

    const sending = clients.map(async (client, i) => {
      for (let j = 0; j < PER_CLIENT; j++) {
        await client.send(`client ${i} message ${j}`);
        await sleep(20);
      }
    });

    // Kill the server once about a third is through, while every client has a send in flight.
    const total = () => clients.reduce((n, c) => n + c.acked.length, 0);
    while (total() < 70) await sleep(5);
    ackedBeforeKill.push(...clients.flatMap((c) => c.acked));
    await stopServer(server, 'SIGKILL');
    killed = true;
    await sleep(300);
    server = await startReadyServer(port, env);

    await Promise.all(sending);
    expect(killed).toBe(true);

    const stored = await fetchAll(users[0]?.token ?? '');
    // Every message exactly once, seq gapless from 1.
    expect(stored).toHaveLength(5 * PER_CLIENT);
    expect(stored.map((m) => m.seq)).toEqual(stored.map((_, i) => i + 1));
    expect(new Set(stored.map((m) => m.clientId)).size).toBe(stored.length);
    const contents = stored.map((m) => m.content).sort();
    const expected = clients.flatMap((_, i) =>
      Array.from({ length: PER_CLIENT }, (_, j) => `client ${i} message ${j}`),
    );
    expect(contents).toEqual(expected.sort());
    // Every acknowledgement (before the kill too) names a stored message, unchanged.
    const byId = new Map(stored.map((m) => [m._id, m]));
    for (const acked of clients.flatMap((c) => c.acked)) expect(byId.get(acked._id)).toEqual(acked);
    expect(ackedBeforeKill.length).toBeGreaterThanOrEqual(70);
    // The kill did cut sends short: some went unanswered and were resent under their clientId.
    expect(clients.reduce((n, c) => n + c.unanswered, 0)).toBeGreaterThan(0);

    // Each client's view (live deliveries + backfill after the reconnect) is the whole history.
    for (const c of clients) await c.backfill();
    for (const c of clients) expect(c.history()).toEqual(stored);
  }, 120_000);

  it('backfills a client whose connection dropped while others sent, to an identical history', async () => {
    const [dropped, ...others] = clients as [OutboxClient, ...OutboxClient[]];
    while (!dropped.isJoined) await sleep(10);
    const before = dropped.lastSeq;
    dropped.socket.disconnect();

    // Away for 10 s while the others keep talking, one round a second.
    const sentWhileAway = [];
    for (let round = 0; round < 10; round++) {
      sentWhileAway.push(...(await Promise.all(others.map((c, i) => c.send(`while away ${round}.${i}`)))));
      await sleep(1000);
    }
    expect(dropped.bySeq.size).toBe(before);

    dropped.socket.connect();
    // Back in: it sends too, and what others send from now on arrives live.
    await dropped.send('I am back');
    await Promise.all(others.map((c, i) => c.send(`welcome back ${i}`)));

    const stored = await fetchAll(users[0]?.token ?? '');
    for (const m of sentWhileAway) expect(stored).toContainEqual(m);
    await sleep(200);
    expect(dropped.history()).toEqual(stored);
    for (const c of others) {
      await c.backfill();
      expect(c.history()).toEqual(stored);
    }
  }, 60_000);
});
