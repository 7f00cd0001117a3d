import { randomUUID } from 'node:crypto';
import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser, uniqueEmail } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import {
  channelMembers,
  channels,
  users,
  workspaceInvitations,
  workspaceMembers,
  workspaces,
} from '../../db/schema.ts';
import { client, createChannel, createWorkspace, uniqueName, wsUrl } from './test-fixtures.ts';

/**
 * Walks every route of the workspaces feature as each kind of caller and checks the exact status;
 * every refusal must leave the database exactly as it was. A non-member's 404 must be byte-for-byte
 * the answer for a workspace that does not exist, and a private channel's 404 the answer for a
 * channel that does not exist.
 */

let t: TestApp;
let api: ReturnType<typeof client>;
const people = {} as Record<'admin' | 'editor' | 'viewer' | 'outsider', TestUser>;

beforeAll(async () => {
  t = await createTestApp();
  api = client(t);
  const [admin, editor, viewer, outsider] = await Promise.all([
    createUser(t.app),
    createUser(t.app),
    createUser(t.app),
    createUser(t.app),
  ]);
  Object.assign(people, { admin, editor, viewer, outsider });
  // The outsider administers a workspace of their own: admin somewhere is not admin everywhere.
  await createWorkspace(t, outsider);
});
afterAll(() => t.close());

const ACTORS = ['anonymous', 'outsider', 'viewer', 'editor', 'admin'] as const;
type Actor = (typeof ACTORS)[number];

interface Fixture {
  /** What goes in the {workspaceName} position. */
  ws: string;
  workspaceId: string;
  /** Open channel created by the admin, listing the viewer. */
  openId: string;
  /** Private channel created by the editor, listing nobody else: the admin and viewer are not in it. */
  secretId: string;
  /** Private channel created by the admin, listing the editor (issue 22: channel members). */
  staffId: string;
  invited: string;
}

async function fixture(): Promise<Fixture> {
  const { admin, editor, viewer } = people;
  const invited = uniqueEmail('invited');
  const ws = await createWorkspace(t, admin, {
    members: [
      { email: editor.email, role: 'editor' },
      { email: viewer.email, role: 'viewer' },
      { email: invited, role: 'editor' },
    ],
  });
  const open = await createChannel(t, admin, ws.name, { members: [viewer.id] });
  const secret = await createChannel(t, editor, ws.name, { private: true });
  const staff = await createChannel(t, admin, ws.name, { private: true, members: [editor.id] });
  return {
    ws: ws.name,
    workspaceId: ws._id,
    openId: open._id,
    secretId: secret._id,
    staffId: staff._id,
    invited,
  };
}

/** Everything this feature stores, in a stable order. */
async function snapshotAll() {
  const db = t.ctx.db;
  return {
    workspaces: await db.select().from(workspaces).orderBy(asc(workspaces.id)),
    members: await db
      .select()
      .from(workspaceMembers)
      .orderBy(asc(workspaceMembers.workspaceId), asc(workspaceMembers.userId)),
    invitations: await db
      .select()
      .from(workspaceInvitations)
      .orderBy(asc(workspaceInvitations.workspaceId), asc(workspaceInvitations.email)),
    channels: await db.select().from(channels).orderBy(asc(channels.id)),
    channelMembers: await db
      .select()
      .from(channelMembers)
      .orderBy(asc(channelMembers.channelId), asc(channelMembers.userId)),
    profiles: await db
      .select({
        id: users.id,
        firstName: users.firstName,
        lastName: users.lastName,
        role: users.role,
        phone: users.phone,
      })
      .from(users)
      .orderBy(asc(users.id)),
  };
}

type Expected = Record<Actor, number>;
const all = (code: number, anonymous = 401): Expected => ({
  anonymous,
  outsider: code,
  viewer: code,
  editor: code,
  admin: code,
});
/** Anonymous 401, non-member 404, then viewer / editor / admin. */
const members = (viewer: number, editor: number, admin: number): Expected => ({
  anonymous: 401,
  outsider: 404,
  viewer,
  editor,
  admin,
});

