import { randomUUID } from 'node:crypto';
import {
  CALL_REASONS,
  type CallAck,
  MESH_EVENTS,
  MESH_NAMESPACE,
  VIDEO_EVENTS,
  VIDEO_NAMESPACE,
} from '@cohort/shared/calls';
import { NOTIFICATION_EVENTS, NOTIFICATIONS_NAMESPACE } from '@cohort/shared/notifications';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { openTestDatabase, type TestApp } from '../../../test/test-app.ts';
import { buildApp, type CohortApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { baseUrl, next, openSocket, request } from '../chat/chat.test-helpers.ts';
import { createWorkspace } from '../workspaces/test-fixtures.ts';

/**
 * Two nodes in one process on one database, fanning out through Redis streams: a call set up on
 * one node is known to the other (legs are replicated). Needs REDIS_URL.
 */
const redisUrl = process.env.REDIS_URL;
if (!redisUrl) console.log('calls.multinode.test.ts skipped: REDIS_URL is not set');

describe.skipIf(!redisUrl)('/video across two nodes', () => {
  let database: Database;
  let nodes: CohortApp[];
  let urls: string[];
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    database = await openTestDatabase();
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      REDIS_URL: redisUrl ?? '',
      REDIS_STREAM: `cohort-calls-${randomUUID()}`,
    });
    nodes = [];
    for (let i = 0; i < 2; i++) {
      const node = await buildApp({ config, database, logger: false });
      await node.app.listen({ port: 0, host: '127.0.0.1' });
      nodes.push(node);
    }
    urls = nodes.map((n) => baseUrl(n.app.server));
    const first = nodes[0] as CohortApp;
    [alice, bob, carol] = await Promise.all([
      createUser(first.app),
      createUser(first.app),
      createUser(first.app),
    ]);
    await createWorkspace(first as unknown as TestApp, alice, {
      members: [
        { email: bob.email, role: 'editor' },
        { email: carol.email, role: 'editor' },
      ],
    });
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    for (const n of nodes ?? []) await n.app.close();
    await database?.close();
  });

  const video = async (node: number, user: TestUser) => {
    const s = await openSocket(urls[node] ?? '', VIDEO_NAMESPACE, user.token);
    sockets.push(s);
    return s;
  };

  it('caller on node A, callee on node B: ring, accept, candidates, busy, end', async () => {
    const a = await video(0, alice);
    const b = await video(1, bob);
    const incoming = next<{ from: string }>(b, VIDEO_EVENTS.incomingCall);
    expect(
      await request<CallAck>(a, VIDEO_EVENTS.initiateCall, {
        toEmail: bob.email,
        offer: { type: 'offer', sdp: 'x' },
      }),
    ).toEqual({ ok: true });
    expect((await incoming).from).toBe(alice.email);
    const accepted = next(a, VIDEO_EVENTS.callAccepted);
    // The legs reach node B through Redis shortly after the acknowledgement.
    let ack: CallAck = { ok: false, reason: '' };
    for (let i = 0; i < 50 && !ack.ok; i++) {
      ack = await request<CallAck>(b, VIDEO_EVENTS.acceptCall, {
        to: alice.email,
        answer: { type: 'answer', sdp: 'y' },
      });
      if (!ack.ok) await new Promise((r) => setTimeout(r, 20));
    }
    expect(ack).toEqual({ ok: true });
    await accepted;
    const cand = next(a, VIDEO_EVENTS.candidate);
    expect(
      await request(b, VIDEO_EVENTS.candidate, { to: alice.email, candidate: { candidate: '' } }),
    ).toEqual({ ok: true });
    await cand;
    const c = await video(1, carol);
    expect(
      await request(c, VIDEO_EVENTS.initiateCall, {
        toEmail: alice.email,
        offer: { type: 'offer', sdp: 'z' },
      }),
    ).toEqual({
      ok: false,
      reason: CALL_REASONS.busy,
    });
    const ended = next(a, VIDEO_EVENTS.callEnded);
    expect(await request(b, VIDEO_EVENTS.endCall, { to: alice.email })).toEqual({ ok: true });
    await ended;
  });

  it('an ad-hoc mesh room created on node A can be joined on node B', async () => {
    const first = nodes[0] as CohortApp;
    const res = await first.app.inject({ method: 'POST', url: '/api/calls/rooms', headers: alice.auth });
    const { roomId } = res.json() as { roomId: string };
    const m = await openSocket(urls[1] ?? '', MESH_NAMESPACE, carol.token);
    sockets.push(m);
    let ack: CallAck = { ok: false, reason: '' };
    for (let i = 0; i < 50 && !ack.ok; i++) {
      ack = await request<CallAck>(m, MESH_EVENTS.join, { room: roomId });
      if (!ack.ok) await new Promise((r) => setTimeout(r, 20));
    }
    expect(ack).toEqual({ ok: true });
  });
});

