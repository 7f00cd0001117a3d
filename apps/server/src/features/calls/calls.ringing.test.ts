import {
  CALL_REASONS,
  type CallAck,
  MESH_EVENTS,
  MESH_NAMESPACE,
  type MeetingState,
  type MeshParticipant,
  type ParticipantState,
  VIDEO_EVENTS,
  VIDEO_NAMESPACE,
} from '@cohort/shared/calls';
import {
  NOTIFICATION_EVENTS,
  NOTIFICATIONS_NAMESPACE,
  type Notification,
} from '@cohort/shared/notifications';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { baseUrl, collect, eventually, next, openSocket, request, sleep } from '../chat/chat.test-helpers.ts';
import { client, createChannel, createWorkspace } from '../workspaces/test-fixtures.ts';

/**
 * Issue 19: a call rings on every tab of the callee (the signed-in layout keeps a `/video`
 * connection on every page), accepting in one tab stops the others ("answered elsewhere"),
 * Decline tells the caller, and an unanswered call rings out into a missed-call notification and
 * "No answer". Mesh rooms carry mute state and tell the channel's readers who is in its meeting.
 * The ring timeout is short here (an option); nothing asserts how long anything took.
 */
let t: TestApp;
let url: string;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let dave: TestUser;
let outsider: TestUser;
let open: { _id: string };
let secret: { _id: string };

const RING_MS = 400;

const sockets: Socket[] = [];
async function socketOf(namespace: string, user: TestUser) {
  const socket = await openSocket(url, namespace, user.token);
  sockets.push(socket);
  return socket;
}
const video = (user: TestUser) => socketOf(VIDEO_NAMESPACE, user);
const mesh = (user: TestUser) => socketOf(MESH_NAMESPACE, user);
afterEach(async () => {
  for (const s of sockets.splice(0)) s.close();
  await sleep(50);
});

beforeAll(async () => {
  t = await createTestApp({ listen: true, realtime: { ringTimeoutMs: RING_MS } });
  url = baseUrl(t.app.server);
  [alice, bob, carol, dave, outsider] = await Promise.all([
    createUser(t.app, { firstName: 'Alice', lastName: 'Caller' }),
    createUser(t.app, { firstName: 'Bob', lastName: 'Callee' }),
    createUser(t.app, { firstName: 'Carol', lastName: 'C' }),
    createUser(t.app, { firstName: 'Dave', lastName: 'D' }),
    createUser(t.app, { firstName: 'Otto', lastName: 'Outsider' }),
  ]);
  const ws = await createWorkspace(t, alice, {
    members: [
      { email: bob.email, role: 'editor' },
      { email: carol.email, role: 'editor' },
      { email: dave.email, role: 'viewer' },
    ],
  });
  open = await createChannel(t, alice, ws.name, {});
  secret = await createChannel(t, alice, ws.name, { private: true, members: [bob.id] });
});
afterAll(() => t.close());

const offer = { type: 'offer', sdp: 'v=0\r\n' };
const answer = { type: 'answer', sdp: 'v=0\r\n' };
const candidate = { candidate: 'candidate:1 1 udp 1 127.0.0.1 5000 typ host', sdpMid: '0', sdpMLineIndex: 0 };
const call = (s: Socket, toEmail: string) =>
  request<CallAck>(s, VIDEO_EVENTS.initiateCall, { toEmail, offer });

async function missedCalls(user: TestUser) {
  const res = await client(t).get('/api/notifications', user);
  expect(res.statusCode).toBe(200);
  return (res.json() as { notifications: Notification[] }).notifications.filter(
    (n) => n.kind === 'missed_call',
  );
}

