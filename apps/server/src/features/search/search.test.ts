import { DM_EVENTS, DM_NAMESPACE, type SendDirectMessageAck } from '@cohort/shared/chat';
import type { SearchResults } from '@cohort/shared/search';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { baseUrl, newClientId, openSocket, request } from '../chat/chat.test-helpers.ts';
import { client, createChannel, createWorkspace, wsUrl } from '../workspaces/test-fixtures.ts';
import { FEW_MATCHES } from './search.service.ts';

let t: TestApp;
let api: ReturnType<typeof client>;
let ada: TestUser;
let bob: TestUser;
let carl: TestUser;
let dana: TestUser;
let ws: { _id: string; name: string };
let general: { _id: string; name: string };
let secret: { _id: string; name: string };
let otherWs: { _id: string; name: string };
const DAY = 86_400_000;
const ids: Record<string, string> = {};

const post = async (
  as: TestUser,
  workspace: string,
  channelId: string,
  content: string,
  parentId?: string,
) => {
  const res = await api.post(wsUrl(workspace, `/channels/${channelId}/messages`), as, {
    clientId: newClientId(),
    content,
    ...(parentId ? { parentId } : {}),
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json() as { _id: string; seq: number; timestamp: string };
};

async function sendDm(from: TestUser, to: TestUser, content: string) {
  const socket = await openSocket(baseUrl(t.app.server), DM_NAMESPACE, from.token);
  try {
    const ack = await request<SendDirectMessageAck>(socket, DM_EVENTS.sendMessage, {
      content,
      receiverEmail: to.email,
      clientId: newClientId(),
      messageType: 'text',
    });
    if (!ack.ok) throw new Error(ack.message);
    return ack.message;
  } finally {
    socket.close();
  }
}

async function relogin(user: TestUser) {
  const res = await api.post('/api/login', undefined, { email: user.email, password: user.password });
  user.token = res.json().token;
  user.auth = { authorization: `Bearer ${user.token}` };
}

const search = async (q: string, as: TestUser = ada, extra = '') => {
  const res = await api.get(`/api/search?q=${encodeURIComponent(q)}${extra}`, as);
  return { status: res.statusCode, body: res.json() as SearchResults };
};
const found = async (q: string, as: TestUser = ada) => {
  const { status, body } = await search(q, as);
  expect(status).toBe(200);
  return body.messages.map((m) => m._id);
};
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
let firstDay: string;

beforeAll(async () => {
  t = await createTestApp({ listen: true });
  api = client(t);
  ada = await createUser(t.app, { firstName: 'Ada', lastName: 'Lovelace' });
  bob = await createUser(t.app, { firstName: 'Bob', lastName: 'Builder' });
  carl = await createUser(t.app, { firstName: 'Carl', lastName: 'Outsider' });
  dana = await createUser(t.app, { firstName: 'Dana', lastName: 'Scully' });
  // Ada (admin), Bob and Dana share a workspace; Carl has his own. #secret lists Ada and Bob only.
  ws = await createWorkspace(t, ada, { members: [{ email: bob.email }, { email: dana.email }] });
  general = await createChannel(t, ada, ws.name, {
    name: 'general',
    description: 'Everything about rockets',
  });
  secret = await createChannel(t, ada, ws.name, { name: 'secret', private: true, members: [bob.id] });
  otherWs = await createWorkspace(t, carl);
  const carlChannel = await createChannel(t, carl, otherWs.name, { name: 'carls' });

  firstDay = day(t.ctx.now().getTime());
  ids.old = (await post(ada, ws.name, general._id, 'The quarterly zeppelin budget is approved'))._id;
  t.advance(3 * DAY);
  // Browser sessions end after a day idle: sign in again after the jump.
  for (const u of [ada, bob, carl, dana]) await relogin(u);
  ids.deploy = (await post(bob, ws.name, general._id, 'Deploying the zeppelin pipeline tonight'))._id;
  ids.reply = (await post(ada, ws.name, general._id, 'zeppelin thread reply here', ids.deploy))._id;
  ids.secret = (await post(ada, ws.name, secret._id, 'secret zeppelin launch codes'))._id;
  ids.deleted = (await post(bob, ws.name, general._id, 'vanishing zeppelin words'))._id;
  await api.del(wsUrl(ws.name, `/channels/${general._id}/messages/${ids.deleted}`), bob);
  ids.carl = (await post(carl, otherWs.name, carlChannel._id, 'carl zeppelin in another workspace'))._id;
  ids.dm = (await sendDm(ada, bob, 'a private zeppelin note for bob'))._id;
  ids.danaDm = (await sendDm(bob, dana, 'zeppelin gossip between bob and dana'))._id;
  ids.html = (await post(bob, ws.name, general._id, 'x < y & <b>zeppelin</b> "quoted"'))._id;

  const list = await api.post('/api/tasklists', ada, { title: 'Launch' });
  const task = await api.post('/api/tasks', ada, {
    title: 'Inflate the zeppelin',
    taskListId: list.json()._id,
  });
  ids.task = task.json()._id;
  const bobList = await api.post('/api/tasklists', bob, { title: 'Mine' });
  ids.bobTask = (
    await api.post('/api/tasks', bob, { title: 'Paint zeppelin', taskListId: bobList.json()._id })
  ).json()._id;
});
afterAll(() => t.close());

describe('GET /api/search', () => {
  it('finds messages of readable channels and own DMs by word, newest first', async () => {
    const { status, body } = await search('zeppelin');
    expect(status).toBe(200);
    expect(body.messages.map((m) => m._id)).toEqual([
      ids.html,
      ids.dm,
      ids.secret,
      ids.reply,
      ids.deploy,
      ids.old,
    ]);
    const dm = body.messages.find((m) => m._id === ids.dm);
    expect(dm).toMatchObject({
      kind: 'direct',
      with: { _id: bob.id, email: bob.email, name: 'Bob Builder' },
    });
    const deploy = body.messages.find((m) => m._id === ids.deploy);
    expect(deploy).toMatchObject({
      kind: 'channel',
      seq: expect.any(Number),
      sender: { _id: bob.id, name: 'Bob Builder' },
      channel: { _id: general._id, name: 'general', private: false },
      workspace: { _id: ws._id, name: ws.name },
      parentId: null,
    });
  });

  it('matches the last word as a prefix, and every word', async () => {
    expect(await found('zepp')).toContain(ids.deploy);
    expect(await found('deploy')).toEqual([ids.deploy]);
    expect(await found('zeppelin pipeline')).toEqual([ids.deploy]);
    expect(await found('pipeline budget')).toEqual([]);
    expect(await found('ZEPPELIN Quarterly')).toEqual([ids.old]);
  });

  it('highlights the matches as plain segments, never HTML', async () => {
    const { body } = await search('deploy');
    expect(body.messages[0]?.snippet).toEqual([
      { text: 'Deploying', match: true },
      { text: ' the zeppelin pipeline tonight', match: false },
    ]);
    const html = (await search('quoted')).body.messages[0];
    expect(html?._id).toBe(ids.html);
    expect(html?.snippet.map((s) => s.text).join('')).toBe('x < y & <b>zeppelin</b> "quoted"');
    expect(html?.snippet.filter((s) => s.match).map((s) => s.text)).toEqual(['quoted']);
  });

  it('finds thread replies, and names their parent', async () => {
    const { body } = await search('thread reply');
    expect(body.messages).toHaveLength(1);
    expect(body.messages[0]).toMatchObject({ _id: ids.reply, parentId: ids.deploy });
  });

  it('filters by channel, sender and dates', async () => {
    expect(await found('zeppelin in:#secret')).toEqual([ids.secret]);
    expect(await found('zeppelin in:general')).toEqual([ids.html, ids.reply, ids.deploy, ids.old]);
    expect(await found('in:nowhere zeppelin')).toEqual([]);
    expect(await found('zeppelin from:me')).toEqual([ids.dm, ids.secret, ids.reply, ids.old]);
    expect(await found(`zeppelin from:${bob.email}`)).toEqual([ids.html, ids.deploy]);
    expect(await found('zeppelin from:bob')).toEqual([ids.html, ids.deploy]);
    const later = day(t.ctx.now().getTime());
    expect(await found(`zeppelin during:${firstDay}`)).toEqual([ids.old]);
    expect(await found(`zeppelin before:${later}`)).toEqual([ids.old]);
    expect(await found(`zeppelin after:${firstDay}`)).not.toContain(ids.old);
    expect(await found(`zeppelin after:${firstDay}`)).toContain(ids.deploy);
    // Filters alone list what they select.
    expect(await found(`in:secret`)).toEqual([ids.secret]);
    const { body } = await search('from:bob in:general');
    expect(body.messages.map((m) => m._id)).toEqual([ids.html, ids.deploy]);
    expect(body.messages[1]?.snippet).toEqual([
      { text: 'Deploying the zeppelin pipeline tonight', match: false },
    ]);
    expect(body.query).toEqual({ words: [], from: 'bob', in: 'general' });
  });

  it('pages with a cursor without repeating or skipping', async () => {
    const all = await found('zeppelin');
    const seen: string[] = [];
    let cursor = '';
    for (let i = 0; i < 10; i++) {
      const { status, body } = await search('zeppelin', ada, `&limit=2${cursor}`);
      expect(status).toBe(200);
      seen.push(...body.messages.map((m) => m._id));
      if (i > 0) expect(body.channels).toEqual([]);
      if (!body.nextCursor) break;
      cursor = `&cursor=${encodeURIComponent(body.nextCursor)}`;
    }
    expect(seen).toEqual(all);
  });

  it('finds channels, tasks and people the caller may see', async () => {
    const { body } = await search('rocket');
    expect(body.channels).toEqual([
      {
        _id: general._id,
        name: [{ text: 'general', match: false }],
        description: [
          { text: 'Everything about ', match: false },
          { text: 'rocket', match: true },
          { text: 's', match: false },
        ],
        private: false,
        workspace: { _id: ws._id, name: ws.name },
      },
    ]);
    expect((await search('secr')).body.channels.map((c) => c._id)).toEqual([secret._id]);
    expect((await search('secr', dana)).body.channels).toEqual([]);
    expect((await search('carls')).body.channels).toEqual([]);

    expect((await search('inflate')).body.tasks).toEqual([
      {
        _id: ids.task,
        title: [
          { text: 'Inflate', match: true },
          { text: ' the zeppelin', match: false },
        ],
        listTitle: 'Launch',
        archived: false,
      },
    ]);
    expect((await search('zeppelin')).body.tasks.map((x) => x._id)).toEqual([ids.task]);
    // Assigned to Bob's task: Ada sees it then.
    await t.app.inject({
      method: 'PUT',
      url: `/api/tasks/${ids.bobTask}/assignees`,
      headers: bob.auth,
      payload: { userIds: [ada.id] },
    });
    expect((await search('paint')).body.tasks.map((x) => x._id)).toEqual([ids.bobTask]);
    // docs/permissions.md: an assignee never sees the name of the owner's list.
    expect((await search('paint')).body.tasks[0]?.listTitle).toBeNull();
    expect((await search('paint', bob)).body.tasks[0]?.listTitle).toEqual(expect.any(String));
    expect((await search('inflate', bob)).body.tasks).toEqual([]);

    expect((await search('scully')).body.people.map((p) => p._id)).toEqual([dana.id]);
    expect((await search('scully')).body.people[0]?.name).toEqual([
      { text: 'Dana ', match: false },
      { text: 'Scully', match: true },
    ]);
    expect((await search('outsider')).body.people).toEqual([]);
  });
});

describe('privacy', () => {
  it('never shows another workspace to a non-member', async () => {
    expect(await found('zeppelin', carl)).toEqual([ids.carl]);
    expect(await found('quarterly', carl)).toEqual([]);
    expect(await found('in:general', carl)).toEqual([]);
    expect(await found('carl')).toEqual([]);
  });

  it('never shows a private channel to a workspace member not listed in it', async () => {
    const danaSees = await found('zeppelin', dana);
    expect(danaSees).not.toContain(ids.secret);
    expect(await found('launch codes', dana)).toEqual([]);
    expect(await found('in:secret', dana)).toEqual([]);
    expect(await found('launch codes', bob)).toEqual([ids.secret]);
  });

  it("never shows other people's direct messages", async () => {
    expect(await found('zeppelin', dana)).toEqual([ids.html, ids.danaDm, ids.reply, ids.deploy, ids.old]);
    expect(await found('gossip')).toEqual([]);
    expect(await found('note for bob', dana)).toEqual([]);
    expect(await found('note for bob', bob)).toEqual([ids.dm]);
  });

  it('never finds deleted messages', async () => {
    expect(await found('vanishing')).toEqual([]);
    expect(await found('vanishing', bob)).toEqual([]);
  });
});

describe('bad input', () => {
  it('answers 401 without a session, before validating', async () => {
    const res = await api.get('/api/search?q=zeppelin');
    expect(res.statusCode).toBe(401);
    expect((await api.get('/api/search')).statusCode).toBe(401);
  });

  it('answers clear 400s', async () => {
    const cases: Array<[string, string]> = [
      ['', 'Type something to search for'],
      ['?q=', 'Type something to search for'],
      ['?q=%20%20', 'Type something to search for'],
      [`?q=${'a'.repeat(201)}`, 'Search is too long (200 characters at most)'],
      ['?q=after:yesterday', 'Dates in after:, before: and during: are written YYYY-MM-DD'],
      ['?q=during:2024-02-30', 'Dates in after:, before: and during: are written YYYY-MM-DD'],
      // Beyond what PostgreSQL stores (no year 0; five-digit years): a clear 400, not a 500.
      ['?q=x%20before:0000-01-01', 'Dates in after:, before: and during: are written YYYY-MM-DD'],
      ['?q=x%20after:99999-01-01', 'Dates in after:, before: and during: are written YYYY-MM-DD'],
      ['?q=x%20during:294277', 'Dates in after:, before: and during: are written YYYY-MM-DD'],
      ['?q=from:', 'A filter needs a value, like in:general or from:ada@example.com'],
      ['?q=x&cursor=nonsense', 'Invalid cursor'],
    ];
    for (const [query, message] of cases) {
      const res = await api.get(`/api/search${query}`, ada);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message, query).toBe(message);
    }
    expect((await api.get('/api/search?q=x&limit=0', ada)).statusCode).toBe(400);
    expect((await api.get('/api/search?q=x&limit=51', ada)).statusCode).toBe(400);
  });

  it('treats tsquery syntax as text (no 5xx)', async () => {
    for (const q of [
      ":*&|!()'\\",
      "zeppelin'",
      '!zeppelin',
      'a & b | c',
      "'):* | !(",
      '\\',
      '<->',
      '""',
      '%_%',
    ]) {
      const res = await api.get(`/api/search?q=${encodeURIComponent(q)}`, ada);
      expect(res.statusCode, q).toBe(200);
    }
    expect(await found("zeppelin'")).toContain(ids.deploy);
    expect(await found('!deploy')).toEqual([ids.deploy]);
    // % and _ are not wildcards in channel and people search either.
    expect((await search('%')).body.channels).toEqual([]);
    expect((await search('_')).body.people).toEqual([]);
  });
});

describe('many matches and few (the two plans a query may take)', () => {
  it('answers both newest first, and pages through many without repeating or skipping', async () => {
    const blimps = await createChannel(t, ada, ws.name, { name: 'blimps' });
    const count = FEW_MATCHES + 30;
    const newest = t.ctx.now().getTime();
    // Message n is n seconds old: "blimp number 1" is the newest.
    await t.ctx.db.execute(sql`
      insert into channel_messages (channel_id, seq, sender_id, content, client_id, created_at)
      select ${blimps._id}::uuid, 1000000 - g, ${ada.id}::uuid, 'blimp number ' || g, gen_random_uuid(),
        ${new Date(newest).toISOString()}::timestamptz - g * interval '1 second'
      from generate_series(1, ${count}) g`);
    const numbers = (body: SearchResults) =>
      body.messages.map((m) =>
        Number(
          m.snippet
            .map((part) => part.text)
            .join('')
            .split(' ')
            .at(-1),
        ),
      );

    // More than FEW_MATCHES: the newest-first walk.
    const seen: number[] = [];
    let cursor = '';
    for (let page = 0; page < 3; page++) {
      const { status, body } = await search('blimp', ada, `&limit=50${cursor}`);
      expect(status).toBe(200);
      seen.push(...numbers(body));
      cursor = `&cursor=${encodeURIComponent(body.nextCursor ?? '')}`;
    }
    expect(seen).toEqual(Array.from({ length: 150 }, (_, i) => i + 1));

    // Few: 170 and 1700–1709 end with the prefix "170"; read through the GIN index, then sorted.
    const few = await search('blimp number 170', ada, '&limit=5');
    expect(numbers(few.body)).toEqual([170, 1700, 1701, 1702, 1703]);
    const rest = await search('blimp number 170', ada, `&limit=50&cursor=${few.body.nextCursor}`);
    expect(numbers(rest.body)).toEqual([1704, 1705, 1706, 1707, 1708, 1709]);
    expect(rest.body.nextCursor).toBeNull();
  });
});
