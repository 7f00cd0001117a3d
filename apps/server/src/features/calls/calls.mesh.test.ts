import {
  CALL_REASONS,
  type CallAck,
  MESH_EVENTS,
  MESH_NAMESPACE,
  MESH_ROOM_MAX,
  type MeshParticipant,
} from '@cohort/shared/calls';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { baseUrl, collect, next, openSocket, request, sleep } from '../chat/chat.test-helpers.ts';
import { client, createChannel, createWorkspace } from '../workspaces/test-fixtures.ts';

let t: TestApp;
let url: string;
let users: TestUser[];
let ada: TestUser;
let ben: TestUser;
let cy: TestUser;
let outsider: TestUser;
let open: { _id: string };
let other: { _id: string };
let secret: { _id: string };

const sockets: Socket[] = [];
async function mesh(user: TestUser) {
  const socket = await openSocket(url, MESH_NAMESPACE, user.token);
  sockets.push(socket);
  return socket;
}
afterEach(async () => {
  for (const s of sockets.splice(0)) s.close();
  await sleep(50);
});

beforeAll(async () => {
  t = await createTestApp({ listen: true });
  url = baseUrl(t.app.server);
  users = await Promise.all(
    Array.from({ length: 7 }, (_, i) => createUser(t.app, { firstName: `User${i}`, lastName: 'Mesh' })),
  );
  [ada, ben, cy] = users as [TestUser, TestUser, TestUser];
  outsider = await createUser(t.app, { firstName: 'Otto', lastName: 'Outsider' });
  const ws = await createWorkspace(t, ada, {
    members: users.slice(1).map((u) => ({ email: u.email, role: 'editor' as const })),
  });
  open = await createChannel(t, ada, ws.name, {});
  other = await createChannel(t, ada, ws.name, {});
  secret = await createChannel(t, ada, ws.name, { private: true, members: [ben.id] });
});
afterAll(() => t.close());

const join = (s: Socket, room: string) => request<CallAck>(s, MESH_EVENTS.join, { room });
const offer = { type: 'offer', sdp: 'v=0\r\n' };
const answer = { type: 'answer', sdp: 'v=0\r\n' };
const candidate = { candidate: 'candidate:1 1 udp 1 127.0.0.1 5000 typ host', sdpMid: '0', sdpMLineIndex: 0 };