interface RouteCase {
  route: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: (f: Fixture) => string;
  body?: (f: Fixture) => unknown;
  expected: Expected;
  /** Which 404s must look exactly like a missing thing: the workspace, or the private channel. */
  hides?: 'workspace' | 'channel';
  /** Extra checks on an allowed answer. */
  check?: (res: Awaited<ReturnType<ReturnType<typeof client>['call']>>, actor: Actor, f: Fixture) => void;
}

const channelIdsOf = (list: Array<{ _id: string }>) => list.map((c) => c._id);

const ROUTES: RouteCase[] = [
  {
    route: 'POST /api/workspaces',
    method: 'POST',
    path: () => '/api/workspaces',
    body: () => ({ name: uniqueName('new'), description: 'd' }),
    expected: all(201),
  },
  {
    route: 'GET /api/workspaces',
    method: 'GET',
    path: () => '/api/workspaces',
    expected: all(200),
    check: (res, actor, f) => {
      const ids = res.json().map((w: { _id: string }) => w._id);
      if (actor === 'outsider') expect(ids).not.toContain(f.workspaceId);
      else expect(ids).toContain(f.workspaceId);
    },
  },
  {
    route: 'GET /api/workspaces/:workspaceName',
    method: 'GET',
    path: (f) => wsUrl(f.ws),
    expected: members(200, 200, 200),
    hides: 'workspace',
    check: (res, actor, f) => {
      expect(res.json().role).toBe(actor);
      const ids = channelIdsOf(res.json().chat.channels);
      expect(ids).toContain(f.openId);
      // Only the editor is listed in the private channel; the admin does not see it either.
      expect(ids.includes(f.secretId)).toBe(actor === 'editor');
    },
  },
  {
    route: 'PATCH /api/workspaces/:workspaceName',
    method: 'PATCH',
    path: (f) => wsUrl(f.ws),
    body: () => ({ description: 'Changed' }),
    expected: members(403, 403, 200),
    hides: 'workspace',
    check: (res) => expect(res.json().description).toBe('Changed'),
  },
  {
    route: 'DELETE /api/workspaces/:workspaceName',
    method: 'DELETE',
    path: (f) => wsUrl(f.ws),
    expected: members(403, 403, 204),
    hides: 'workspace',
  },
  {
    route: 'GET /api/workspaces/:workspaceName/members',
    method: 'GET',
    path: (f) => wsUrl(f.ws, '/members'),
    expected: members(200, 200, 200),
    hides: 'workspace',
    // The pending invitation is listed for admins only.
    check: (res, actor) => expect(res.json()).toHaveLength(actor === 'admin' ? 4 : 3),
  },
  {
    route: 'POST /api/workspaces/:workspaceName/members',
    method: 'POST',
    path: (f) => wsUrl(f.ws, '/members'),
    body: () => ({ email: uniqueEmail('added'), role: 'admin' }),
    expected: members(403, 403, 201),
    hides: 'workspace',
  },
  {
    route: 'PATCH /api/workspaces/:workspaceName/members/:userId',
    method: 'PATCH',
    path: (f) => wsUrl(f.ws, `/members/${people.viewer.id}`),
    body: () => ({ role: 'admin' }),
    expected: members(403, 403, 200),
    hides: 'workspace',
  },
  {
    route: 'DELETE /api/workspaces/:workspaceName/members/:userId',
    method: 'DELETE',
    path: (f) => wsUrl(f.ws, `/members/${people.viewer.id}`),
    expected: members(403, 403, 204),
    hides: 'workspace',
  },
  {
    route: 'DELETE /api/workspaces/:workspaceName/invitations/:email',
    method: 'DELETE',
    path: (f) => wsUrl(f.ws, `/invitations/${encodeURIComponent(f.invited)}`),
    expected: members(403, 403, 204),
    hides: 'workspace',
  },
  {
    route: 'GET /api/workspaces/:workspaceName/invitations',
    method: 'GET',
    path: (f) => wsUrl(f.ws, '/invitations'),
    expected: members(403, 403, 200),
    hides: 'workspace',
    check: (res, _actor, f) => expect(res.json().map((i: { email: string }) => i.email)).toEqual([f.invited]),
  },
  {
    route: 'POST /api/workspaces/:workspaceName/invitations/:email/resend',
    method: 'POST',
    path: (f) => wsUrl(f.ws, `/invitations/${encodeURIComponent(f.invited)}/resend`),
    body: () => ({}),
    expected: members(403, 403, 200),
    hides: 'workspace',
  },
  {
    route: 'POST /api/workspaces/:workspaceName/leave',
    method: 'POST',
    path: (f) => wsUrl(f.ws, '/leave'),
    body: () => ({}),
    // The only admin may not leave (409); anyone else may.
    expected: members(204, 204, 409),
    hides: 'workspace',
  },
  {
    route: 'GET /api/workspaces/:workspaceName/channels',
    method: 'GET',
    path: (f) => wsUrl(f.ws, '/channels'),
    expected: members(200, 200, 200),
    hides: 'workspace',
    check: (res, actor, f) => {
      const ids = channelIdsOf(res.json());
      expect(ids).toContain(f.openId);
      expect(ids.includes(f.secretId)).toBe(actor === 'editor');
    },
  },
  {
    route: 'POST /api/workspaces/:workspaceName/channels',
    method: 'POST',
    path: (f) => wsUrl(f.ws, '/channels'),
    body: () => ({ name: uniqueName('ch'), description: 'd', private: true }),
    expected: members(403, 201, 201),
    hides: 'workspace',
  },
  {
    route: 'GET …/channels/:channelId (open)',
    method: 'GET',
    path: (f) => wsUrl(f.ws, `/channels/${f.openId}`),
    expected: members(200, 200, 200),
    hides: 'workspace',
  },
  {
    route: 'PATCH …/channels/:channelId (open, created by the admin)',
    method: 'PATCH',
    path: (f) => wsUrl(f.ws, `/channels/${f.openId}`),
    body: () => ({ description: 'Changed' }),
    expected: members(403, 403, 200),
    hides: 'workspace',
  },
  {
    route: 'DELETE …/channels/:channelId (open)',
    method: 'DELETE',
    path: (f) => wsUrl(f.ws, `/channels/${f.openId}`),
    expected: members(403, 403, 204),
    hides: 'workspace',
  },
  {
    route: 'GET …/channels/:channelId (private, editor only)',
    method: 'GET',
    path: (f) => wsUrl(f.ws, `/channels/${f.secretId}`),
    expected: members(404, 200, 404),
    hides: 'channel',
  },
  {
    route: 'PATCH …/channels/:channelId (private, created by the editor)',
    method: 'PATCH',
    path: (f) => wsUrl(f.ws, `/channels/${f.secretId}`),
    body: () => ({ name: uniqueName('renamed') }),
    expected: members(404, 200, 404),
    hides: 'channel',
  },
  {
    route: 'DELETE …/channels/:channelId (private, created by the editor)',
    method: 'DELETE',
    path: (f) => wsUrl(f.ws, `/channels/${f.secretId}`),
    expected: members(404, 403, 404),
    hides: 'channel',
  },
  // Issue 22: managing channels (docs/permissions.md, "Channels").
  {
    route: 'GET …/channels/browse',
    method: 'GET',
    path: (f) => wsUrl(f.ws, '/channels/browse'),
    expected: members(200, 200, 200),
    hides: 'workspace',
    check: (res, actor, f) => {
      const ids = channelIdsOf(res.json());
      expect(ids).toContain(f.openId);
      expect(ids.includes(f.secretId)).toBe(actor === 'editor');
      expect(ids.includes(f.staffId)).toBe(actor !== 'viewer');
    },
  },
  {
    route: 'PATCH …/channels/:channelId {topic} (open, created by the admin)',
    method: 'PATCH',
    path: (f) => wsUrl(f.ws, `/channels/${f.openId}`),
    body: () => ({ topic: 'Launch on Friday' }),
    expected: members(403, 200, 200),
    hides: 'workspace',
    check: (res) => expect(res.json().topic).toBe('Launch on Friday'),
  },
  {
    route: 'POST …/channels/:channelId/join (open)',
    method: 'POST',
    path: (f) => wsUrl(f.ws, `/channels/${f.openId}/join`),
    body: () => ({}),
    expected: members(200, 200, 200),
    hides: 'workspace',
    check: (res) => expect(res.json().joined).toBe(true),
  },
  {
    route: 'POST …/channels/:channelId/join (private, editor only)',
    method: 'POST',
    path: (f) => wsUrl(f.ws, `/channels/${f.secretId}/join`),
    body: () => ({}),
    expected: members(404, 200, 404),
    hides: 'channel',
  },
  {
    route: 'POST …/channels/:channelId/leave (open)',
    method: 'POST',
    path: (f) => wsUrl(f.ws, `/channels/${f.openId}/leave`),
    body: () => ({}),
    expected: members(200, 200, 200),
    hides: 'workspace',
    check: (res) => expect(res.json().joined).toBe(false),
  },
  {
    route: 'POST …/channels/:channelId/leave (private, its last member is the editor)',
    method: 'POST',
    path: (f) => wsUrl(f.ws, `/channels/${f.secretId}/leave`),
    body: () => ({}),
    expected: members(404, 409, 404),
    hides: 'channel',
  },
  {
    route: 'POST …/channels/:channelId/leave (private, admin and editor)',
    method: 'POST',
    path: (f) => wsUrl(f.ws, `/channels/${f.staffId}/leave`),
    body: () => ({}),
    expected: members(404, 204, 204),
    hides: 'channel',
  },
  {
    route: 'POST …/channels/:channelId/archive (open)',
    method: 'POST',
    path: (f) => wsUrl(f.ws, `/channels/${f.openId}/archive`),
    body: () => ({}),
    expected: members(403, 403, 200),
    hides: 'workspace',
    check: (res) => expect(res.json().archived).toBe(true),
  },
  {
    route: 'POST …/channels/:channelId/unarchive (open, not archived)',
    method: 'POST',
    path: (f) => wsUrl(f.ws, `/channels/${f.openId}/unarchive`),
    body: () => ({}),
    expected: members(403, 403, 409),
    hides: 'workspace',
  },
  {
    route: 'POST …/channels/:channelId/archive (private, editor only)',
    method: 'POST',
    path: (f) => wsUrl(f.ws, `/channels/${f.secretId}/archive`),
    body: () => ({}),
    expected: members(404, 403, 404),
    hides: 'channel',
  },
  {
    route: 'PUT …/channels/:channelId/star (open)',
    method: 'PUT',
    path: (f) => wsUrl(f.ws, `/channels/${f.openId}/star`),
    expected: members(200, 200, 200),
    hides: 'workspace',
    check: (res) => expect(res.json().starred).toBe(true),
  },
  {
    route: 'DELETE …/channels/:channelId/star (private, editor only)',
    method: 'DELETE',
    path: (f) => wsUrl(f.ws, `/channels/${f.secretId}/star`),
    expected: members(404, 200, 404),
    hides: 'channel',
  },
  {
    route: 'GET …/channels/:channelId/members (open)',
    method: 'GET',
    path: (f) => wsUrl(f.ws, `/channels/${f.openId}/members`),
    expected: members(200, 200, 200),
    hides: 'workspace',
    check: (res) =>
      expect(res.json().map((m: { _id: string }) => m._id)).toEqual([people.admin.id, people.viewer.id]),
  },
  {
    route: 'GET …/channels/:channelId/members (private, editor only)',
    method: 'GET',
    path: (f) => wsUrl(f.ws, `/channels/${f.secretId}/members`),
    expected: members(404, 200, 404),
    hides: 'channel',
  },
  {
    route: 'POST …/channels/:channelId/members (private, admin and editor)',
    method: 'POST',
    path: (f) => wsUrl(f.ws, `/channels/${f.staffId}/members`),
    body: () => ({ userIds: [people.viewer.id] }),
    expected: members(404, 403, 200),
    hides: 'channel',
    check: (res) => expect(res.json().map((m: { _id: string }) => m._id)).toContain(people.viewer.id),
  },
  {
    route: 'DELETE …/channels/:channelId/members/:userId (private, admin and editor)',
    method: 'DELETE',
    path: (f) => wsUrl(f.ws, `/channels/${f.staffId}/members/${people.editor.id}`),
    expected: members(404, 403, 204),
    hides: 'channel',
  },
  {
    route: 'GET /api/profile',
    method: 'GET',
    path: () => '/api/profile',
    expected: all(200),
  },
  {
    route: 'PATCH /api/profile',
    method: 'PATCH',
    path: () => '/api/profile',
    body: () => ({ role: 'Tester' }),
    expected: all(200),
  },
];

