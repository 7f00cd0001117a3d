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

/**
 * Mesh rooms re-check channel access at once when access is taken away on this node (the periodic
 * check, every 10 s, is set to a minute here so that only the immediate path can pass).
 */
describe('/mesh channel access re-check', () => {
  let database: Database;
  let node: CohortApp;
  let ada: TestUser;
  let ben: TestUser;
  let cy: TestUser;
  let ws: { name: string };
  let room: { _id: string };
  const sockets: Socket[] = [];

  beforeAll(async () => {
    database = await openTestDatabase();
    node = await buildApp({
      config: loadConfig({ LOG_LEVEL: 'silent' }),
      database,
      logger: false,
      realtime: { roomCheckMs: 60_000 },
    });
    await node.app.listen({ port: 0, host: '127.0.0.1' });
    [ada, ben, cy] = await Promise.all([createUser(node.app), createUser(node.app), createUser(node.app)]);
    const t = node as unknown as TestApp;
    ws = await createWorkspace(t, ada, {
      members: [
        { email: ben.email, role: 'editor' },
        { email: cy.email, role: 'editor' },
      ],
    });
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

  it('someone taken off a private channel is taken out of its meeting at once', async () => {
    const t = node as unknown as TestApp;
    const secret = await createChannel(t, ada, ws.name, { private: true, members: [cy.id] });
    const url = baseUrl(node.app.server);
    const [a, b] = await Promise.all([
      openSocket(url, MESH_NAMESPACE, ada.token),
      openSocket(url, MESH_NAMESPACE, cy.token),
    ]);
    sockets.push(a, b);
    expect(await request<CallAck>(a, MESH_EVENTS.join, { room: secret._id })).toEqual({ ok: true });
    expect(await request<CallAck>(b, MESH_EVENTS.join, { room: secret._id })).toEqual({ ok: true });
    const closed = next(b, MESH_EVENTS.roomClosed);
    const res = await client(t).call(
      'DELETE',
      wsUrl(ws.name, `/channels/${secret._id}/members/${cy.id}`),
      ada,
    );
    expect(res.statusCode).toBe(204);
    expect(await closed).toEqual({ room: secret._id, reason: CALL_REASONS.forbidden });
  });
});
