import { randomUUID } from 'node:crypto';
import {
  PRESENCE_EVENTS,
  PRESENCE_MESSAGES,
  PRESENCE_NAMESPACE,
  type PresenceChangedEvent,
} from '@cohort/shared/presence';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { baseUrl, collect, eventually, next, openSocket, request, sleep } from '../chat/chat.test-helpers.ts';
import { createWorkspace } from '../workspaces/test-fixtures.ts';

let t: TestApp;
let url: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp({ listen: true });
  url = baseUrl(t.app.server);
  t.realtime.presenceGraceMs = 300;
});
afterEach(() => {
  for (const s of sockets.splice(0)) s.close();
});
afterAll(() => t.close());

async function tab(user: { token: string }) {
  const socket = await openSocket(url, PRESENCE_NAMESPACE, user.token);
  sockets.push(socket);
  return socket;
}

/** A workspace of the first user that the others joined (invited, and accepted). */
async function team(members: TestUser[]) {
  const [owner, ...rest] = members as [TestUser, ...TestUser[]];
  const name = `presence-${randomUUID().slice(0, 8)}`;
  await createWorkspace(t, owner, {
    name,
    description: 'Team',
    members: rest.map((m) => ({ email: m.email })),
  });
  return name;
}

const presenceOf = (workspaceName: string, as?: TestUser) =>
  t.app.inject({
    method: 'GET',
    url: `/api/workspaces/${encodeURIComponent(workspaceName)}/presence`,
    headers: as?.auth ?? {},
  });

const statusOf = (watcher: Socket, userId: string, status: string) =>
  next<PresenceChangedEvent>(
    watcher,
    PRESENCE_EVENTS.changed,
    (e) => e.userId === userId && e.status === status,
  );

async function people(n: number) {
  return Promise.all(Array.from({ length: n }, () => createUser(t.app)));
}

