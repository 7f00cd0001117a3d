import type { ChannelMessage } from '@cohort/shared/chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { client, createChannel, createWorkspace, wsUrl } from '../workspaces/test-fixtures.ts';
import { newClientId } from './chat.test-helpers.ts';

let t: TestApp;
let api: ReturnType<typeof client>;
let admin: TestUser;
let viewer: TestUser;
let outsider: TestUser;
let ws: { _id: string; name: string };
let channel: { _id: string };
let secret: { _id: string };
const TOTAL = 120;

beforeAll(async () => {
  t = await createTestApp();
  api = client(t);
  [admin, viewer, outsider] = await Promise.all([createUser(t.app), createUser(t.app), createUser(t.app)]);
  ws = await createWorkspace(t, admin, { members: [{ email: viewer.email }] });
  channel = await createChannel(t, admin, ws.name, {});
  secret = await createChannel(t, admin, ws.name, { private: true });
  for (let i = 1; i <= TOTAL; i++) {
    const res = await api.post(wsUrl(ws.name, `/channels/${channel._id}/messages`), i % 2 ? admin : viewer, {
      clientId: newClientId(),
      content: `message ${i}`,
    });
    if (res.statusCode !== 201) throw new Error(res.body);
  }
  await api.post(wsUrl(ws.name, `/channels/${secret._id}/messages`), admin, {
    clientId: newClientId(),
    content: 'private',
  });
});
afterAll(() => t.close());

const page = async (query: string, as: TestUser = viewer, id = channel._id) => {
  const res = await api.get(wsUrl(ws.name, `/channels/${id}/messages${query}`), as);
  return { status: res.statusCode, body: res.json() as ChannelMessage[] };
};
const seqs = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('GET /api/workspaces/:workspaceName/channels/:channelId/messages', () => {
  it('answers the newest 50, oldest first, in the presented shape', async () => {
    const { status, body } = await page('');
    expect(status).toBe(200);
    expect(body.map((m) => m.seq)).toEqual(seqs(TOTAL - 49, TOTAL));
    expect(body.at(-1)).toEqual({
      _id: expect.any(String),
      seq: TOTAL,
      channel: channel._id,
      content: `message ${TOTAL}`,
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      clientId: expect.any(String),
      sender: { _id: viewer.id, email: viewer.email, name: 'Test User' },
      rev: TOTAL,
      editedAt: null,
      deleted: false,
      parentId: null,
      replyCount: 0,
      lastReplyAt: null,
      reactions: [],
      attachments: [],
      kind: 'text',
      pinned: null,
    });
  });

  it('answers the page around a seq (opening an old message in context)', async () => {
    expect((await page('?around=10&limit=6')).body.map((m) => m.seq)).toEqual(seqs(8, 13));
    expect((await page('?around=2&limit=10')).body.map((m) => m.seq)).toEqual(seqs(1, 7));
    expect((await page(`?around=${TOTAL}&limit=4`)).body.map((m) => m.seq)).toEqual(seqs(TOTAL - 1, TOTAL));
    expect((await page('?around=60')).body.map((m) => m.seq)).toEqual(seqs(36, 85));
    expect((await page('?around=60', outsider)).status).toBe(404);
  });

  it('pages with before (newest below it) and after (oldest above it), within limit', async () => {
    expect((await page('?before=10')).body.map((m) => m.seq)).toEqual(seqs(1, 9));
    expect((await page('?before=100&limit=5')).body.map((m) => m.seq)).toEqual(seqs(95, 99));
    expect((await page('?after=115')).body.map((m) => m.seq)).toEqual(seqs(116, 120));
    expect((await page('?after=0&limit=3')).body.map((m) => m.seq)).toEqual(seqs(1, 3));
    expect((await page('?after=10&before=14')).body.map((m) => m.seq)).toEqual(seqs(11, 13));
    expect((await page(`?after=${TOTAL}`)).body).toEqual([]);
    expect((await page('?before=1')).body).toEqual([]);
    expect((await page('?limit=200')).body).toHaveLength(TOTAL);
    expect((await page('?limit=1')).body.map((m) => m.seq)).toEqual([TOTAL]);
  });

  it('refuses out-of-range and malformed paging with 400', async () => {
    for (const q of ['?limit=0', '?limit=201', '?limit=abc', '?after=-1', '?before=1.5', '?after=x']) {
      expect((await page(q)).status, q).toBe(400);
    }
  });

  it('is a 404 for anyone who may not read the channel, and a 401 without a session', async () => {
    expect((await page('', outsider)).status).toBe(404);
    expect((await page('', viewer, secret._id)).status).toBe(404);
    expect((await page('', admin, secret._id)).body.map((m) => m.content)).toEqual(['private']);
    expect((await page('', viewer, crypto.randomUUID())).status).toBe(404);
    expect((await page('', viewer, 'not-a-uuid')).status).toBe(404);
    const res = await api.get(wsUrl(ws.name, `/channels/${channel._id}/messages`));
    expect(res.statusCode).toBe(401);
  });
});