describe.each(ROUTES)('$route', (rc) => {
  it.each(ACTORS)('as %s', async (actor) => {
    const f = await fixture();
    const as = actor === 'anonymous' ? undefined : people[actor];
    const expected = rc.expected[actor];
    const before = await snapshotAll();

    const res = await api.call(rc.method, rc.path(f), as, rc.body?.(f));
    expect(res.statusCode, res.body).toBe(expected);

    if (expected >= 400) {
      expect(await snapshotAll()).toEqual(before);
      if (expected === 401) expect(res.json()).toEqual({ message: 'Please log in' });
      if (expected === 403) expect(res.json()).toEqual({ message: 'You do not have permission to do that' });
    } else {
      rc.check?.(res, actor, f);
    }

    if (expected === 404) {
      // Indistinguishable from something that does not exist, by name and by id.
      // A non-member never gets as far as the channel: for them it is the workspace that is missing.
      const hides = actor === 'outsider' ? 'workspace' : rc.hides;
      const variants =
        hides === 'channel'
          ? [{ ...f, secretId: randomUUID(), staffId: randomUUID() }]
          : [
              { ...f, ws: uniqueName('missing') },
              { ...f, ws: f.workspaceId },
            ];
      for (const variant of variants) {
        const other = await api.call(rc.method, rc.path(variant), as, rc.body?.(variant));
        expect(other.statusCode).toBe(404);
        expect(other.body).toBe(res.body);
      }
      const missing = hides === 'channel' ? 'Channel not found' : 'Workspace not found';
      expect(res.json()).toEqual({ message: missing });
      expect(await snapshotAll()).toEqual(before);
    }
  });
});

describe('anonymous callers are refused before their input is looked at', () => {
  it.each([
    ['POST', '/api/workspaces', { name: 42 }],
    ['POST', '/api/workspaces/anything/channels', {}],
    ['PATCH', '/api/workspaces/anything/members/not-an-id', { role: 'owner' }],
    ['PATCH', '/api/profile', { phone: 'letters' }],
  ] as const)('%s %s with invalid input → 401', async (method, url, body) => {
    const res = await api.call(method, url, undefined, body);
    expect(res.statusCode).toBe(401);
  });

  it('refuses a revoked session', async () => {
    const user = await createUser(t.app);
    await api.call('POST', '/api/logout', user, {});
    expect((await api.get('/api/workspaces', user)).statusCode).toBe(401);
  });
});