describe('/presence', () => {
  it('refuses a connection without a valid session', async () => {
    await expect(tab({ token: 'forged' })).rejects.toThrow('unauthorized');
  });

  it('shows a member online when a tab connects, to the members and in GET …/presence', async () => {
    const [a, b, c] = (await people(3)) as [TestUser, TestUser, TestUser];
    const ws = await team([a, b, c]);
    const before = await presenceOf(ws, a);
    expect(before.statusCode).toBe(200);
    expect(before.json()).toEqual({ [a.id]: 'offline', [b.id]: 'offline', [c.id]: 'offline' });

    const watcher = await tab(a);
    const online = statusOf(watcher, b.id, 'online');
    await tab(b);
    expect(await online).toEqual({ userId: b.id, status: 'online' });
    expect((await presenceOf(ws, a)).json()).toEqual({
      [a.id]: 'online',
      [b.id]: 'online',
      [c.id]: 'offline',
    });
  });

  it('goes away when every tab is idle, and back online when one is active again', async () => {
    const [a, b] = (await people(2)) as [TestUser, TestUser];
    const ws = await team([a, b]);
    const watcher = await tab(a);
    const seen = collect<PresenceChangedEvent>(watcher, PRESENCE_EVENTS.changed);
    const first = await tab(b);
    const second = await tab(b);
    await eventually(() => seen.some((e) => e.userId === b.id));

    expect(await request(first, PRESENCE_EVENTS.activity, { state: 'idle' })).toEqual({ ok: true });
    // The other tab is still active: still online, and nothing announced.
    expect((await presenceOf(ws, a)).json()[b.id]).toBe('online');

    const away = statusOf(watcher, b.id, 'away');
    await request(second, PRESENCE_EVENTS.activity, { state: 'idle' });
    await away;
    expect((await presenceOf(ws, a)).json()[b.id]).toBe('away');
    // A user's changes are announced one at a time, in order: had the first tab's idle announced
    // anything, it would have arrived before this "away".
    expect(seen.filter((e) => e.userId === b.id).map((e) => e.status)).toEqual(['online', 'away']);

    const back = statusOf(watcher, b.id, 'online');
    await request(first, PRESENCE_EVENTS.activity, { state: 'active' });
    await back;
    expect((await presenceOf(ws, a)).json()[b.id]).toBe('online');
  });

  it('goes offline after the grace period once the last tab closes, and a reload does not flap', async () => {
    const [a, b] = (await people(2)) as [TestUser, TestUser];
    const ws = await team([a, b]);
    const watcher = await tab(a);
    const seen = collect<PresenceChangedEvent>(watcher, PRESENCE_EVENTS.changed);
    const first = await tab(b);
    await eventually(() => seen.some((e) => e.userId === b.id && e.status === 'online'));

    // A reload: the tab closes and a new one opens within the grace period.
    first.close();
    await sleep(50);
    await tab(b);
    // The grace period is a timer: a flap would come when it ends, so wait past it.
    await sleep(t.realtime.presenceGraceMs + 200);
    expect(seen.filter((e) => e.userId === b.id).map((e) => e.status)).toEqual(['online']);
    expect((await presenceOf(ws, a)).json()[b.id]).toBe('online');

    const closedAt = Date.now();
    const offline = statusOf(watcher, b.id, 'offline');
    for (const s of sockets.filter((s) => s !== watcher)) s.close();
    await offline;
    expect(Date.now() - closedAt).toBeGreaterThanOrEqual(t.realtime.presenceGraceMs - 20);
    expect((await presenceOf(ws, a)).json()[b.id]).toBe('offline');
    // Positive control: the same listener hears the real end, and nothing else came in between.
    expect(seen.filter((e) => e.userId === b.id).map((e) => e.status)).toEqual(['online', 'offline']);
  });

  it('tells nobody who shares no workspace with the user, and only members may read presence', async () => {
    const [a, b, stranger] = (await people(3)) as [TestUser, TestUser, TestUser];
    const ws = await team([a, b]);
    await team([stranger]);
    const strangerTab = await tab(stranger);
    const heard = collect<PresenceChangedEvent>(strangerTab, PRESENCE_EVENTS.changed);
    const watcher = await tab(a);
    const online = statusOf(watcher, b.id, 'online');
    const bTab = await tab(b);
    await online;
    await request(bTab, PRESENCE_EVENTS.activity, { state: 'idle' });
    await statusOf(watcher, b.id, 'away');
    bTab.close();
    await statusOf(watcher, b.id, 'offline');
    // The stranger hears about themselves only.
    expect(heard.filter((e) => e.userId !== stranger.id)).toEqual([]);

    expect((await presenceOf(ws, stranger)).statusCode).toBe(404);
    expect((await presenceOf(ws, stranger)).json()).toEqual({ message: expect.any(String) });
    expect((await presenceOf(`no-such-${randomUUID()}`, a)).statusCode).toBe(404);
    expect((await presenceOf(ws)).statusCode).toBe(401);

    // One person by e-mail: co-members only; a stranger and an unknown e-mail look alike.
    const person = (email: string, as: TestUser) =>
      t.app.inject({ method: 'GET', url: `/api/presence/${encodeURIComponent(email)}`, headers: as.auth });
    const shared = await person(b.email.toUpperCase(), a);
    expect(shared.statusCode).toBe(200);
    expect(shared.json()).toEqual({ userId: b.id, status: 'offline' });
    const hidden = await person(b.email, stranger);
    const unknown = await person(`nobody-${randomUUID()}@example.com`, stranger);
    expect([hidden.statusCode, unknown.statusCode]).toEqual([404, 404]);
    expect(hidden.json()).toEqual(unknown.json());
  });

  it('validates the activity event, ignores identity in it, and refuses floods', async () => {
    const [a, b] = (await people(2)) as [TestUser, TestUser];
    const ws = await team([a, b]);
    const bTab = await tab(b);
    const refusals = [
      await request(bTab, PRESENCE_EVENTS.activity, { state: 'away' }),
      await request(bTab, PRESENCE_EVENTS.activity, { state: 'offline' }),
      await request(bTab, PRESENCE_EVENTS.activity, 'idle'),
      await request(bTab, PRESENCE_EVENTS.activity, null),
      await request(bTab, PRESENCE_EVENTS.activity, { state: 'idle', userId: a.id }),
    ];
    expect(refusals[0]).toEqual({ ok: false, reason: PRESENCE_MESSAGES.invalidState });
    for (const r of refusals) expect(r).toMatchObject({ ok: false, reason: expect.any(String) });
    // Nothing changed: b is still online, a (who never connected) still offline.
    expect((await presenceOf(ws, a)).json()).toEqual({ [a.id]: 'offline', [b.id]: 'online' });

    const answers = [];
    for (let i = 0; i < t.realtime.activityRateLimit + 3; i++) {
      answers.push(await request(bTab, PRESENCE_EVENTS.activity, { state: 'active' }));
    }
    expect(answers.filter((r) => (r as { ok: boolean }).ok)).toHaveLength(t.realtime.activityRateLimit - 5);
    expect(answers.at(-1)).toEqual({ ok: false, reason: PRESENCE_MESSAGES.slowDown });
  });
});
