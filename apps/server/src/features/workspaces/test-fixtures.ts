import { randomUUID } from 'node:crypto';
import type { CreateChannelBody, WorkspaceMemberInput } from '@cohort/shared/workspaces';
import { asc, eq, inArray } from 'drizzle-orm';
import { type TestUser, testUserByEmail } from '../../../test/factories.ts';
import type { TestApp } from '../../../test/test-app.ts';
import {
  channelMembers,
  channels,
  users,
  workspaceInvitations,
  workspaceMembers,
  workspaces,
} from '../../db/schema.ts';

/** Test helpers shared by this feature's test files (not a test file itself). */

export const uniqueName = (prefix = 'ws') => `${prefix}-${randomUUID().slice(0, 8)}`;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export function client(t: TestApp) {
  const call = (method: Method, url: string, as?: TestUser, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: as?.auth ?? {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return {
    call,
    get: (url: string, as?: TestUser) => call('GET', url, as),
    post: (url: string, as: TestUser | undefined, payload: unknown) => call('POST', url, as, payload),
    patch: (url: string, as: TestUser | undefined, payload: unknown) => call('PATCH', url, as, payload),
    put: (url: string, as: TestUser | undefined, payload?: unknown) => call('PUT', url, as, payload),
    del: (url: string, as?: TestUser) => call('DELETE', url, as),
  };
}

export const wsUrl = (nameOrId: string, rest = '') =>
  `/api/workspaces/${encodeURIComponent(nameOrId)}${rest}`;

/**
 * The invitee accepts their pending invitation to the workspace (by name or id) through the API, as
 * they would from the invitations page; throws when there is none to accept.
 */
export async function acceptInvitation(t: TestApp, invitee: TestUser, workspaceNameOrId: string) {
  const api = client(t);
  const mine = await api.get('/api/invitations', invitee);
  if (mine.statusCode !== 200) throw new Error(`listing invitations failed: ${mine.statusCode} ${mine.body}`);
  const key = workspaceNameOrId.toLowerCase();
  const invitation = (mine.json() as Array<{ _id: string; workspace: { _id: string; name: string } }>).find(
    (i) => i.workspace._id === key || i.workspace.name.toLowerCase() === key,
  );
  if (!invitation) throw new Error(`${invitee.email} has no pending invitation to ${workspaceNameOrId}`);
  const res = await api.post(`/api/invitations/${invitation._id}/accept`, invitee, {});
  if (res.statusCode !== 200) throw new Error(`accepting failed: ${res.statusCode} ${res.body}`);
  return res.json() as { workspace: { _id: string; name: string }; role: string };
}

/** An admin invites `user` (POST …/members) and the user accepts: the way anyone joins. */
export async function addMember(
  t: TestApp,
  admin: TestUser,
  workspaceNameOrId: string,
  user: TestUser,
  role: 'viewer' | 'editor' | 'admin' = 'viewer',
) {
  const res = await client(t).post(wsUrl(workspaceNameOrId, '/members'), admin, { email: user.email, role });
  if (res.statusCode !== 201) throw new Error(`invitation failed: ${res.statusCode} ${res.body}`);
  return acceptInvitation(t, user, workspaceNameOrId);
}

/**
 * Creates a workspace through the API. Listed members that are users of this test file (made by
 * `createUser`) accept their invitations at once, so they are members as the test expects; e-mails
 * without an account stay invited. `accept: false` leaves every invitation pending.
 */
export async function createWorkspace(
  t: TestApp,
  owner: TestUser,
  opts: { name?: string; description?: string; members?: WorkspaceMemberInput[]; accept?: boolean } = {},
) {
  const res = await client(t).post('/api/workspaces', owner, {
    name: opts.name ?? uniqueName(),
    description: opts.description ?? 'A place to work',
    members: opts.members ?? [],
  });
  if (res.statusCode !== 201) throw new Error(`workspace creation failed: ${res.statusCode} ${res.body}`);
  const ws = res.json() as { _id: string; name: string };
  if (opts.accept !== false) {
    for (const email of new Set((opts.members ?? []).map((m) => m.email.trim().toLowerCase()))) {
      const invitee = testUserByEmail(email);
      if (invitee && invitee.email.toLowerCase() !== owner.email.toLowerCase()) {
        await acceptInvitation(t, invitee, ws._id);
      }
    }
  }
  return ws;
}

export async function createChannel(
  t: TestApp,
  as: TestUser,
  workspaceName: string,
  body: Partial<CreateChannelBody>,
) {
  const res = await client(t).post(wsUrl(workspaceName, '/channels'), as, {
    name: uniqueName('ch'),
    description: 'Talk here',
    ...body,
  });
  if (res.statusCode !== 201) throw new Error(`channel creation failed: ${res.statusCode} ${res.body}`);
  return res.json() as { _id: string; name: string; members: string[] };
}

/** Every stored row that belongs to the workspace, in a stable order: "nothing changed" compares these. */
export async function snapshotWorkspace(t: TestApp, workspaceId: string) {
  const db = t.ctx.db;
  const channelRows = await db
    .select()
    .from(channels)
    .where(eq(channels.workspaceId, workspaceId))
    .orderBy(asc(channels.id));
  const channelIds = channelRows.map((c) => c.id);
  return {
    workspace: await db.select().from(workspaces).where(eq(workspaces.id, workspaceId)),
    members: await db
      .select()
      .from(workspaceMembers)
      .where(eq(workspaceMembers.workspaceId, workspaceId))
      .orderBy(asc(workspaceMembers.userId)),
    invitations: await db
      .select()
      .from(workspaceInvitations)
      .where(eq(workspaceInvitations.workspaceId, workspaceId))
      .orderBy(asc(workspaceInvitations.email)),
    channels: channelRows,
    channelMembers: channelIds.length
      ? await db
          .select()
          .from(channelMembers)
          .where(inArray(channelMembers.channelId, channelIds))
          .orderBy(asc(channelMembers.channelId), asc(channelMembers.userId))
      : [],
  };
}

export async function snapshotUser(t: TestApp, userId: string) {
  return t.ctx.db.select().from(users).where(eq(users.id, userId));
}