describe('a call rings wherever the callee is', () => {
  it('rings every tab of the callee with the caller name; accepting in one stops the others', async () => {
    const a = await video(alice);
    const [tab1, tab2] = [await video(bob), await video(bob)];
    const rings = [tab1, tab2].map((s) => next<{ from: string; name: string }>(s, VIDEO_EVENTS.incomingCall));
    expect(await call(a, bob.email)).toEqual({ ok: true });
    for (const ring of await Promise.all(rings)) {
      expect(ring).toMatchObject({ from: alice.email, name: 'Alice Caller' });
    }

    const elsewhere1 = collect(tab1, VIDEO_EVENTS.answeredElsewhere);
    const elsewhere2 = next<{ from: string }>(tab2, VIDEO_EVENTS.answeredElsewhere);
    const accepted = next(a, VIDEO_EVENTS.callAccepted);
    expect(await request(tab1, VIDEO_EVENTS.acceptCall, { to: alice.email, answer })).toEqual({ ok: true });
    await accepted;
    expect(await elsewhere2).toEqual({ from: alice.email });
    // The accepting tab carries the call; the other tab may not speak for it.
    expect(await request(tab2, VIDEO_EVENTS.candidate, { to: alice.email, candidate })).toEqual({
      ok: false,
      reason: CALL_REASONS.noCall,
    });
    const relayed = next(a, VIDEO_EVENTS.candidate);
    expect(await request(tab1, VIDEO_EVENTS.candidate, { to: alice.email, candidate })).toEqual({ ok: true });
    await relayed;
    expect(elsewhere1).toHaveLength(0);
    await request(a, VIDEO_EVENTS.endCall, { to: bob.email });
  });

  it('Decline tells the caller and stops the other tabs', async () => {
    const a = await video(alice);
    const [tab1, tab2] = [await video(bob), await video(bob)];
    const ringing = next(tab2, VIDEO_EVENTS.incomingCall);
    await call(a, bob.email);
    await ringing;
    const rejected = next<{ from: string }>(a, VIDEO_EVENTS.callRejected);
    const stopped = next<{ from: string }>(tab2, VIDEO_EVENTS.callEnded);
    expect(await request(tab1, VIDEO_EVENTS.rejectCall, { to: alice.email })).toEqual({ ok: true });
    expect(await rejected).toEqual({ from: bob.email });
    expect(await stopped).toEqual({ from: alice.email });
    // Both are free again.
    const again = next(tab1, VIDEO_EVENTS.incomingCall);
    expect(await call(a, bob.email)).toEqual({ ok: true });
    await again;
    await request(a, VIDEO_EVENTS.endCall, { to: bob.email });
  });

  it('an unanswered call becomes "No answer" for the caller and a missed call for the callee', async () => {
    const before = (await missedCalls(bob)).length;
    const a = await video(alice);
    const [tab1, tab2] = [await video(bob), await video(bob)];
    const bell = await socketOf(NOTIFICATIONS_NAMESPACE, bob);
    const pushed = next<Notification>(
      bell,
      NOTIFICATION_EVENTS.notification,
      (n) => n.kind === 'missed_call',
    );
    const noAnswer = next<{ from: string }>(a, VIDEO_EVENTS.callUnanswered, () => true, 10_000);
    const missed = [tab1, tab2].map((s) =>
      next<{ from: string }>(s, VIDEO_EVENTS.callMissed, () => true, 10_000),
    );
    expect(await call(a, bob.email)).toEqual({ ok: true });
    expect(await noAnswer).toEqual({ from: bob.email });
    for (const m of await Promise.all(missed)) expect(m).toEqual({ from: alice.email });

    const notification = await pushed;
    expect(notification).toMatchObject({
      kind: 'missed_call',
      actor: { email: alice.email, name: 'Alice Caller' },
      read: false,
      text: 'Missed call',
      link: `/video?call=${encodeURIComponent(alice.email)}`,
    });
    const stored = await missedCalls(bob);
    expect(stored).toHaveLength(before + 1);
    expect(stored[0]?._id).toBe(notification._id);
    // The caller gets no notification of their own call.
    expect(await missedCalls(alice)).toHaveLength(0);
    // The call is over: accepting now is refused, and both can be called again.
    expect(await request(tab1, VIDEO_EVENTS.acceptCall, { to: alice.email, answer })).toEqual({
      ok: false,
      reason: CALL_REASONS.noCall,
    });
    const again = next(tab1, VIDEO_EVENTS.incomingCall);
    expect(await call(a, bob.email)).toEqual({ ok: true });
    await again;
    await request(a, VIDEO_EVENTS.endCall, { to: bob.email });
  });

  it('an answered call does not ring out (another call ringing out at the same time is the control)', async () => {
    const before = (await missedCalls(bob)).length;
    const a = await video(alice);
    const b = await video(bob);
    const c = await video(carol);
    // Dave is signed in (a tab open), so Carol's call to him rings.
    await video(dave);
    const aliceUnanswered = collect(a, VIDEO_EVENTS.callUnanswered);
    const bobMissed = collect(b, VIDEO_EVENTS.callMissed);
    const ringing = next(b, VIDEO_EVENTS.incomingCall);
    await call(a, bob.email);
    await ringing;
    expect(await request(b, VIDEO_EVENTS.acceptCall, { to: alice.email, answer })).toEqual({ ok: true });
    // Control: Carol's call to Dave, placed after Alice's (same timeout, so Alice's timer would have
    // fired first), rings out.
    const carolUnanswered = next(c, VIDEO_EVENTS.callUnanswered, () => true, 10_000);
    expect(await call(c, dave.email)).toEqual({ ok: true });
    await carolUnanswered;
    expect(aliceUnanswered).toHaveLength(0);
    expect(bobMissed).toHaveLength(0);
    const relayed = next(b, VIDEO_EVENTS.candidate);
    expect(await request(a, VIDEO_EVENTS.candidate, { to: bob.email, candidate })).toEqual({ ok: true });
    await relayed;
    expect(await missedCalls(bob)).toHaveLength(before);
    await request(a, VIDEO_EVENTS.endCall, { to: bob.email });
  });

  it('a caller who hangs up before the timeout leaves no missed call', async () => {
    const before = (await missedCalls(bob)).length;
    const a = await video(alice);
    const b = await video(bob);
    const bell = await socketOf(NOTIFICATIONS_NAMESPACE, bob);
    const bobMissed = collect(b, VIDEO_EVENTS.callMissed);
    const pushes = collect<Notification>(bell, NOTIFICATION_EVENTS.notification);
    const ringing = next(b, VIDEO_EVENTS.incomingCall);
    await call(a, bob.email);
    await ringing;
    const ended = next(b, VIDEO_EVENTS.callEnded);
    await request(a, VIDEO_EVENTS.endCall, { to: bob.email });
    await ended;
    // Control: a second call between them (timed after the first) rings out; only it is missed.
    const missed = next(b, VIDEO_EVENTS.callMissed, () => true, 10_000);
    await call(a, bob.email);
    await missed;
    await eventually(() => pushes.length >= 1);
    expect(bobMissed).toHaveLength(1);
    expect(pushes.map((n) => n.kind)).toEqual(['missed_call']);
    expect((await missedCalls(bob)).length).toBe(before + 1);
  });
});

