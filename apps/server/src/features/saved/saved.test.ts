import {
  CHAT_EVENTS,
  CHAT_NAMESPACE,
  type ChannelMessage,
  DM_EVENTS,
  DM_NAMESPACE,
} from '@cohort/shared/chat';
import {
  SAVED_EVENTS,
  SAVED_MESSAGES,
  SAVED_PER_USER_MAX,
  type SavedChangedEvent,
  type SavedIds,
  type SavedItem,
} from '@cohort/shared/saved';
import { sql } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { savedMessages } from '../../db/schema.ts';
import { baseUrl, newClientId, next, openSocket, request } from '../chat/chat.test-helpers.ts';
import { client, createChannel, createWorkspace, wsUrl } from '../workspaces/test-fixtures.ts';

/**
 * Saved messages (issue 22): the caller's own list across workspaces and direct messages, only what
 * they can still read, newest saved first; 404 for a message they cannot read; the cap; live to the
 * saver's own tabs only.
 */

let t: TestApp;
let url: string;
let api: ReturnType<typeof client>;
let ada: TestUser;
let bob: TestUser;
let cid: TestUser;
let acme: { _id: string; name: string };
let beta: { _id: string; name: string };

const sockets: Socket[] = [];
async function socketOf(namespace: string, user: TestUser) {
  const socket = await openSocket(url, namespace, user.token);
  sockets.push(socket);
  return socket;
}
afterEach(() => {
  for (const s of sockets.splice(0)) s.close();
});

beforeAll(async () => {
  t = await createTestApp({ listen: true });
  url = baseUrl(t.app.server);
  api = client(t);
  [ada, bob, cid] = await Promise.all([
    createUser(t.app, { firstName: 'Ada', lastName: 'Lovelace' }),
    createUser(t.app, { firstName: 'Bob', lastName: 'Builder' }),
    createUser(t.app, { firstName: 'Cid', lastName: 'Cipher' }),
  ]);
  // Ada and Bob share two workspaces; Cid shares none with them.
  acme = await createWorkspace(t, ada, { members: [{ email: bob.email, role: 'editor' }] });
  beta = await createWorkspace(t, bob, { members: [{ email: ada.email, role: 'viewer' }] });
});
afterAll(() => t.close());

async function post(workspaceName: string, channelId: string, as: TestUser, content: string) {
  const res = await api.post(wsUrl(workspaceName, `/channels/${channelId}/messages`), as, {
    clientId: newClientId(),
    content,
  });
  expect(res.statusCode).toBe(201);
  return res.json() as ChannelMessage;
}
async function dm(from: TestUser, to: TestUser, content: string) {
  const socket = await socketOf(DM_NAMESPACE, from);
  const ack = await request<{ ok: boolean; message: { _id: string } }>(socket, DM_EVENTS.sendMessage, {
    content,
    receiverEmail: to.email,
    clientId: newClientId(),
    messageType: 'text',
  });
  expect(ack.ok).toBe(true);
  return ack.message;
}
const save = (as: TestUser, kind: string, id: string) => api.put(`/api/saved/${kind}/${id}`, as);
const listOf = async (as: TestUser) => (await api.get('/api/saved', as)).json() as SavedItem[];

