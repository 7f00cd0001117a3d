import {
  CHAT_MESSAGES,
  type DirectMessage,
  DM_EVENTS,
  DM_NAMESPACE,
  type SendDirectMessageAck,
} from '@cohort/shared/chat';
import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser, uniqueEmail } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { directMessages } from '../../db/schema.ts';
import {
  baseUrl,
  collect,
  eventually,
  newClientId,
  next,
  openSocket,
  request,
} from '../chat/chat.test-helpers.ts';
import { client, createWorkspace, wsUrl } from '../workspaces/test-fixtures.ts';
import { storeDirectMessage } from './direct.service.ts';

let t: TestApp;
let url: string;
let api: ReturnType<typeof client>;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;

const sockets: Socket[] = [];
async function dm(user: TestUser) {
  const socket = await openSocket(url, DM_NAMESPACE, user.token);
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
  [alice, bob, carol] = await Promise.all([createUser(t.app), createUser(t.app), createUser(t.app)]);
  // Alice and Bob share a workspace; Carol shares none with either.
  await createWorkspace(t, alice, { members: [{ email: bob.email }] });
});
afterAll(() => t.close());

const send = (s: Socket, receiverEmail: string, content: string, extra: Record<string, unknown> = {}) =>
  request<SendDirectMessageAck>(s, DM_EVENTS.sendMessage, {
    content,
    receiverEmail,
    clientId: newClientId(),
    messageType: 'text',
    ...extra,
  });
const historyOf = (reader: TestUser, withEmail: string, as: TestUser = reader, query = '') =>
  api.get(
    `/api/messages/${encodeURIComponent(reader.email)}?with=${encodeURIComponent(withEmail)}${query}`,
    as,
  );

