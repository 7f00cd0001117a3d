import {
  CALL_PAYLOAD_MAX_BYTES,
  CALL_RATE_LIMIT,
  CALL_REASONS,
  type CallAck,
  VIDEO_EVENTS,
  VIDEO_NAMESPACE,
} from '@cohort/shared/calls';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { baseUrl, collect, eventually, next, openSocket, request, sleep } from '../chat/chat.test-helpers.ts';
import { createWorkspace } from '../workspaces/test-fixtures.ts';

let t: TestApp;
let url: string;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let dave: TestUser;
let stranger: TestUser;

const sockets: Socket[] = [];
async function video(user: TestUser) {
  const socket = await openSocket(url, VIDEO_NAMESPACE, user.token);
  sockets.push(socket);
  return socket;
}
afterEach(async () => {
  for (const s of sockets.splice(0)) s.close();
  // Let the server see the disconnects (and drop the calls) before the next test.
  await sleep(50);
});

beforeAll(async () => {
  t = await createTestApp({ listen: true });
  url = baseUrl(t.app.server);
  [alice, bob, carol, dave, stranger] = await Promise.all([
    createUser(t.app, { firstName: 'Alice', lastName: 'A' }),
    createUser(t.app, { firstName: 'Bob', lastName: 'B' }),
    createUser(t.app, { firstName: 'Carol', lastName: 'C' }),
    createUser(t.app, { firstName: 'Dave', lastName: 'D' }),
    createUser(t.app, { firstName: 'Stan', lastName: 'Stranger' }),
  ]);
  await createWorkspace(t, alice, {
    members: [
      { email: bob.email, role: 'editor' },
      { email: carol.email, role: 'editor' },
      { email: dave.email, role: 'viewer' },
    ],
  });
});
afterAll(() => t.close());

