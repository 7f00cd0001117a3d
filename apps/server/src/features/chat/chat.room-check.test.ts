import { CHAT_NAMESPACE } from '@cohort/shared/chat';
import { and, eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { openTestDatabase, type TestApp } from '../../../test/test-app.ts';
import { buildApp, type CohortApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { channelMembers, workspaceMembers } from '../../db/schema.ts';
import { createChannel, createWorkspace } from '../workspaces/test-fixtures.ts';
import { baseUrl, eventually, openSocket, request } from './chat.test-helpers.ts';

/**
 * The backstop for access changes whose event never ran (another node died after its commit): every
 * `roomCheckMs` (here 100 ms instead of 10 s) a node's sockets leave the channel rooms their user may
 * no longer read, and only those. The changes below go straight to the database, so no event fires.
 */
describe('/chat periodic room check', () => {
  let database: Database;
  let node: CohortApp;
  let ada: TestUser;
  let ben: TestUser;
  let cleo: TestUser;
  let ws: { name: string; _id: string };
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
    [ada, ben, cleo] = await Promise.all([createUser(node.app), createUser(node.app), createUser(node.app)]);
    ws = await createWorkspace(node as unknown as TestApp, ada, {
      members: [
        { email: ben.email, role: 'editor' },
        { email: cleo.email, role: 'viewer' },
      ],
    });
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await node?.app.close();
    await database?.close();
  });

  const socketOf = async (user: TestUser) => {
    const s = await openSocket(baseUrl(node.app.server), CHAT_NAMESPACE, user.token);
    sockets.push(s);
    return s;
  };
  const joined = (socket: Socket, channelId: string) =>
    node.io
      .of(CHAT_NAMESPACE)
      .sockets.get(socket.id ?? '')
      ?.rooms.has(`channel:${channelId}`) === true;

  it('takes out of a private channel whoever was unlisted, and out of every channel whoever left the workspace', async () => {
    const t = node as unknown as TestApp;
    const open = await createChannel(t, ada, ws.name, {});
    const secret = await createChannel(t, ada, ws.name, { private: true, members: [ben.id, cleo.id] });
    const [a, b, c] = await Promise.all([socketOf(ada), socketOf(ben), socketOf(cleo)]);
    for (const s of [a, b, c]) {
      for (const ch of [open, secret]) {
        expect(await request(s, 'joinChannel', { channelId: ch._id, workspaceName: ws.name })).toEqual({
          ok: true,
        });
      }
    }

    await database.db
      .delete(channelMembers)
      .where(and(eq(channelMembers.channelId, secret._id), eq(channelMembers.userId, ben.id)));
    await database.db
      .delete(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, ws._id), eq(workspaceMembers.userId, cleo.id)));

    await eventually(() => !joined(b, secret._id) && !joined(c, secret._id) && !joined(c, open._id), 3000);
    // Everyone else stays where they were.
    expect(joined(b, open._id)).toBe(true);
    expect(joined(a, open._id)).toBe(true);
    expect(joined(a, secret._id)).toBe(true);
  });
});