describe('/dm', () => {
  it('delivers to every tab of both parties and to nobody else', async () => {
    const [a1, a2, b, c] = await Promise.all([dm(alice), dm(alice), dm(bob), dm(carol)]);
    expect(await request(a1, DM_EVENTS.register, alice.email)).toEqual({ ok: true });
    const carolSaw = collect<DirectMessage>(c, DM_EVENTS.newMessage);
    const toBob = next<DirectMessage>(b, DM_EVENTS.newMessage);
    const otherTab = next<DirectMessage>(a2, DM_EVENTS.newMessage);
    const ack = await send(a1, bob.email.toUpperCase(), ' hi Bob ', { senderEmail: carol.email });
    expect(ack).toEqual({
      ok: true,
      message: {
        _id: expect.any(String),
        seq: expect.any(Number),
        sender: alice.email,
        receiver: bob.email,
        content: 'hi Bob',
        createdAt: expect.stringMatching(/^\d{4}-/),
        messageType: 'text',
        clientId: expect.any(String),
        rev: expect.any(Number),
        editedAt: null,
        deleted: false,
        reactions: [],
        attachments: [],
      },
    });
    if (!ack.ok) return;
    expect(await toBob).toEqual(ack.message);
    expect(await otherTab).toEqual(ack.message);
    // Positive control: Carol's listener gets a message she may read, sent after Alice's was
    // delivered (had Alice's reached her, it would be first).
    const colleague = await createUser(t.app);
    await createWorkspace(t, colleague, { members: [{ email: carol.email }] });
    const fromColleague = next<DirectMessage>(c, DM_EVENTS.newMessage);
    expect((await send(await dm(colleague), carol.email, 'hi Carol')).ok).toBe(true);
    await fromColleague;
    expect(carolSaw.map((m) => m.content)).toEqual(['hi Carol']);
  });

  it('refuses people with no shared workspace and unknown e-mails alike', async () => {
    const c = await dm(carol);
    const refused = { ok: false, message: CHAT_MESSAGES.recipientNotFound };
    expect(await send(c, alice.email, 'hello stranger')).toEqual(refused);
    expect(await send(c, uniqueEmail('nobody'), 'hello?')).toEqual(refused);
    expect(await send(c, carol.email, 'note to self')).toEqual(refused);
    expect((await historyOf(carol, alice.email)).json()).toEqual([]);
  });

  it('stops once the two no longer share a workspace (one left), keeping the history readable', async () => {
    const [dave, erin] = await Promise.all([createUser(t.app), createUser(t.app)]);
    const team = await createWorkspace(t, dave, { members: [{ email: erin.email }] });
    const [d, e] = await Promise.all([dm(dave), dm(erin)]);
    expect((await send(d, erin.email, 'before')).ok).toBe(true);
    expect((await send(e, dave.email, 'hello back')).ok).toBe(true);

    expect((await api.post(wsUrl(team.name, '/leave'), erin, {})).statusCode).toBe(204);
    const refused = { ok: false, message: CHAT_MESSAGES.recipientNotFound };
    expect(await send(e, dave.email, 'still talking?')).toEqual(refused);
    expect(await send(d, erin.email, 'are you there?')).toEqual(refused);
    // What was said stays readable to both.
    const history = (await historyOf(erin, dave.email)).json() as DirectMessage[];
    expect(history.map((m) => m.content)).toEqual(['before', 'hello back']);

    // Sharing a workspace again (invited, and accepted) opens the conversation again.
    await createWorkspace(t, erin, { members: [{ email: dave.email }] });
    expect((await send(d, erin.email, 'welcome back')).ok).toBe(true);
  });

  it('stops for a member removed from the only shared workspace', async () => {
    const [fay, gus] = await Promise.all([createUser(t.app), createUser(t.app)]);
    const team = await createWorkspace(t, fay, { members: [{ email: gus.email }] });
    const g = await dm(gus);
    expect((await send(g, fay.email, 'hi')).ok).toBe(true);
    expect((await api.del(wsUrl(team.name, `/members/${gus.id}`), fay)).statusCode).toBe(204);
    expect(await send(g, fay.email, 'hi again')).toEqual({
      ok: false,
      message: CHAT_MESSAGES.recipientNotFound,
    });
  });

  it('re-checks in its own insert that the two share a workspace (a lookup may be a moment old)', async () => {
    // As if the lookup had passed just before one of them was removed: the store alone decides.
    const party = (u: TestUser) => ({ id: u.id, email: u.email });
    const content = `too late ${newClientId()}`;
    expect(
      await storeDirectMessage(t.ctx, party(alice), party(carol), { clientId: newClientId(), content }),
    ).toBeNull();
    const stored = await t.ctx.db
      .select({ id: directMessages.id })
      .from(directMessages)
      .where(eq(directMessages.content, content));
    expect(stored).toEqual([]);
    // Control: the same call for a pair that shares a workspace stores the message.
    const ok = await storeDirectMessage(t.ctx, party(alice), party(bob), {
      clientId: newClientId(),
      content: 'in time',
    });
    expect(ok?.created).toBe(true);
  });

  it('is not opened by an invitation: only accepting it makes two people colleagues', async () => {
    const [hal, ivy] = await Promise.all([createUser(t.app), createUser(t.app)]);
    await createWorkspace(t, hal, { members: [{ email: ivy.email }], accept: false });
    const i = await dm(ivy);
    expect(await send(i, hal.email, 'hello?')).toEqual({
      ok: false,
      message: CHAT_MESSAGES.recipientNotFound,
    });
  });

  it('is idempotent per clientId, with a gapless seq per pair', async () => {
    const [a, b] = await Promise.all([dm(alice), dm(bob)]);
    const bobSaw = collect<DirectMessage>(b, DM_EVENTS.newMessage);
    const clientId = newClientId();
    const first = await send(a, bob.email, 'exactly once', { clientId });
    const again = await send(a, bob.email, 'exactly once', { clientId });
    expect(again).toEqual(first);
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => send(i % 2 ? a : b, i % 2 ? bob.email : alice.email, `n${i}`)),
    );
    const res = await historyOf(alice, bob.email);
    const all = res.json() as DirectMessage[];
    expect(all.filter((m) => m.clientId === clientId)).toHaveLength(1);
    expect(all.map((m) => m.seq)).toEqual(all.map((_, i) => i + 1));
    // Every send above was acknowledged, and delivery follows the acknowledgement at once: once a
    // last message arrives, a broadcast of the resend would have arrived before it.
    const last = next<DirectMessage>(b, DM_EVENTS.newMessage, (m) => m.content === 'last');
    expect((await send(a, bob.email, 'last')).ok).toBe(true);
    await last;
    expect(bobSaw).toHaveLength(12);
    expect(bobSaw.filter((m) => m.clientId === clientId)).toHaveLength(1);
  });

  it('refuses invalid payloads with a reason', async () => {
    const a = await dm(alice);
    const refuse = async (payload: unknown) => {
      const ack = (await request(a, DM_EVENTS.sendMessage, payload)) as { ok: boolean; message: unknown };
      expect(ack.ok).toBe(false);
      expect(typeof ack.message).toBe('string');
    };
    const valid = { content: 'x', receiverEmail: bob.email, clientId: newClientId(), messageType: 'text' };
    await refuse({ ...valid, content: '  ' });
    await refuse({ ...valid, content: 'x'.repeat(4001) });
    await refuse({ ...valid, receiverEmail: 'not an e-mail' });
    await refuse({ ...valid, clientId: 5 });
    await refuse({ ...valid, messageType: 'image' });
    await refuse(null);
    expect((await send(a, bob.email, 'fine')).ok).toBe(true);
  });
});