describe('mesh mute state', () => {
  it('only a participant may announce it, and only its room hears it', async () => {
    const [ada, ben, cy] = [await mesh(alice), await mesh(bob), await mesh(carol)];
    // Not in a room: refused.
    expect(await request(ada, MESH_EVENTS.mediaState, { audioMuted: true, videoMuted: false })).toEqual({
      ok: false,
      reason: CALL_REASONS.forbidden,
    });
    expect(await request(ada, MESH_EVENTS.mediaState, { audioMuted: 'yes' })).toEqual({
      ok: false,
      reason: CALL_REASONS.invalid,
    });
    expect(await request(ada, MESH_EVENTS.join, { room: open._id })).toEqual({ ok: true });
    expect(await request(ben, MESH_EVENTS.join, { room: open._id })).toEqual({ ok: true });
    // Carol is in another room (the private channel is not hers: an ad-hoc room).
    const room = (await client(t).post('/api/calls/rooms', carol, {})).json() as { roomId: string };
    expect(await request(cy, MESH_EVENTS.join, { room: room.roomId })).toEqual({ ok: true });
    const carolHears = collect(cy, MESH_EVENTS.mediaState);
    const benHears = next<ParticipantState>(ben, MESH_EVENTS.mediaState);
    expect(await request(ada, MESH_EVENTS.mediaState, { audioMuted: true, videoMuted: true })).toEqual({
      ok: true,
    });
    expect(await benHears).toEqual({ id: ada.id, audioMuted: true, videoMuted: true });
    // Newcomers see it in the list.
    const dan = await mesh(dave);
    expect(await request(dan, MESH_EVENTS.join, { room: open._id })).toEqual({ ok: true });
    const list = await request<{ ok: boolean; users: MeshParticipant[] }>(dan, MESH_EVENTS.getUsers, {});
    expect(list.users.find((u) => u.id === ada.id)).toMatchObject({ audioMuted: true, videoMuted: true });
    expect(list.users.find((u) => u.id === ben.id)).toMatchObject({ audioMuted: false, videoMuted: false });
    // Carol's room heard nothing (Ben hearing it above is the control).
    expect(carolHears).toHaveLength(0);
  });
});