describe.skipIf(!redisUrl)('/video across two nodes: ringing everywhere (issue 19)', () => {
  let database: Database;
  let nodes: CohortApp[];
  let urls: string[];
  let alice: TestUser;
  let bob: TestUser;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    database = await openTestDatabase();
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      REDIS_URL: redisUrl ?? '',
      REDIS_STREAM: `cohort-ring-${randomUUID()}`,
    });
    nodes = [];
    for (let i = 0; i < 2; i++) {
      // A short ring, so an unanswered call rings out within the test.
      const node = await buildApp({ config, database, logger: false, realtime: { ringTimeoutMs: 1500 } });
      await node.app.listen({ port: 0, host: '127.0.0.1' });
      nodes.push(node);
    }
    urls = nodes.map((n) => baseUrl(n.app.server));
    const first = nodes[0] as CohortApp;
    [alice, bob] = await Promise.all([
      createUser(first.app, { firstName: 'Alice', lastName: 'A' }),
      createUser(first.app, { firstName: 'Bob', lastName: 'B' }),
    ]);
    await createWorkspace(first as unknown as TestApp, alice, {
      members: [{ email: bob.email, role: 'editor' }],
    });
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    for (const n of nodes ?? []) await n.app.close();
    await database?.close();
  });

  const socketOn = async (node: number, namespace: string, user: TestUser) => {
    const s = await openSocket(urls[node] ?? '', namespace, user.token);
    sockets.push(s);
    return s;
  };
  const offer = { type: 'offer', sdp: 'x' };

  it('rings the callee’s tabs on both nodes; accepting on one stops the other', async () => {
    const a = await socketOn(0, VIDEO_NAMESPACE, alice);
    const onA = await socketOn(0, VIDEO_NAMESPACE, bob);
    const onB = await socketOn(1, VIDEO_NAMESPACE, bob);
    const rings = [onA, onB].map((s) => next<{ from: string; name: string }>(s, VIDEO_EVENTS.incomingCall));
    expect(await request<CallAck>(a, VIDEO_EVENTS.initiateCall, { toEmail: bob.email, offer })).toEqual({
      ok: true,
    });
    for (const ring of await Promise.all(rings))
      expect(ring).toMatchObject({ from: alice.email, name: 'Alice A' });
    const elsewhere = next(onA, VIDEO_EVENTS.answeredElsewhere);
    const accepted = next(a, VIDEO_EVENTS.callAccepted);
    // The legs reach node B through Redis shortly after the acknowledgement.
    let ack: CallAck = { ok: false, reason: '' };
    for (let i = 0; i < 50 && !ack.ok; i++) {
      ack = await request<CallAck>(onB, VIDEO_EVENTS.acceptCall, {
        to: alice.email,
        answer: { type: 'answer', sdp: 'y' },
      });
      if (!ack.ok) await new Promise((r) => setTimeout(r, 20));
    }
    expect(ack).toEqual({ ok: true });
    await accepted;
    expect(await elsewhere).toEqual({ from: alice.email });
    const ended = next(onB, VIDEO_EVENTS.callEnded);
    expect(await request(a, VIDEO_EVENTS.endCall, { to: bob.email })).toEqual({ ok: true });
    await ended;
  });

  it('a call placed on node A that nobody answers on node B rings out into a missed call', async () => {
    const a = await socketOn(0, VIDEO_NAMESPACE, alice);
    const b = await socketOn(1, VIDEO_NAMESPACE, bob);
    const bell = await socketOn(1, NOTIFICATIONS_NAMESPACE, bob);
    const ringing = next(b, VIDEO_EVENTS.incomingCall);
    const missed = next(b, VIDEO_EVENTS.callMissed, () => true, 15_000);
    const noAnswer = next(a, VIDEO_EVENTS.callUnanswered, () => true, 15_000);
    const pushed = next<{ kind: string }>(bell, NOTIFICATION_EVENTS.notification, () => true, 15_000);
    expect(await request<CallAck>(a, VIDEO_EVENTS.initiateCall, { toEmail: bob.email, offer })).toEqual({
      ok: true,
    });
    await ringing;
    expect(await noAnswer).toEqual({ from: bob.email });
    expect(await missed).toEqual({ from: alice.email });
    expect((await pushed).kind).toBe('missed_call');
  });
});
