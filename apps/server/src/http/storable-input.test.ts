import { randomUUID } from 'node:crypto';
import { UNSTORABLE_TEXT } from '@cohort/shared/text';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser, uniqueEmail } from '../../test/factories.ts';
import { rowCounts } from '../../test/security/fuzz-kit.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { baseUrl, openSocket, request } from '../features/chat/chat.test-helpers.ts';
import { createChannel, createWorkspace, uniqueName, wsUrl } from '../features/workspaces/test-fixtures.ts';

/**
 * Text PostgreSQL cannot store (U+0000) and text that is not Unicode (a lone surrogate) used to reach
 * the database from valid requests and come back as 500s and server-error acks. Each case below is an
 * otherwise valid request with one such value in one field: a 400 naming the field, nothing stored.
 */

let t: TestApp;
let owner: TestUser;
let ws: { _id: string; name: string };
let channel: { _id: string };

beforeAll(async () => {
  t = await createTestApp({ listen: true });
  owner = await createUser(t.app);
  ws = await createWorkspace(t, owner);
  channel = await createChannel(t, owner, ws.name, {});
});
afterAll(() => t.close());

const BAD = {
  nul: 'before\u0000after',
  highSurrogate: 'x\ud800y',
  lowSurrogate: '\udc00',
  reversed: '\udc00\ud800',
};

const cases = (bad: string) => [
  {
    name: 'sign-up first name',
    field: 'firstName',
    send: () =>
      t.app.inject({
        method: 'POST',
        url: '/api/signup',
        payload: { firstName: bad, lastName: 'L', email: uniqueEmail(), password: 'correct horse battery' },
      }),
  },
  {
    name: 'workspace description',
    field: 'description',
    send: () =>
      t.app.inject({
        method: 'POST',
        url: '/api/workspaces',
        headers: owner.auth,
        payload: { name: uniqueName(), description: bad, members: [] },
      }),
  },
  {
    name: 'channel message',
    field: 'content',
    send: () =>
      t.app.inject({
        method: 'POST',
        url: wsUrl(ws.name, `/channels/${channel._id}/messages`),
        headers: owner.auth,
        payload: { clientId: randomUUID(), content: bad },
      }),
  },
  {
    name: 'task title',
    field: 'title',
    send: () =>
      t.app.inject({ method: 'POST', url: '/api/tasks', headers: owner.auth, payload: { title: bad } }),
  },
  {
    name: 'contact message',
    field: 'message',
    send: () =>
      t.app.inject({
        method: 'POST',
        url: '/api/contact',
        payload: { name: 'N', email: uniqueEmail(), message: bad },
      }),
  },
];

/** A URL can carry a NUL (%00) but no lone surrogate (it has no UTF-8 form). */
const urlCases = (bad: string) => [
  {
    name: 'search query',
    field: 'q',
    send: () =>
      t.app.inject({ method: 'GET', url: `/api/search?q=${encodeURIComponent(bad)}`, headers: owner.auth }),
  },
  {
    name: 'workspace name in the path',
    field: 'workspaceName',
    send: () => t.app.inject({ method: 'GET', url: wsUrl(`w${bad}`), headers: owner.auth }),
  },
];

describe.each(Object.entries(BAD))('HTTP: text with %s', (kind, bad) => {
  const all = kind === 'nul' ? [...cases(bad), ...urlCases(bad)] : cases(bad);
  it.each(all.map((c) => [c.name, c] as const))(
    '%s → 400 naming the field, nothing stored',
    async (_n, c) => {
      const before = await rowCounts(t);
      const res = await c.send();
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: `${c.field}: ${UNSTORABLE_TEXT}`, field: c.field });
      expect(await rowCounts(t)).toEqual(before);
    },
  );
});

describe('sockets: text with a NUL or a lone surrogate', () => {
  it('answers the sender with the field and stores nothing, on every event', async () => {
    const socket = await openSocket(baseUrl(t.app.server), '/chat', owner.token);
    try {
      expect(
        await request(socket, 'joinChannel', { workspaceName: ws.name, channelId: channel._id }),
      ).toEqual({
        ok: true,
      });
      for (const bad of Object.values(BAD)) {
        const before = await rowCounts(t);
        const ack = await request(socket, 'sendMessage', {
          workspaceName: ws.name,
          channelId: channel._id,
          clientId: randomUUID(),
          message: { content: bad },
        });
        expect(ack).toEqual({ ok: false, message: `message.content: ${UNSTORABLE_TEXT}` });
        expect(await rowCounts(t)).toEqual(before);
      }
      // The socket still works for good text.
      const ok = await request<{ ok: boolean }>(socket, 'sendMessage', {
        workspaceName: ws.name,
        channelId: channel._id,
        clientId: randomUUID(),
        message: { content: 'fine 👋' },
      });
      expect(ok.ok).toBe(true);
    } finally {
      socket.disconnect();
    }
  });
});