describe('/mesh rooms', () => {
  it('join, user-list, user-joined and user-left', async () => {
    const a = await mesh(ada);
    expect(await join(a, open._id)).toEqual({ ok: true });
    const b = await mesh(ben);
    const joined = next<MeshParticipant>(a, MESH_EVENTS.userJoined);
    expect(await join(b, open._id)).toEqual({ ok: true });
    expect(await joined).toEqual({
      id: b.id,
      email: ben.email,
      name: 'User1 Mesh',
      audioMuted: false,
      videoMuted: false,
    });

    const list = next<MeshParticipant[]>(b, MESH_EVENTS.userList);
    b.emit(MESH_EVENTS.getUsers);
    expect(await list).toEqual([
      { id: a.id, email: ada.email, name: 'User0 Mesh', audioMuted: false, videoMuted: false },
    ]);

    const left = next<{ id: string }>(a, MESH_EVENTS.userLeft);
    const bId = b.id;
    b.close();
    expect(await left).toEqual({ id: bId });
  });

  it('relays offer, answer and candidate only within the room', async () => {
    const [a, b, c] = await Promise.all([mesh(ada), mesh(ben), mesh(cy)]);
    await join(a, open._id);
    await join(b, open._id);
    await join(c, other._id);
    const gotOffer = next<{ from: string; offer: unknown }>(b, MESH_EVENTS.offer);
    expect(await request(a, MESH_EVENTS.offer, { to: b.id, offer })).toEqual({ ok: true });
    expect(await gotOffer).toEqual({ from: a.id, offer });
    const gotAnswer = next<{ from: string; answer: unknown }>(a, MESH_EVENTS.answer);
    expect(await request(b, MESH_EVENTS.answer, { to: a.id, answer })).toEqual({ ok: true });
    expect(await gotAnswer).toEqual({ from: b.id, answer });
    const gotCandidate = next<{ from: string; candidate: unknown }>(a, MESH_EVENTS.candidate);
    expect(await request(b, MESH_EVENTS.candidate, { to: a.id, candidate })).toEqual({ ok: true });
    expect(await gotCandidate).toEqual({ from: b.id, candidate });

    // Cy is in another room: nothing passes either way.
    const seenByA = collect(a, MESH_EVENTS.offer);
    const seenByC = collect(c, MESH_EVENTS.candidate);
    const forbidden = { ok: false, reason: CALL_REASONS.forbidden };
    expect(await request(c, MESH_EVENTS.offer, { to: a.id, offer })).toEqual(forbidden);
    expect(await request(a, MESH_EVENTS.candidate, { to: c.id, candidate })).toEqual(forbidden);
    expect(await request(a, MESH_EVENTS.candidate, { to: a.id, candidate })).toEqual(forbidden);
    // Positive controls: a refusal answers before relaying anything, so what the same listeners get
    // from peers in their own rooms afterwards arrives after any stray relay.
    const offerToA = next(a, MESH_EVENTS.offer);
    expect(await request(b, MESH_EVENTS.offer, { to: a.id, offer })).toEqual({ ok: true });
    await offerToA;
    const c2 = await mesh(cy);
    await join(c2, other._id);
    const candidateToC = next(c, MESH_EVENTS.candidate);
    expect(await request(c2, MESH_EVENTS.candidate, { to: c.id, candidate })).toEqual({ ok: true });
    await candidateToC;
    expect(seenByA).toEqual([{ from: b.id, offer }]);
    expect(seenByC).toEqual([{ from: c2.id, candidate }]);
  });

  it('a socket in no room relays nothing', async () => {
    const [a, b] = await Promise.all([mesh(ada), mesh(ben)]);
    await join(b, open._id);
    expect(await request(a, MESH_EVENTS.offer, { to: b.id, offer })).toEqual({
      ok: false,
      reason: CALL_REASONS.forbidden,
    });
  });

  it('refuses a non-member of a private channel, outsiders and unknown rooms alike', async () => {
    const forbidden = { ok: false, reason: CALL_REASONS.forbidden };
    const [a, b, o] = await Promise.all([mesh(ada), mesh(ben), mesh(outsider)]);
    expect(await join(b, secret._id)).toEqual({ ok: true });
    expect(await join(a, secret._id)).toEqual({ ok: true }); // the creator is listed too
    const c = await mesh(cy);
    expect(await join(c, secret._id)).toEqual(forbidden);
    expect(await join(o, open._id)).toEqual(forbidden);
    expect(await join(o, 'r-00000000-0000-0000-0000-000000000000')).toEqual(forbidden);
    expect(await join(o, 'not a room')).toEqual(forbidden);
  });

  it(`a room holds at most ${MESH_ROOM_MAX}: the 7th is refused`, async () => {
    const all = await Promise.all(users.map((u) => mesh(u)));
    for (const s of all.slice(0, MESH_ROOM_MAX)) expect(await join(s, open._id)).toEqual({ ok: true });
    const seventh = all[MESH_ROOM_MAX] as Socket;
    expect(await join(seventh, open._id)).toEqual({ ok: false, reason: CALL_REASONS.roomFull });
    // One leaves, and there is room again.
    const first = all[0] as Socket;
    expect(await request(first, MESH_EVENTS.leave, {})).toEqual({ ok: true });
    expect(await join(seventh, open._id)).toEqual({ ok: true });
  });

  it('ad-hoc rooms: anyone signed in with the link may join', async () => {
    const api = client(t);
    expect((await api.post('/api/calls/rooms', undefined, {})).statusCode).toBe(401);
    const res = await api.post('/api/calls/rooms', ada, {});
    expect(res.statusCode).toBe(201);
    const { roomId, url: link } = res.json() as { roomId: string; url: string };
    expect(link).toBe(`/mesh?room=${roomId}`);
    const [a, o] = await Promise.all([mesh(ada), mesh(outsider)]);
    expect(await join(a, roomId)).toEqual({ ok: true });
    const joined = next<MeshParticipant>(a, MESH_EVENTS.userJoined);
    expect(await join(o, roomId)).toEqual({ ok: true });
    expect((await joined).email).toBe(outsider.email);
  });

  it('joining another room leaves the first', async () => {
    const [a, b] = await Promise.all([mesh(ada), mesh(ben)]);
    await join(a, open._id);
    await join(b, open._id);
    const left = next<{ id: string }>(a, MESH_EVENTS.userLeft);
    await join(b, other._id);
    expect(await left).toEqual({ id: b.id });
  });

  it('two joins at once put a socket in one room only', async () => {
    const api = client(t);
    const rooms = await Promise.all(
      [0, 1, 2].map(async () => (await api.post('/api/calls/rooms', ada, {})).json().roomId as string),
    );
    const a = await mesh(ada);
    const acks = await Promise.all(rooms.map((room) => join(a, room)));
    for (const ack of acks) expect(ack).toEqual({ ok: true });
    const nsp = t.io.of(MESH_NAMESPACE);
    const memberships = await Promise.all(
      rooms.map(async (room) => (await nsp.in(`mesh:${room}`).fetchSockets()).some((s) => s.id === a.id)),
    );
    // Joined in arrival order, each join leaving the one before: only the last room holds it.
    expect(memberships).toEqual([false, false, true]);
  });

  it(`joins arriving at once still stop at ${MESH_ROOM_MAX}`, async () => {
    const all = await Promise.all(users.map((u) => mesh(u)));
    const acks = await Promise.all(all.map((s) => join(s, other._id)));
    expect(acks.filter((a) => a.ok).length).toBe(MESH_ROOM_MAX);
    expect(acks.filter((a) => !a.ok)).toEqual([{ ok: false, reason: CALL_REASONS.roomFull }]);
  });

  it('an ad-hoc link expires after a day', async () => {
    const res = await client(t).post('/api/calls/rooms', ada, {});
    const { roomId } = res.json() as { roomId: string };
    // Last in the file: the clock jump would also expire the test sessions for later tests.
    const o = await mesh(outsider);
    t.advance(24 * 60 * 60 * 1000 + 1);
    expect(await join(o, roomId)).toEqual({ ok: false, reason: CALL_REASONS.forbidden });
  });
});
