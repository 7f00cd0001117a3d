import {
  type ChannelSummary,
  SUMMARIZE_MAX_MESSAGES,
  SUMMARY_MESSAGES,
  SUMMARY_RATE_LIMIT,
} from '@cohort/shared/summaries';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { newClientId } from '../chat/chat.test-helpers.ts';
import { client, createChannel, createWorkspace, wsUrl } from '../workspaces/test-fixtures.ts';
import { builtinSummarizer, type Summarizer } from './summaries.engine.ts';

const HOUR = 3_600_000;
let t: TestApp;
let api: ReturnType<typeof client>;
let admin: TestUser;
let viewer: TestUser;
let outsider: TestUser;
let ws: { _id: string; name: string };
/** Every engine run, so the cache can be proved to skip it. */
let engineRuns = 0;
const counting: Summarizer = (messages) => {
  engineRuns++;
  return builtinSummarizer(messages);
};

beforeAll(async () => {
  t = await createTestApp({ summarizer: counting });
  api = client(t);
  [admin, viewer, outsider] = await Promise.all([
    createUser(t.app, { firstName: 'Ada', lastName: 'Admin' }),
    createUser(t.app, { firstName: 'Vic', lastName: 'Viewer' }),
    createUser(t.app),
  ]);
  ws = await createWorkspace(t, admin, { members: [{ email: viewer.email }] });
});
afterAll(() => t.close());
// Each test starts with a fresh per-minute budget (the limit itself has its own test).
beforeEach(() => t.advance(61_000));

