import { CHANNEL_MESSAGES } from '@cohort/shared/channels';
import { CHAT_EVENTS, CHAT_NAMESPACE, type ChannelMessage } from '@cohort/shared/chat';
import {
  type ChannelPin,
  type ChannelPinsChangedEvent,
  PIN_EVENTS,
  PIN_MESSAGES,
  PINS_PER_CHANNEL_MAX,
} from '@cohort/shared/pins';
import { sql } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { channelPins } from '../../db/schema.ts';
import { client, createChannel, createWorkspace, wsUrl } from '../workspaces/test-fixtures.ts';
import { baseUrl, newClientId, next, openSocket, request } from './chat.test-helpers.ts';

/**
 * Pinned messages (issue 22): who may pin, the cap, idempotency, deleting a pinned message, the Pins
 * list, and what connected readers see live (the marker on the message, the pins event, the
 * announcement) and after a reconnection (the change backfill by rev).
 */

let t: TestApp;
let url: string;
let api: ReturnType<typeof client>;
let admin: TestUser;
let editor: TestUser;
let viewer: TestUser;
let outsider: TestUser;
let ws: { _id: string; name: string };

const sockets: Socket[] = [];
async function chatSocket(user: TestUser) {
  const socket = await openSocket(url, CHAT_NAMESPACE, user.token);
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
  [admin, editor, viewer, outsider] = await Promise.all([
    createUser(t.app, { firstName: 'Ada', lastName: 'Admin' }),
    createUser(t.app, { firstName: 'Eddie', lastName: 'Editor' }),
    createUser(t.app, { firstName: 'Vera', lastName: 'Viewer' }),
    createUser(t.app, { firstName: 'Otto', lastName: 'Outsider' }),
  ]);
  ws = await createWorkspace(t, admin, {
    members: [
      { email: editor.email, role: 'editor' },
      { email: viewer.email, role: 'viewer' },
    ],
  });
});
afterAll(() => t.close());

const chUrl = (channelId: string, rest = '') => wsUrl(ws.name, `/channels/${channelId}${rest}`);
const pinUrl = (channelId: string, messageId: string) => chUrl(channelId, `/messages/${messageId}/pin`);
async function post(channelId: string, as: TestUser, content: string): Promise<ChannelMessage> {
  const res = await api.post(chUrl(channelId, '/messages'), as, { clientId: newClientId(), content });
  expect(res.statusCode).toBe(201);
  return res.json() as ChannelMessage;
}
const pins = async (channelId: string, as: TestUser) =>
  (await api.get(chUrl(channelId, '/pins'), as)).json() as ChannelPin[];