describe('meeting in progress', () => {
  it('readers of the channel see who is in its meeting, live; others are refused and get nothing', async () => {
    const watcher = await mesh(dave);
    const stranger = await mesh(outsider);
    const notListed = await mesh(carol);
    const initial = await request<{ ok: boolean; meeting: MeetingState }>(watcher, MESH_EVENTS.watchMeeting, {
      room: open._id,
    });
    expect(initial).toEqual({ ok: true, meeting: { room: open._id, participants: [] } });
    expect(await request(stranger, MESH_EVENTS.watchMeeting, { room: open._id })).toEqual({
      ok: false,
      reason: CALL_REASONS.forbidden,
    });
    expect(await request(notListed, MESH_EVENTS.watchMeeting, { room: secret._id })).toEqual({
      ok: false,
      reason: CALL_REASONS.forbidden,
    });
    const strangerHears = collect(stranger, MESH_EVENTS.meeting);
    const carolHears = collect(notListed, MESH_EVENTS.meeting);

    const first = await mesh(alice);
    const started = next<MeetingState>(watcher, MESH_EVENTS.meeting, (m) => m.participants.length === 1);
    expect(await request(first, MESH_EVENTS.join, { room: open._id })).toEqual({ ok: true });
    expect(await started).toEqual({
      room: open._id,
      participants: [{ email: alice.email, name: 'Alice Caller' }],
    });
    const second = await mesh(bob);
    const two = next<MeetingState>(watcher, MESH_EVENTS.meeting, (m) => m.participants.length === 2);
    await request(second, MESH_EVENTS.join, { room: open._id });
    expect((await two).participants.map((p) => p.name).sort()).toEqual(['Alice Caller', 'Bob Callee']);

    // A late watcher gets the current list at once.
    const late = await mesh(carol);
    const now = await request<{ ok: boolean; meeting: MeetingState }>(late, MESH_EVENTS.watchMeeting, {
      room: open._id,
    });
    expect(now.meeting.participants).toHaveLength(2);

    const one = next<MeetingState>(watcher, MESH_EVENTS.meeting, (m) => m.participants.length === 1);
    await request(first, MESH_EVENTS.leave, {});
    expect((await one).participants).toEqual([{ email: bob.email, name: 'Bob Callee' }]);
    const over = next<MeetingState>(watcher, MESH_EVENTS.meeting, (m) => m.participants.length === 0);
    second.close();
    await over;

    // The private channel's meeting: its listed member sees it; Carol (not listed) got nothing.
    const listed = await mesh(bob);
    const secretWatch = await request(listed, MESH_EVENTS.watchMeeting, { room: secret._id });
    expect(secretWatch).toMatchObject({ ok: true });
    const inSecret = await mesh(alice);
    const seen = next<MeetingState>(listed, MESH_EVENTS.meeting, (m) => m.participants.length === 1);
    expect(await request(inSecret, MESH_EVENTS.join, { room: secret._id })).toEqual({ ok: true });
    await seen;
    expect(strangerHears).toHaveLength(0);
    expect(carolHears).toHaveLength(0);
  });
});