describe('GET /api/messages/:email', () => {
  it('answers the caller their conversation, oldest first, limited and pageable by seq', async () => {
    const res = await historyOf(bob, alice.email);
    expect(res.statusCode).toBe(200);
    const all = res.json() as DirectMessage[];
    expect(all.length).toBeGreaterThan(5);
    expect(all[0]).toMatchObject({ seq: 1, sender: alice.email, receiver: bob.email });
    const last = all.at(-1)?.seq ?? 0;
    expect(
      (await historyOf(bob, alice.email, bob, '&limit=2')).json().map((m: DirectMessage) => m.seq),
    ).toEqual([last - 1, last]);
    expect(
      (await historyOf(bob, alice.email, bob, '&after=1&limit=2')).json().map((m: DirectMessage) => m.seq),
    ).toEqual([2, 3]);
    expect(
      (await historyOf(bob, alice.email, bob, '&before=3')).json().map((m: DirectMessage) => m.seq),
    ).toEqual([1, 2]);
    expect((await historyOf(bob, alice.email, bob, '&limit=201')).statusCode).toBe(400);
  });

  it('answers the page around a seq (a search hit opened in context)', async () => {
    const seqs = async (query: string) =>
      ((await historyOf(bob, alice.email, bob, query)).json() as DirectMessage[]).map((m) => m.seq);
    const last = (await seqs('')).at(-1) ?? 0;
    expect(last).toBeGreaterThan(5);
    expect(await seqs('&around=3&limit=4')).toEqual([2, 3, 4, 5]);
    expect(await seqs('&around=1&limit=4')).toEqual([1, 2, 3]);
    expect(await seqs(`&around=${last}&limit=4`)).toEqual([last - 1, last]);
    expect((await historyOf(bob, alice.email, bob, '&around=-1')).statusCode).toBe(400);
    expect((await historyOf(bob, alice.email, bob, '&around=x')).statusCode).toBe(400);
  });

  it("is a 403 for anyone but the named reader, and shows a third person nothing of others' talk", async () => {
    expect((await historyOf(alice, bob.email, carol)).statusCode).toBe(403);
    expect((await historyOf(alice, bob.email, bob)).statusCode).toBe(403);
    expect((await historyOf(carol, alice.email)).json()).toEqual([]);
    expect((await historyOf(carol, bob.email)).json()).toEqual([]);
    expect((await historyOf(alice, 'not-an-email')).statusCode).toBe(400);
    expect((await api.get(`/api/messages/${alice.email}?with=${bob.email}`)).statusCode).toBe(401);
  });
});

describe('editing, deleting and reacting to direct messages', () => {
  const dmUrl = (id: string) => `/api/direct-messages/${id}`;
  const react = (as: TestUser, id: string, emoji: string, on = true) =>
    t.app.inject({
      method: on ? 'PUT' : 'DELETE',
      url: `${dmUrl(id)}/reactions/${encodeURIComponent(emoji)}`,
      headers: as.auth,
    });
  const sendAs = async (from: TestUser, to: TestUser, content: string) => {
    const s = await dm(from);
    const ack = await send(s, to.email, content);
    if (!ack.ok) throw new Error(ack.message);
    return ack.message;
  };

  it('lets the sender edit and delete, live to both parties, and backfills the changes by rev', async () => {
    const m = await sendAs(alice, bob, 'see you at 5');
    const bobTab = await dm(bob);
    const updates = collect<DirectMessage>(bobTab, DM_EVENTS.messageUpdated);
    const edited = await api.patch(dmUrl(m._id), alice, { content: 'see you at 6' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ _id: m._id, content: 'see you at 6', deleted: false });
    expect(edited.json().editedAt).not.toBeNull();
    const reacted = await react(bob, m._id, '👍');
    expect(reacted.json()).toMatchObject({ reactions: [{ emoji: '👍', count: 1 }] });
    await eventually(() => updates.length === 2);
    const changes = (
      await historyOf(bob, alice.email, bob, `&changedAfter=${m.rev}`)
    ).json() as DirectMessage[];
    expect(changes.map((c) => [c._id, c.content])).toEqual([[m._id, 'see you at 6']]);
    expect(changes[0]?.rev).toBe(updates.at(-1)?.rev);

    const deleted = await api.del(dmUrl(m._id), alice);
    expect(deleted.json()).toMatchObject({ content: '', deleted: true, reactions: [] });
    const after = (await historyOf(bob, alice.email)).json() as DirectMessage[];
    expect(after.find((x) => x._id === m._id)).toMatchObject({ content: '', deleted: true, seq: m.seq });
  });

  it('refuses the other party (403), strangers (404) and bad input (400)', async () => {
    const m = await sendAs(alice, bob, 'private words');
    expect((await api.patch(dmUrl(m._id), bob, { content: 'mine now' })).statusCode).toBe(403);
    expect((await api.del(dmUrl(m._id), bob)).statusCode).toBe(403);
    expect((await api.patch(dmUrl(m._id), carol, { content: 'x' })).statusCode).toBe(404);
    expect((await api.del(dmUrl(m._id), carol)).statusCode).toBe(404);
    expect((await react(carol, m._id, '👍')).statusCode).toBe(404);
    expect((await api.patch(dmUrl(m._id), alice, { content: '' })).statusCode).toBe(400);
    expect((await react(bob, m._id, 'no')).statusCode).toBe(400);
    expect((await api.patch(dmUrl('nope'), alice, { content: 'x' })).statusCode).toBe(404);
    expect((await api.patch(dmUrl(m._id), undefined, { content: 'x' })).statusCode).toBe(401);
  });
});