describe('pinning a message', () => {
  it('reaches every reader live: the marker, the pins event and an announcement; the Pins list is newest first', async () => {
    const channel = await createChannel(t, admin, ws.name, {});
    const first = await post(channel._id, viewer, 'first words');
    const second = await post(channel._id, viewer, 'second words');
    const viewerSocket = await chatSocket(viewer);
    await request(viewerSocket, CHAT_EVENTS.joinChannel, { channelId: channel._id, workspaceName: ws.name });

    const updated = next<ChannelMessage>(
      viewerSocket,
      CHAT_EVENTS.messageUpdated,
      (m) => m._id === first._id && !!m.pinned,
    );
    const changed = next<ChannelPinsChangedEvent>(viewerSocket, PIN_EVENTS.channelPinsChanged);
    const announced = next<ChannelMessage>(viewerSocket, CHAT_EVENTS.newMessage, (m) => m.kind === 'system');
    const res = await api.put(pinUrl(channel._id, first._id), editor);
    expect(res.statusCode).toBe(200);
    const pinned = res.json() as ChannelMessage;
    expect(pinned.pinned).toMatchObject({ by: { _id: editor.id, name: 'Eddie Editor' } });
    expect(pinned.rev).toBeGreaterThan(first.rev);
    expect((await updated).pinned?.by.name).toBe('Eddie Editor');
    expect(await changed).toEqual({ workspaceId: ws._id, channelId: channel._id, count: 1 });
    expect(await announced).toMatchObject({
      content: 'Eddie Editor pinned a message',
      sender: { _id: editor.id },
    });

    // Pinning again changes nothing and announces nothing.
    const again = await api.put(pinUrl(channel._id, first._id), editor);
    expect([again.statusCode, (again.json() as ChannelMessage).rev]).toEqual([200, pinned.rev]);

    t.advance(1000);
    expect((await api.put(pinUrl(channel._id, second._id), admin)).statusCode).toBe(200);
    // Every reader sees the list, viewers included; newest pin first.
    const listed = await pins(channel._id, viewer);
    expect(listed.map((p) => [p.message._id, p.pinnedBy.name])).toEqual([
      [second._id, 'Ada Admin'],
      [first._id, 'Eddie Editor'],
    ]);
    // The history shows the markers too.
    const history = (await api.get(chUrl(channel._id, '/messages'), viewer)).json() as ChannelMessage[];
    expect(history.find((m) => m._id === first._id)?.pinned?.by._id).toBe(editor.id);

    // Unpinning: the marker goes, live; the list shrinks.
    const unpinnedLive = next<ChannelMessage>(
      viewerSocket,
      CHAT_EVENTS.messageUpdated,
      (m) => m._id === first._id && !m.pinned,
    );
    const unpinned = await api.del(pinUrl(channel._id, first._id), admin);
    expect([unpinned.statusCode, (unpinned.json() as ChannelMessage).pinned]).toEqual([200, null]);
    await unpinnedLive;
    expect((await pins(channel._id, viewer)).map((p) => p.message._id)).toEqual([second._id]);
    // Unpinning what is not pinned changes nothing.
    expect((await api.del(pinUrl(channel._id, first._id), admin)).statusCode).toBe(200);
  });

  it('a reconnecting client learns of a pin by the change backfill (changedAfter=rev)', async () => {
    const channel = await createChannel(t, admin, ws.name, {});
    const message = await post(channel._id, viewer, 'pin me while I am away');
    const res = await api.put(pinUrl(channel._id, message._id), editor);
    const changes = (
      await api.get(chUrl(channel._id, `/messages?changedAfter=${message.rev}`), viewer)
    ).json() as ChannelMessage[];
    const seen = changes.find((m) => m._id === message._id);
    expect(seen?.pinned?.by._id).toBe(editor.id);
    expect(seen?.rev).toBe((res.json() as ChannelMessage).rev);
  });

  it('is refused to viewers (403), non-readers (404), in archived channels (409) and for announcements (400)', async () => {
    const channel = await createChannel(t, admin, ws.name, {});
    const message = await post(channel._id, viewer, 'hello');
    const viewerTry = await api.put(pinUrl(channel._id, message._id), viewer);
    expect([viewerTry.statusCode, viewerTry.json()]).toEqual([
      403,
      { message: 'You do not have permission to do that' },
    ]);
    expect((await api.del(pinUrl(channel._id, message._id), viewer)).statusCode).toBe(403);
    expect((await api.put(pinUrl(channel._id, message._id), outsider)).statusCode).toBe(404);
    expect((await api.get(chUrl(channel._id, '/pins'), outsider)).statusCode).toBe(404);
    expect((await api.put(pinUrl(channel._id, message._id), undefined)).statusCode).toBe(401);

    // A private channel the editor is not in: 404, as for one that does not exist.
    const secret = await createChannel(t, admin, ws.name, { private: true });
    const hidden = await post(secret._id, admin, 'secret');
    expect((await api.put(pinUrl(secret._id, hidden._id), editor)).statusCode).toBe(404);
    expect((await api.get(chUrl(secret._id, '/pins'), editor)).statusCode).toBe(404);
    // Another channel's message under this channel's path, and a malformed id: 404.
    expect((await api.put(pinUrl(channel._id, hidden._id), admin)).statusCode).toBe(404);
    expect((await api.put(pinUrl(channel._id, 'not-a-uuid'), admin)).statusCode).toBe(404);

    // Announcements cannot be pinned.
    await api.patch(chUrl(channel._id), admin, { topic: 'a topic' });
    // The announcement is stored by the channelChanged listener, after the PATCH has answered.
    const system = await vi.waitFor(async () => {
      const history = (await api.get(chUrl(channel._id, '/messages'), admin)).json() as ChannelMessage[];
      const found = history.find((m) => m.kind === 'system');
      if (!found) throw new Error('the topic is not announced yet');
      return found;
    });
    const sys = await api.put(pinUrl(channel._id, system._id), admin);
    expect([sys.statusCode, sys.json()]).toEqual([400, { message: PIN_MESSAGES.notPinnable }]);

    // Archived: read-only, pins included (the list stays readable).
    expect((await api.put(pinUrl(channel._id, message._id), admin)).statusCode).toBe(200);
    expect((await api.post(chUrl(channel._id, '/archive'), admin, {})).statusCode).toBe(200);
    const archived = await api.del(pinUrl(channel._id, message._id), admin);
    expect([archived.statusCode, archived.json()]).toEqual([409, { message: CHANNEL_MESSAGES.archived }]);
    expect((await pins(channel._id, viewer)).length).toBe(1);
  });

  it(`holds at most ${PINS_PER_CHANNEL_MAX} pins per channel (409 beyond)`, async () => {
    const channel = await createChannel(t, admin, ws.name, {});
    const extra = await post(channel._id, admin, 'one too many');
    // The cap's worth of pins, written directly (posting and pinning a hundred is slow on PGlite).
    const filler = await post(channel._id, admin, 'filler');
    await t.ctx.db.execute(sql`
      with made as (
        insert into channel_messages (channel_id, seq, sender_id, content, client_id)
        select ${channel._id}::uuid, 1000 + g, ${admin.id}::uuid, 'm' || g, gen_random_uuid()
        from generate_series(1, ${PINS_PER_CHANNEL_MAX - 1}) g
        returning id
      )
      insert into ${channelPins} (message_id, channel_id, pinned_by)
      select id, ${channel._id}::uuid, ${admin.id}::uuid from made`);
    expect((await api.put(pinUrl(channel._id, filler._id), admin)).statusCode).toBe(200);
    const refused = await api.put(pinUrl(channel._id, extra._id), editor);
    expect([refused.statusCode, refused.json()]).toEqual([409, { message: PIN_MESSAGES.tooMany }]);
    expect((await api.get(chUrl(channel._id, '/messages?limit=5'), admin)).statusCode).toBe(200);
    // Unpinning one makes room.
    expect((await api.del(pinUrl(channel._id, filler._id), admin)).statusCode).toBe(200);
    expect((await api.put(pinUrl(channel._id, extra._id), editor)).statusCode).toBe(200);
  });

  it('deleting a pinned message removes its pin, live', async () => {
    const channel = await createChannel(t, admin, ws.name, {});
    const message = await post(channel._id, editor, 'soon gone');
    expect((await api.put(pinUrl(channel._id, message._id), editor)).statusCode).toBe(200);
    const viewerSocket = await chatSocket(viewer);
    await request(viewerSocket, CHAT_EVENTS.joinChannel, { channelId: channel._id, workspaceName: ws.name });
    const changed = next<ChannelPinsChangedEvent>(viewerSocket, PIN_EVENTS.channelPinsChanged);
    const deleted = await api.del(chUrl(channel._id, `/messages/${message._id}`), editor);
    expect((deleted.json() as ChannelMessage).pinned).toBeNull();
    expect((await changed).count).toBe(0);
    expect(await pins(channel._id, viewer)).toEqual([]);
    const rows = await t.ctx.db
      .select()
      .from(channelPins)
      .where(sql`${channelPins.messageId} = ${message._id}`);
    expect(rows).toEqual([]);
  });
});