const post = async (channelId: string, as: TestUser, content: string) => {
  const res = await api.post(wsUrl(ws.name, `/channels/${channelId}/messages`), as, {
    clientId: newClientId(),
    content,
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json() as { _id: string };
};
const summary = (channelId: string, query = '', as: TestUser = viewer) =>
  api.get(wsUrl(ws.name, `/channels/${channelId}/summary${query}`), as);

describe('GET /api/workspaces/:workspaceName/channels/:channelId/summary', () => {
  it('summarizes the messages of the last `timeframe` hours (24 by default), naming only senders', async () => {
    const channel = await createChannel(t, admin, ws.name, {});
    await post(channel._id, admin, 'Old news: the offsite is booked for March.');
    t.advance(10 * HOUR);
    await post(
      channel._id,
      admin,
      "We decided to ship the billing release on Thursday. I'll write the notes.",
    );
    await post(channel._id, viewer, 'Can you share the release checklist with QA?');

    const res = await summary(channel._id, '?timeframe=6');
    expect(res.statusCode).toBe(200);
    const body = res.json() as ChannelSummary;
    expect(body).toMatchObject({ messageCount: 2, timeframe: 6, engine: 'builtin' });
    expect(new Date(body.to).getTime() - new Date(body.from).getTime()).toBe(6 * HOUR);
    expect(body.summary).toContain('Ada Admin and the team decided to ship the billing release on Thursday.');
    expect(body.summary).not.toContain('offsite');
    expect(body.summary).toContain('Ada Admin');
    expect(body.summary).toContain('Vic Viewer');
    expect(body.participants).toEqual(
      expect.arrayContaining([
        { _id: admin.id, email: admin.email, name: 'Ada Admin' },
        { _id: viewer.id, email: viewer.email, name: 'Vic Viewer' },
      ]),
    );
    expect(body.participants).toHaveLength(2);

    const day = (await summary(channel._id)).json() as ChannelSummary;
    expect(day).toMatchObject({ messageCount: 3, timeframe: 24 });
    expect(day.summary).toContain('offsite');
    expect(((await summary(channel._id, '?timeframe=12')).json() as ChannelSummary).messageCount).toBe(3);
  });

  it('accepts exactly 6, 12, 24, 48 and 168 hours; anything else is a 400', async () => {
    const channel = await createChannel(t, admin, ws.name, {});
    for (const hours of [6, 12, 24, 48, 168]) {
      const res = await summary(channel._id, `?timeframe=${hours}`, admin);
      expect(res.statusCode, String(hours)).toBe(200);
      expect(res.json().timeframe).toBe(hours);
    }
    t.advance(61_000);
    for (const bad of ['0', '7', '-6', '24.0', 'abc', '1e3', '']) {
      const res = await summary(channel._id, `?timeframe=${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toEqual({
        message: `timeframe: ${SUMMARY_MESSAGES.invalidTimeframe}`,
        field: 'timeframe',
      });
    }
  });

  it('answers an empty window with an empty summary', async () => {
    const channel = await createChannel(t, admin, ws.name, {});
    const res = await summary(channel._id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ summary: '', messageCount: 0, participants: [], timeframe: 24 });
    await post(channel._id, admin, 'Something said long ago about the roadmap.');
    t.advance(7 * HOUR);
    expect((await summary(channel._id, '?timeframe=6')).json()).toMatchObject({
      summary: '',
      messageCount: 0,
    });
  });

  it('is a 404 for non-members, private channels one is not in, and unknown ids; 401 without a session', async () => {
    const channel = await createChannel(t, admin, ws.name, {});
    const secret = await createChannel(t, admin, ws.name, { private: true });
    await post(secret._id, admin, 'Top secret plans for the launch party.');
    const outsiderRes = await summary(channel._id, '', outsider);
    expect(outsiderRes.statusCode).toBe(404);
    expect(outsiderRes.json()).toEqual({ message: 'Workspace not found' });
    const privateRes = await summary(secret._id, '', viewer);
    expect(privateRes.statusCode).toBe(404);
    expect(privateRes.json()).toEqual({ message: 'Channel not found' });
    expect((await summary('00000000-0000-4000-8000-000000000000', '', viewer)).statusCode).toBe(404);
    expect((await summary('not-a-uuid', '', viewer)).statusCode).toBe(404);
    expect((await api.get(wsUrl(ws.name, `/channels/${channel._id}/summary`))).statusCode).toBe(401);
    // The listed member reads it.
    expect((await summary(secret._id, '', admin)).json().summary).toContain('launch party');
  });

  it('reuses the summary until the window changes: a new message, or the oldest sliding out', async () => {
    const channel = await createChannel(t, admin, ws.name, {});
    await post(channel._id, admin, 'First we need to migrate the invoices table to the new schema.');
    t.advance(HOUR);
    await post(channel._id, viewer, 'The migration of the invoices table can run tonight.');

    const before = engineRuns;
    const first = (await summary(channel._id, '?timeframe=6')).json() as ChannelSummary;
    expect(engineRuns).toBe(before + 1);
    t.advance(60_000);
    const again = (await summary(channel._id, '?timeframe=6')).json() as ChannelSummary;
    expect(engineRuns).toBe(before + 1);
    expect(again.summary).toBe(first.summary);
    expect(again.to).not.toBe(first.to);

    // Another timeframe is another window.
    await summary(channel._id, '?timeframe=12');
    expect(engineRuns).toBe(before + 2);

    await post(channel._id, admin, 'Great, I will watch the migration dashboards tonight.');
    const updated = (await summary(channel._id, '?timeframe=6')).json() as ChannelSummary;
    expect(engineRuns).toBe(before + 3);
    expect(updated.messageCount).toBe(3);

    // Five hours on, the first message has left the 6-hour window: a new summary without it.
    t.advance(5 * HOUR);
    const slid = (await summary(channel._id, '?timeframe=6')).json() as ChannelSummary;
    expect(engineRuns).toBe(before + 4);
    expect(slid.messageCount).toBe(2);
    expect(slid.summary).not.toContain('First we need');
  });

  it('recomputes after an edit or a deletion, and leaves deleted messages out', async () => {
    const channel = await createChannel(t, admin, ws.name, {});
    const kept = await post(channel._id, admin, 'The vendor contract renewal is due next month.');
    const gone = await post(channel._id, viewer, 'The secret budget number is forty two thousand.');
    const before = engineRuns;
    expect((await summary(channel._id)).json().summary).toContain('forty two');
    const messageUrl = (id: string) => wsUrl(ws.name, `/channels/${channel._id}/messages/${id}`);
    expect(
      (
        await api.patch(messageUrl(kept._id), admin, {
          content: 'The vendor contract renewal moved to June.',
        })
      ).statusCode,
    ).toBe(200);
    const edited = (await summary(channel._id)).json() as ChannelSummary;
    expect(engineRuns).toBe(before + 2);
    expect(edited.summary).toContain('moved to June');
    expect((await api.del(messageUrl(gone._id), viewer)).statusCode).toBe(200);
    const afterDelete = (await summary(channel._id)).json() as ChannelSummary;
    expect(engineRuns).toBe(before + 3);
    expect(afterDelete.messageCount).toBe(1);
    expect(afterDelete.summary).not.toContain('forty two');
    expect(afterDelete.participants.map((p) => p._id)).toEqual([admin.id]);
  });
});

describe('POST /api/summarize', () => {
  const now = Date.UTC(2026, 0, 5, 9);
  it('summarizes the given messages with the same engine', async () => {
    const res = await api.post('/api/summarize', viewer, {
      messages: [
        {
          sender: 'maria@example.com',
          content: 'Hemos decidido usar PostgreSQL para la facturación.',
          timestamp: new Date(now).toISOString(),
        },
        { sender: 'Tom', content: "I'll prepare the rollout plan for Monday.", timestamp: now + 60_000 },
      ],
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      messageCount: 2,
      participants: ['maria@example.com', 'Tom'],
      from: new Date(now).toISOString(),
      to: new Date(now + 60_000).toISOString(),
      engine: 'builtin',
    });
    expect(body.summary).toContain('Hemos decidido usar PostgreSQL');
    expect(body.summary).toContain('Tom will prepare the rollout plan for Monday.');
  });

  it(`refuses more than ${SUMMARIZE_MAX_MESSAGES} messages and more than 500 KB with 400, bad input with 400`, async () => {
    const many = Array.from({ length: SUMMARIZE_MAX_MESSAGES + 1 }, (_, i) => ({
      sender: 'a',
      content: `m${i}`,
    }));
    const tooMany = await api.post('/api/summarize', viewer, { messages: many });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toContain(SUMMARY_MESSAGES.tooManyMessages);

    const big = Array.from({ length: 6 }, () => ({ sender: 'a', content: 'é'.repeat(50_000) }));
    const tooBig = await api.post('/api/summarize', viewer, { messages: big });
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json().message).toContain(SUMMARY_MESSAGES.tooLarge);

    const exact = Array.from({ length: SUMMARIZE_MAX_MESSAGES }, (_, i) => ({
      sender: 'a',
      content: `m${i}`,
    }));
    expect((await api.post('/api/summarize', viewer, { messages: exact })).statusCode).toBe(200);
    t.advance(61_000);
    for (const messages of [
      [{ content: 'x' }],
      [{ sender: 'a', content: 'x', timestamp: 'not a date' }],
      'x',
    ]) {
      expect((await api.post('/api/summarize', viewer, { messages })).statusCode).toBe(400);
    }
    expect((await api.post('/api/summarize', undefined, { messages: [] })).statusCode).toBe(401);
    expect((await api.post('/api/summarize', viewer, { messages: [] })).json()).toMatchObject({
      summary: '',
      messageCount: 0,
    });
  });
});

describe('rate limit', () => {
  it(`allows ${SUMMARY_RATE_LIMIT} summary requests per user per minute across both routes, then 429`, async () => {
    const channel = await createChannel(t, admin, ws.name, {});
    const user = await createUser(t.app);
    const other = await createUser(t.app);
    const body = { messages: [{ sender: 'a', content: 'Hello there, the build is green again.' }] };
    for (let i = 0; i < SUMMARY_RATE_LIMIT; i++) {
      const res = i % 2 ? await api.post('/api/summarize', user, body) : await summary(channel._id, '', user);
      // A non-member's request is refused with 404 but still counts.
      expect(res.statusCode).toBe(i % 2 ? 200 : 404);
    }
    const refused = await api.post('/api/summarize', user, body);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: SUMMARY_MESSAGES.rateLimited });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await summary(channel._id, '', user)).statusCode).toBe(429);
    // Someone else is not affected.
    expect((await api.post('/api/summarize', other, body)).statusCode).toBe(200);
    // A minute later the budget is back.
    t.advance(60_001);
    expect((await api.post('/api/summarize', user, body)).statusCode).toBe(200);
  });
});