const offer = { type: 'offer', sdp: 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\n' };
const answer = { type: 'answer', sdp: 'v=0\r\no=- 3 4 IN IP4 127.0.0.1\r\n' };
const candidate = {
  candidate: 'candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host',
  sdpMid: '0',
  sdpMLineIndex: 0,
};

const call = (s: Socket, toEmail: string, o: unknown = offer) =>
  request<CallAck>(s, VIDEO_EVENTS.initiateCall, { toEmail, offer: o });

/** Alice calls Bob and Bob accepts: returns both sockets. */
async function connected() {
  const [a, b] = await Promise.all([video(alice), video(bob)]);
  const incoming = next<{ from: string; offer: unknown }>(b, VIDEO_EVENTS.incomingCall);
  expect(await call(a, bob.email)).toEqual({ ok: true });
  expect(await incoming).toEqual({ from: alice.email, name: 'Alice A', offer });
  const accepted = next<{ from: string; answer: unknown }>(a, VIDEO_EVENTS.callAccepted);
  expect(await request(b, VIDEO_EVENTS.acceptCall, { to: alice.email, answer })).toEqual({ ok: true });
  expect(await accepted).toEqual({ from: bob.email, answer });
  return { a, b };
}

describe('/video one-to-one calls', () => {
  it('register-email is accepted and ignored; the caller is the session user', async () => {
    const a = await video(alice);
    expect(await request(a, VIDEO_EVENTS.registerEmail, { email: carol.email })).toEqual({ ok: true });
    const b = await video(bob);
    const incoming = next<{ from: string }>(b, VIDEO_EVENTS.incomingCall);
    await call(a, bob.email.toUpperCase());
    expect((await incoming).from).toBe(alice.email);
  });

  it('call → accept relays the offer and the answer', async () => {
    const [a, b] = await Promise.all([video(alice), video(bob)]);
    const incoming = next<{ from: string; name: string; offer: unknown }>(b, VIDEO_EVENTS.incomingCall);
    expect(await call(a, bob.email)).toEqual({ ok: true });
    expect(await incoming).toEqual({ from: alice.email, name: 'Alice A', offer });
    const accepted = next<{ from: string; answer: unknown }>(a, VIDEO_EVENTS.callAccepted);
    expect(await request(b, VIDEO_EVENTS.acceptCall, { to: alice.email, answer })).toEqual({ ok: true });
    expect(await accepted).toEqual({ from: bob.email, answer });
  });

  it('relays candidates both ways between the parties only', async () => {
    const { a, b } = await connected();
    const fromA = next<{ from: string; candidate: unknown }>(b, VIDEO_EVENTS.candidate);
    expect(await request(a, VIDEO_EVENTS.candidate, { to: bob.email, candidate })).toEqual({ ok: true });
    expect(await fromA).toEqual({ from: alice.email, candidate });
    const fromB = next<{ from: string; candidate: unknown }>(a, VIDEO_EVENTS.candidate);
    expect(await request(b, VIDEO_EVENTS.candidate, { to: alice.email, candidate })).toEqual({ ok: true });
    expect(await fromB).toEqual({ from: bob.email, candidate });
  });

  it('caller candidates flow while the callee is still ringing', async () => {
    const [a, b] = await Promise.all([video(alice), video(bob)]);
    await call(a, bob.email);
    const got = next<{ from: string }>(b, VIDEO_EVENTS.candidate);
    expect(await request(a, VIDEO_EVENTS.candidate, { to: bob.email, candidate })).toEqual({ ok: true });
    expect((await got).from).toBe(alice.email);
  });

  it('end-call tells the other party and frees both', async () => {
    const { a, b } = await connected();
    const ended = next<{ from: string }>(b, VIDEO_EVENTS.callEnded);
    expect(await request(a, VIDEO_EVENTS.endCall, { to: bob.email })).toEqual({ ok: true });
    expect(await ended).toEqual({ from: alice.email });
    // The call is gone: relays are refused, and Bob may be called again.
    expect(await request(b, VIDEO_EVENTS.candidate, { to: alice.email, candidate })).toEqual({
      ok: false,
      reason: CALL_REASONS.noCall,
    });
    const c = await video(carol);
    expect(await call(c, bob.email)).toEqual({ ok: true });
  });

  it('reject-call tells the caller', async () => {
    const [a, b] = await Promise.all([video(alice), video(bob)]);
    await call(a, bob.email);
    const rejected = next<{ from: string }>(a, VIDEO_EVENTS.callRejected);
    expect(await request(b, VIDEO_EVENTS.rejectCall, { to: alice.email })).toEqual({ ok: true });
    expect(await rejected).toEqual({ from: bob.email });
    expect(await call(a, bob.email)).toEqual({ ok: true });
  });

  it('the caller cannot reject or accept its own call', async () => {
    const [a] = await Promise.all([video(alice), video(bob)]);
    await call(a, bob.email);
    expect(await request(a, VIDEO_EVENTS.rejectCall, { to: bob.email })).toEqual({
      ok: false,
      reason: CALL_REASONS.noCall,
    });
    expect(await request(a, VIDEO_EVENTS.acceptCall, { to: bob.email, answer })).toEqual({
      ok: false,
      reason: CALL_REASONS.noCall,
    });
  });

  it('a callee already in a call is busy', async () => {
    await connected();
    const c = await video(carol);
    expect(await call(c, bob.email)).toEqual({ ok: false, reason: CALL_REASONS.busy });
    expect(await call(c, alice.email)).toEqual({ ok: false, reason: CALL_REASONS.busy });
  });

  it('unknown, offline and unrelated callees all give the same reply', async () => {
    const a = await video(alice);
    await video(stranger);
    const unavailable = { ok: false, reason: CALL_REASONS.unavailable };
    expect(await call(a, 'nobody-here@example.com')).toEqual(unavailable);
    expect(await call(a, dave.email)).toEqual(unavailable); // offline
    expect(await call(a, stranger.email)).toEqual(unavailable); // no shared workspace
    expect(await call(a, alice.email)).toEqual(unavailable); // oneself
  });

  it("a third user's candidate, answer or end for another call is refused and not delivered", async () => {
    const { a, b } = await connected();
    const c = await video(carol);
    const seenA = collect(a, VIDEO_EVENTS.candidate);
    const seenB = collect(b, VIDEO_EVENTS.candidate);
    const endedA = collect(a, VIDEO_EVENTS.callEnded);
    const endedB = collect(b, VIDEO_EVENTS.callEnded);
    const acceptedA = collect(a, VIDEO_EVENTS.callAccepted);
    const noCall = { ok: false, reason: CALL_REASONS.noCall };
    expect(await request(c, VIDEO_EVENTS.candidate, { to: alice.email, candidate })).toEqual(noCall);
    expect(await request(c, VIDEO_EVENTS.candidate, { to: bob.email, candidate })).toEqual(noCall);
    expect(await request(c, VIDEO_EVENTS.acceptCall, { to: alice.email, answer })).toEqual(noCall);
    expect(await request(c, VIDEO_EVENTS.endCall, { to: alice.email })).toEqual(noCall);
    expect(await request(c, VIDEO_EVENTS.endCall, { to: bob.email })).toEqual(noCall);
    // Positive controls: the call itself is untouched, and the parties' own candidates and hang-up,
    // relayed after Carol's refusals (a relay is emitted before its acknowledgement), arrive on the
    // same listeners; anything of Carol's would have arrived before them.
    const toB = next(b, VIDEO_EVENTS.candidate);
    expect(await request(a, VIDEO_EVENTS.candidate, { to: bob.email, candidate })).toEqual({ ok: true });
    await toB;
    const toA = next(a, VIDEO_EVENTS.candidate);
    expect(await request(b, VIDEO_EVENTS.candidate, { to: alice.email, candidate })).toEqual({ ok: true });
    await toA;
    const hungUp = next(a, VIDEO_EVENTS.callEnded);
    expect(await request(b, VIDEO_EVENTS.endCall, { to: alice.email })).toEqual({ ok: true });
    await hungUp;
    expect(seenA).toEqual([{ from: bob.email, candidate }]);
    expect(seenB).toEqual([{ from: alice.email, candidate }]);
    expect(endedA).toEqual([{ from: bob.email }]);
    expect(endedB).toEqual([]);
    expect(acceptedA).toEqual([]);
  });

  it('another tab of a party cannot speak for the call', async () => {
    const { a, b } = await connected();
    const a2 = await video(alice);
    const seen = collect(b, VIDEO_EVENTS.candidate);
    expect(await request(a2, VIDEO_EVENTS.candidate, { to: bob.email, candidate })).toEqual({
      ok: false,
      reason: CALL_REASONS.noCall,
    });
    // Positive control: the tab carrying the call still speaks for it, relayed after the refusal.
    const fromA = next(b, VIDEO_EVENTS.candidate);
    expect(await request(a, VIDEO_EVENTS.candidate, { to: bob.email, candidate })).toEqual({ ok: true });
    await fromA;
    expect(seen).toEqual([{ from: alice.email, candidate }]);
  });

  it('refuses oversized and malformed payloads', async () => {
    const [a, b] = await Promise.all([video(alice), video(bob)]);
    const seen = collect(b, VIDEO_EVENTS.incomingCall);
    const big = { type: 'offer', sdp: 'a'.repeat(CALL_PAYLOAD_MAX_BYTES) };
    expect(await call(a, bob.email, big)).toEqual({ ok: false, reason: CALL_REASONS.tooLarge });
    expect(await call(a, bob.email, { type: 'answer', sdp: 'x' })).toEqual({
      ok: false,
      reason: CALL_REASONS.invalid,
    });
    expect(await request(a, VIDEO_EVENTS.initiateCall, 'nonsense')).toEqual({
      ok: false,
      reason: CALL_REASONS.invalid,
    });
    // Positive control: a valid call afterwards rings on the same listener, and only it does.
    const rings = next(b, VIDEO_EVENTS.incomingCall);
    expect(await call(a, bob.email)).toEqual({ ok: true });
    await rings;
    expect(seen).toEqual([{ from: alice.email, name: 'Alice A', offer }]);
  });

  it('disconnect of a party ends the call for the other', async () => {
    const { a, b } = await connected();
    const ended = next<{ from: string }>(a, VIDEO_EVENTS.callEnded);
    b.close();
    expect(await ended).toEqual({ from: bob.email });
    await video(bob);
    expect(await call(a, bob.email)).toEqual({ ok: true });
  });

  it('stop between people who no longer share a workspace: a call in progress ends, a new one is refused', async () => {
    const [fay, gus] = await Promise.all([
      createUser(t.app, { firstName: 'Fay', lastName: 'F' }),
      createUser(t.app, { firstName: 'Gus', lastName: 'G' }),
    ]);
    const team = await createWorkspace(t, fay, { members: [{ email: gus.email }] });
    const [f, g] = await Promise.all([video(fay), video(gus)]);
    const incoming = next(g, VIDEO_EVENTS.incomingCall);
    expect(await call(f, gus.email)).toEqual({ ok: true });
    await incoming;
    expect(await request(g, VIDEO_EVENTS.acceptCall, { to: fay.email, answer })).toEqual({ ok: true });

    const fayEnded = next<{ from: string }>(f, VIDEO_EVENTS.callEnded);
    const gusEnded = next<{ from: string }>(g, VIDEO_EVENTS.callEnded);
    const left = await t.app.inject({
      method: 'POST',
      url: `/api/workspaces/${encodeURIComponent(team.name)}/leave`,
      headers: gus.auth,
      payload: {},
    });
    expect(left.statusCode).toBe(204);
    expect(await fayEnded).toEqual({ from: gus.email });
    expect(await gusEnded).toEqual({ from: fay.email });
    // Nothing more is relayed, and ringing again is refused like ringing a stranger.
    expect(await request(f, VIDEO_EVENTS.candidate, { to: gus.email, candidate })).toEqual({
      ok: false,
      reason: CALL_REASONS.noCall,
    });
    expect(await call(f, gus.email)).toEqual({ ok: false, reason: CALL_REASONS.unavailable });
    expect(await call(g, fay.email)).toEqual({ ok: false, reason: CALL_REASONS.unavailable });
  });

  it('a call between people who still share another workspace survives one of them leaving', async () => {
    const { a, b } = await connected();
    const other = await createWorkspace(t, alice, { members: [{ email: bob.email }] });
    const ended = collect(a, VIDEO_EVENTS.callEnded);
    const left = await t.app.inject({
      method: 'POST',
      url: `/api/workspaces/${encodeURIComponent(other.name)}/leave`,
      headers: bob.auth,
      payload: {},
    });
    expect(left.statusCode).toBe(204);
    // The check runs after the leave answers and its end is not observable, so this waits a while;
    // then the call must still relay, and the same listener must hear the call's real end only.
    await sleep(150);
    expect(await request(b, VIDEO_EVENTS.candidate, { to: alice.email, candidate })).toEqual({ ok: true });
    const hungUp = next(a, VIDEO_EVENTS.callEnded);
    expect(await request(b, VIDEO_EVENTS.endCall, { to: alice.email })).toEqual({ ok: true });
    await hungUp;
    expect(ended).toEqual([{ from: bob.email }]);
  });

  it('a flood is rate limited', async () => {
    const a = await video(alice);
    const answers = await Promise.all(
      Array.from({ length: CALL_RATE_LIMIT + 5 }, () =>
        request<CallAck>(a, VIDEO_EVENTS.endCall, { to: bob.email }),
      ),
    );
    const slowed = answers.filter((r) => !r.ok && r.reason === CALL_REASONS.slowDown);
    expect(slowed.length).toBe(5);
    await eventually(() => a.connected);
  });
});
