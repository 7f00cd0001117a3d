import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { CALL_REASONS } from '@cohort/shared/calls';
import { CHAT_MESSAGES } from '@cohort/shared/chat';
import fc from 'fast-check';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureReason } from '../../src/realtime/acks.ts';
import { SOCKET_FRAME_MAX_BYTES } from '../../src/realtime/socket-server.ts';
import { createUser, type TestUser } from '../factories.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { deeplyNested, FUZZ_RUNS, FUZZ_SEED, junkObject, junkValue, rowCounts } from './fuzz-kit.ts';

/**
 * Fuzzing of every event every Socket.IO namespace handles. Namespaces and their events are read
 * from the running server (the listeners a connected socket has), so new ones are covered as they
 * land. Junk must never crash the server, log a handler failure or get a "server error" answer.
 */

let t: TestApp;
let url: string;
let admin: TestUser;
let real: Record<string, string>;
const handlerErrors: unknown[] = [];

beforeAll(async () => {
  t = await createTestApp({ listen: true });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  // Handlers log what they could not handle (realtime/acks.ts failureReason); junk must never get there.
  const error = t.ctx.log.error.bind(t.ctx.log);
  t.ctx.log.error = ((...args: Parameters<typeof error>) => {
    handlerErrors.push(args[0]);
    return error(...args);
  }) as typeof error;
  admin = await createUser(t.app);
  const post = async (path: string, payload: object) =>
    (await t.app.inject({ method: 'POST', url: path, headers: admin.auth, payload })).json();
  const ws = await post('/api/workspaces', {
    name: `sk-${randomUUID().slice(0, 8)}`,
    description: 'x',
    members: [],
  });
  const channel = await post(`/api/workspaces/${ws.name}/channels`, { name: 'fuzz', description: 'x' });
  real = { workspaceName: ws.name, channelId: channel._id, email: admin.email, room: channel._id };
});
afterAll(() => t.close());

const RESERVED = new Set(['disconnect', 'disconnecting', 'error', 'newListener', 'removeListener']);

function open(namespace: string, token = admin.token): Promise<Socket> {
  const socket = connect(`${url}${namespace}`, {
    transports: ['websocket'],
    reconnection: false,
    auth: { token },
  });
  return new Promise((resolve, reject) => {
    socket.on('connect', () => resolve(socket));
    socket.on('connect_error', (err) => reject(err));
  });
}

/** The namespaces the server registered, and the events a connected socket listens to in each. */
async function handledEvents(): Promise<Map<string, string[]>> {
  const names = [...t.io._nsps.keys()].filter((n) => n !== '/');
  const result = new Map<string, string[]>();
  for (const name of names) {
    const client = await open(name);
    // Connection handlers may register listeners after an await: give them a moment.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const server = t.io.of(name).sockets.get(client.id ?? '');
    result.set(
      name,
      (server?.eventNames() ?? []).map(String).filter((e) => !RESERVED.has(e)),
    );
    client.close();
  }
  return result;
}

/** Payloads shaped like the real ones (known field names with real or junk values) or plain junk. */
const payload = fc.oneof(
  junkValue,
  junkObject([
    'workspaceName',
    'channelId',
    'content',
    'clientId',
    'email',
    'to',
    'room',
    'roomId',
    'parentId',
  ]),
  fc.record({
    workspaceName: fc.constantFrom('', 'nope', '__proto__'),
    channelId: fc.oneof(fc.uuid(), fc.constant('x')),
    content: junkValue,
    clientId: fc.oneof(fc.uuid(), junkValue),
  }),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
);

const serverErrorReasons = new Set([CHAT_MESSAGES.serverError, CALL_REASONS.serverError]);

async function emit(socket: Socket, event: string, args: unknown[], withAck: boolean) {
  if (!withAck) {
    socket.emit(event, ...args);
    return undefined;
  }
  try {
    return await socket.timeout(250).emitWithAck(event, ...args);
  } catch {
    return undefined; // Events without an acknowledgement (typing) or a dropped frame.
  }
}

function expectNoServerError(answer: unknown, label: string) {
  const text = JSON.stringify(answer ?? null);
  for (const reason of serverErrorReasons) expect(text, label).not.toContain(reason);
  expect(handlerErrors, label).toEqual([]);
}

describe('Socket.IO fuzzing (fast-check) of every namespace and event', () => {
  it('finds the namespaces and their events', async () => {
    const events = await handledEvents();
    for (const name of ['/chat', '/dm', '/tasks', '/video', '/mesh'])
      expect([...events.keys()]).toContain(name);
    expect(events.get('/chat')).toContain('sendMessage');
    console.info(Object.fromEntries(events));
  });

  it('survives junk, binary, deeply nested and oversized payloads on every event', async () => {
    const events = await handledEvents();
    for (const [namespace, names] of events) {
      let socket = await open(namespace);
      for (const event of names) {
        const label = `${namespace} ${event}`;
        await fc.assert(
          fc.asyncProperty(payload, fc.boolean(), fc.boolean(), async (body, withAck, realIds) => {
            if (socket.disconnected) socket = await open(namespace);
            const value = realIds && body && typeof body === 'object' ? { ...real, ...body } : body;
            const answer = await emit(socket, event, [value], withAck);
            expectNoServerError(answer, `${label} ${JSON.stringify(value)?.slice(0, 200)}`);
          }),
          { numRuns: FUZZ_RUNS, seed: FUZZ_SEED, endOnFailure: true },
        );
        for (const raw of deeplyNested(2_000)) {
          if (socket.disconnected) socket = await open(namespace);
          expectNoServerError(await emit(socket, event, [JSON.parse(raw)], true), `${label} nested`);
        }
        // Many arguments, no arguments, and a function-like trailing value.
        expectNoServerError(await emit(socket, event, [1, 2, 3, 4, 5], true), `${label} extra args`);
        expectNoServerError(await emit(socket, event, [], true), `${label} no args`);

        // Over the largest payload any event accepts (64 KiB): refused, and nothing stored.
        if (socket.disconnected) socket = await open(namespace);
        const before = await rowCounts(t);
        const big = { ...real, content: 'x'.repeat(70 * 1024), sdp: 'x'.repeat(70 * 1024) };
        const answer = await emit(socket, event, [big], true);
        expectNoServerError(answer, `${label} 70 KiB`);
        expect((answer as { ok?: boolean } | undefined)?.ok, `${label} 70 KiB`).not.toBe(true);
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(await rowCounts(t), `${label} 70 KiB changed rows`).toEqual(before);

        // A frame over the transport limit closes the connection instead of being buffered.
        if (socket.disconnected) socket = await open(namespace);
        const closed = new Promise((resolve) => socket.once('disconnect', resolve));
        socket.emit(event, 'x'.repeat(SOCKET_FRAME_MAX_BYTES + 1));
        expect(await closed).toBe('transport close');
      }
      if (socket.connected) socket.close();

      // The server still serves HTTP and new connections on this namespace.
      expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
      (await open(namespace)).close();
    }
    // And a normal operation still works end to end.
    const chat = await open('/chat');
    expect(await chat.timeout(2000).emitWithAck('joinChannel', { ...real })).toEqual({ ok: true });
    chat.close();
    expect(handlerErrors).toEqual([]);
    // Positive control for the check above: a failure a handler reports does land in handlerErrors.
    expect(failureReason(t.ctx, new Error('control'), 'not found')).toBe(CHAT_MESSAGES.serverError);
    expect(handlerErrors).toHaveLength(1);
    handlerErrors.length = 0;
  }, 240_000);
});
