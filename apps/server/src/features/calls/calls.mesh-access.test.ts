import { CALL_REASONS, type CallAck, MESH_EVENTS, MESH_NAMESPACE } from '@cohort/shared/calls';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { openTestDatabase, type TestApp } from '../../../test/test-app.ts';
import { buildApp, type CohortApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { baseUrl, next, openSocket, request } from '../chat/chat.test-helpers.ts';
import { client, createChannel, createWorkspace, wsUrl } from '../workspaces/test-fixtures.ts';

/** Mesh rooms re-check channel access (here every 100 ms instead of 10 s). */
describe('/mesh channel access re-check', () => {
  let database: Database;
  let node: CohortApp;
  let ada: TestUser;
  let ben: TestUser;
  let ws: { name: string };
  let room: { _id: string };
  const sockets: Socket[] = [];

  beforeAll(async () => {
    database = await openTestDatabase();
    node = await buildApp({
      config: loadConfig({ LOG_LEVEL: 'silent' }),
      database,
      logger: false,
      realtime: { roomCheckMs: 100 },
    });
    await node.app.listen({ port: 0, host: '127.0.0.1' });
    [ada, ben] = await Promise.all([createUser(node.app), createUser(node.app)]);
    const t = node as unknown as TestApp;
    ws = await createWorkspace(t, ada, { members: [{ email: ben.email, role: 'editor' }] });
    room = await createChannel(t, ada, ws.name, {});
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await node?.app.close();
    await database?.close();
  });

  it('someone removed from the workspace is taken out of the meeting', async () => {
    const url = baseUrl(node.app.server);
    const [a, b] = await Promise.all([
      openSocket(url, MESH_NAMESPACE, ada.token),
      openSocket(url, MESH_NAMESPACE, ben.token),
    ]);
    sockets.push(a, b);
    expect(await request<CallAck>(a, MESH_EVENTS.join, { room: room._id })).toEqual({ ok: true });
    expect(await request<CallAck>(b, MESH_EVENTS.join, { room: room._id })).toEqual({ ok: true });
    const closed = next(b, MESH_EVENTS.roomClosed);
    const left = next<{ id: string }>(a, MESH_EVENTS.userLeft);
    const res = await client(node as unknown as TestApp).call(
      'DELETE',
      wsUrl(ws.name, `/members/${ben.id}`),
      ada,
    );
    expect(res.statusCode).toBeLessThan(300);
    expect(await closed).toEqual({ room: room._id, reason: CALL_REASONS.forbidden });
    expect(await left).toEqual({ id: b.id });
    expect(await request(b, MESH_EVENTS.offer, { to: a.id, offer: { type: 'offer', sdp: 'x' } })).toEqual({
      ok: false,
      reason: CALL_REASONS.forbidden,
    });
  });
});
