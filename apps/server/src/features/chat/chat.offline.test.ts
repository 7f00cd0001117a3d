import type { AddressInfo } from 'node:net';
import type { ChannelMessage } from '@cohort/shared/chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../../../test/factories.ts';
import { call, createTeam, type HttpUser, signUp, watchOutboxOf } from '../../../test/server-process.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { OutboxClient } from './chat.outbox-client.ts';
import { eventually, sleep } from './chat.test-helpers.ts';

/**
 * A client offline for ten minutes while 500 messages arrive. The ten minutes pass on the app's
 * injected clock (sessions, their sliding expiry and the socket session checks all read it); the
 * messages are real. Coming back, the client's backfill (pages of at most 200) must bring all 500,
 * once each, in order, and live delivery must resume.
 */

// Nothing here depends on the database engine: once (on PGlite) is enough for CI time.
const skipReason =
  process.env.COHORT_TEST_DB === 'postgres' ? 'it runs in the server (PGlite) project' : null;
if (skipReason) console.log(`chat.offline.test.ts skipped: ${skipReason}`);

const AWAY_MS = 10 * 60 * 1000;
const ARRIVING = 500;

let t: TestApp;
let url: string;
let users: HttpUser[];
let team: { workspaceName: string; channelId: string };
const clients: OutboxClient[] = [];

beforeAll(async () => {
  if (skipReason) return;
  t = await createTestApp({ listen: true });
  // The flood guard is not under test here: 500 messages in a few seconds is the point.
  t.realtime.sendRateLimit = 10_000;
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  // The members verify their addresses from the mail this app writes (to join the team).
  watchOutboxOf(t.ctx.config.DATA_DIR);
  users = await Promise.all(Array.from({ length: 5 }, (_, i) => signUp(url, uniqueEmail(`offline${i}`))));
  const [owner, ...rest] = users as [HttpUser, ...HttpUser[]];
  team = await createTeam(url, owner, rest, `offline-${Date.now()}`);
});

afterAll(async () => {
  for (const c of clients) c.close();
  await t?.close();
});

async function storedHistory() {
  const path = `/api/workspaces/${encodeURIComponent(team.workspaceName)}/channels/${team.channelId}/messages`;
  const all: ChannelMessage[] = [];
  for (;;) {
    const page = await call<ChannelMessage[]>(url, 'GET', `${path}?after=${all.at(-1)?.seq ?? 0}&limit=200`, {
      token: users[0]?.token,
    });
    expect(page.status).toBe(200);
    expect(page.body.length).toBeLessThanOrEqual(200);
    all.push(...page.body);
    if (page.body.length < 200) return all;
  }
}

describe.skipIf(skipReason !== null)('a client offline for 10 minutes while 500 messages arrive', () => {
  it('backfills all 500 in order, exactly once, and receives live messages again', async () => {
    for (const u of users) clients.push(new OutboxClient(() => url, u.token, team));
    await eventually(() => clients.every((c) => c.isJoined), 10_000);
    const [away, ...senders] = clients as [OutboxClient, ...OutboxClient[]];
    await away.send('see you later');
    await eventually(() => away.live.length === 1); // its own message, broadcast back
    away.socket.disconnect();

    // 500 messages over ten minutes of the app's clock, from four people at once.
    let sent = 0;
    await Promise.all(
      senders.map(async (c, i) => {
        for (let j = 0; j < ARRIVING / senders.length; j++) {
          await c.send(`sender ${i} message ${j}`);
          if (++sent % 50 === 0) t.advance(AWAY_MS / (ARRIVING / 50));
        }
      }),
    );
    expect(away.lastSeq).toBe(1);
    expect(away.live).toHaveLength(1);

    // Back after ten minutes: the session is still valid and the socket session check agrees.
    const started = Date.now();
    away.socket.connect();
    await eventually(() => away.lastSeq === ARRIVING + 1, 20_000);
    const backfillMs = Date.now() - started;
    await sleep(2500); // one socket session check on the advanced clock: it must not disconnect
    expect(away.socket.connected).toBe(true);

    const stored = await storedHistory();
    expect(stored).toHaveLength(ARRIVING + 1);
    expect(stored.map((m) => m.seq)).toEqual(stored.map((_, i) => i + 1));
    expect(away.history()).toEqual(stored);
    expect(new Set(away.history().map((m) => m._id)).size).toBe(ARRIVING + 1);
    senders.forEach((_, i) => {
      const mine = stored.filter((m) => m.content.startsWith(`sender ${i} `)).map((m) => m.content);
      expect(mine).toEqual(
        Array.from({ length: ARRIVING / senders.length }, (_, j) => `sender ${i} message ${j}`),
      );
    });
    expect(backfillMs).toBeLessThan(20_000);

    // Live again, both ways.
    const back = await away.send('back again');
    await senders[0]?.send('welcome back');
    await eventually(() => away.live.some((m) => m.content === 'welcome back'));
    await eventually(() => senders.every((c) => c.bySeq.has(back.seq)));

    // Positive control for "it must not disconnect" above: the same check, on the same clock, does
    // disconnect once the session has really expired.
    t.advance((t.ctx.config.SESSION_TTL_DAYS + 1) * 24 * 60 * 60 * 1000);
    await eventually(() => !away.socket.connected, 10_000);
  }, 90_000);
});