describe('saved messages', () => {
  it('lists my saved channel and direct messages across workspaces, newest saved first, with their conversations', async () => {
    const launch = await createChannel(t, ada, acme.name, {});
    const general = await createChannel(t, bob, beta.name, {});
    const inAcme = await post(acme.name, launch._id, bob, 'ship it on Friday');
    const inBeta = await post(beta.name, general._id, bob, 'retro at noon');
    const direct = await dm(bob, ada, 'a word in private');

    const saved = await save(ada, 'channel', inAcme._id);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      kind: 'channel',
      messageId: inAcme._id,
      content: 'ship it on Friday',
      sender: { _id: bob.id, name: 'Bob Builder' },
      conversation: {
        kind: 'channel',
        workspaceName: acme.name,
        channelId: launch._id,
        channelName: launch.name,
      },
    });
    t.advance(1000);
    expect((await save(ada, 'direct', direct._id)).statusCode).toBe(200);
    t.advance(1000);
    expect((await save(ada, 'channel', inBeta._id)).statusCode).toBe(200);
    // Saving twice keeps one.
    expect((await save(ada, 'channel', inAcme._id)).statusCode).toBe(200);

    const list = await listOf(ada);
    expect(list.map((i) => i.messageId)).toEqual([inBeta._id, direct._id, inAcme._id]);
    expect(list[1]).toMatchObject({
      kind: 'direct',
      conversation: { kind: 'direct', email: bob.email, name: 'Bob Builder' },
      content: 'a word in private',
    });
    const ids = (await api.get('/api/saved/ids', ada)).json() as SavedIds;
    expect(ids.channel.sort()).toEqual([inAcme._id, inBeta._id].sort());
    expect(ids.direct).toEqual([direct._id]);
    // Private to the saver.
    expect(await listOf(bob)).toEqual([]);

    // Removing: gone from the list; removing again is harmless.
    expect((await api.del(`/api/saved/channel/${inBeta._id}`, ada)).statusCode).toBe(204);
    expect((await api.del(`/api/saved/channel/${inBeta._id}`, ada)).statusCode).toBe(204);
    expect((await listOf(ada)).map((i) => i.messageId)).toEqual([direct._id, inAcme._id]);
  });

  it('refuses messages the caller cannot read with 404, and bad input with 400', async () => {
    const launch = await createChannel(t, ada, acme.name, {});
    const secret = await createChannel(t, ada, acme.name, { private: true });
    const open = await post(acme.name, launch._id, ada, 'open words');
    const hidden = await post(acme.name, secret._id, ada, 'hidden words');
    const direct = await dm(ada, bob, 'between us');
    for (const [who, kind, id] of [
      [cid, 'channel', open._id],
      [bob, 'channel', hidden._id],
      [cid, 'direct', direct._id],
      [ada, 'direct', open._id],
      [ada, 'channel', direct._id],
      [ada, 'channel', 'not-a-uuid'],
      [ada, 'channel', '00000000-0000-4000-8000-000000000000'],
    ] as const) {
      const res = await save(who, kind, id);
      expect([res.statusCode, res.json()], `${who.email} ${kind} ${id}`).toEqual([
        404,
        { message: SAVED_MESSAGES.messageNotFound },
      ]);
    }
    expect((await save(ada, 'elsewhere', open._id)).statusCode).toBe(400);
    expect((await api.get('/api/saved')).statusCode).toBe(401);
    expect((await api.put(`/api/saved/channel/${open._id}`, undefined)).statusCode).toBe(401);
    // A deleted message cannot be saved, and a saved one leaves the list when deleted.
    expect((await save(bob, 'channel', open._id)).statusCode).toBe(200);
    await api.del(wsUrl(acme.name, `/channels/${launch._id}/messages/${open._id}`), ada);
    expect((await listOf(bob)).map((i) => i.messageId)).not.toContain(open._id);
    expect((await save(bob, 'channel', open._id)).statusCode).toBe(404);
  });

  it('lists only what I can still read: leaving a workspace, or a private channel, hides its messages', async () => {
    const shared = await createWorkspace(t, ada, { members: [{ email: bob.email, role: 'viewer' }] });
    const open = await createChannel(t, ada, shared.name, {});
    const secret = await createChannel(t, ada, shared.name, { private: true, members: [bob.id] });
    const a = await post(shared.name, open._id, ada, 'in the open');
    const b = await post(shared.name, secret._id, ada, 'in private');
    expect((await save(bob, 'channel', a._id)).statusCode).toBe(200);
    expect((await save(bob, 'channel', b._id)).statusCode).toBe(200);
    expect((await listOf(bob)).map((i) => i.messageId)).toEqual(expect.arrayContaining([a._id, b._id]));

    // Removed from the private channel: its message disappears from Bob's list.
    expect(
      (await api.del(wsUrl(shared.name, `/channels/${secret._id}/members/${bob.id}`), ada)).statusCode,
    ).toBe(204);
    let ids = (await listOf(bob)).map((i) => i.messageId);
    expect(ids).toContain(a._id);
    expect(ids).not.toContain(b._id);
    // Leaving the workspace hides the rest.
    expect((await api.post(wsUrl(shared.name, '/leave'), bob, {})).statusCode).toBe(204);
    ids = (await listOf(bob)).map((i) => i.messageId);
    expect(ids).not.toContain(a._id);
    expect(((await api.get('/api/saved/ids', bob)).json() as SavedIds).channel).not.toContain(a._id);
  });

  it('reaches only my own tabs live, on /chat and /dm', async () => {
    const launch = await createChannel(t, ada, acme.name, {});
    const message = await post(acme.name, launch._id, bob, 'save me');
    const [adaChat, adaDm, bobChat] = [
      await socketOf(CHAT_NAMESPACE, ada),
      await socketOf(DM_NAMESPACE, ada),
      await socketOf(CHAT_NAMESPACE, bob),
    ];
    await request(bobChat, CHAT_EVENTS.joinChannel, { channelId: launch._id, workspaceName: acme.name });
    const bobSaw: unknown[] = [];
    bobChat.on(SAVED_EVENTS.savedChanged, (e: unknown) => bobSaw.push(e));
    const onChat = next<SavedChangedEvent>(adaChat, SAVED_EVENTS.savedChanged);
    const onDm = next<SavedChangedEvent>(adaDm, SAVED_EVENTS.savedChanged);
    await save(ada, 'channel', message._id);
    const expected = { kind: 'channel', messageId: message._id, saved: true };
    expect(await onChat).toEqual(expected);
    expect(await onDm).toEqual(expected);
    const removed = next<SavedChangedEvent>(adaChat, SAVED_EVENTS.savedChanged);
    await api.del(`/api/saved/channel/${message._id}`, ada);
    expect(await removed).toEqual({ ...expected, saved: false });
    expect(bobSaw).toEqual([]);
  });

  it(`holds at most ${SAVED_PER_USER_MAX} saved messages per user (409 beyond)`, async () => {
    const saver = await createUser(t.app);
    const ws = await createWorkspace(t, saver, {});
    const channel = await createChannel(t, saver, ws.name, {});
    const last = await post(ws.name, channel._id, saver, 'one too many');
    await t.ctx.db.execute(sql`
      with made as (
        insert into channel_messages (channel_id, seq, sender_id, content, client_id)
        select ${channel._id}::uuid, 1000 + g, ${saver.id}::uuid, 'm' || g, gen_random_uuid()
        from generate_series(1, ${SAVED_PER_USER_MAX}) g
        returning id
      )
      insert into ${savedMessages} (user_id, channel_message_id)
      select ${saver.id}::uuid, id from made`);
    const refused = await save(saver, 'channel', last._id);
    expect([refused.statusCode, refused.json()]).toEqual([409, { message: SAVED_MESSAGES.tooMany }]);
    expect((await listOf(saver)).length).toBe(SAVED_PER_USER_MAX);
  });
});
