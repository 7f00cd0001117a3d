import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { and, eq, getTableName, is, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import type { InjectOptions } from 'fastify';
import { io as connect, type Socket } from 'socket.io-client';
import * as schema from '../../src/db/schema.ts';
import { createSession } from '../../src/http/session.ts';
import { createUser, type TestUser, uniqueEmail } from '../factories.ts';
import { type FakeGithub, startFakeGithub } from '../fakes/github.ts';
import { createTestApp, type TestApp } from '../test-app.ts';

/**
 * The world the authorization matrix runs against, built once per file: one workspace with an
 * admin, an editor, a viewer and a member who was removed, a signed-in stranger, an admin of
 * another workspace, and a revoked session; and one of each resource a route can name.
 */

export const ACTORS = [
  'anonymous',
  'revoked',
  'other',
  'nonMember',
  'removed',
  'viewer',
  'editor',
  'admin',
] as const;
export type Actor = (typeof ACTORS)[number];
export type Person = Exclude<Actor, 'anonymous' | 'revoked'>;

/** Fixture answers are read loosely: a wrong shape fails the fixture build at once. */
// biome-ignore lint/suspicious/noExplicitAny: JSON answers of many routes, checked by the routes' own tests.
type Loose = any;

export const uniqueName = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

export interface Scene {
  t: TestApp;
  github: FakeGithub;
  url: string;
  people: Record<Person, TestUser>;
  /** The admin's second session, logged out: what a stolen or stale cookie looks like. */
  revokedToken: string;
  /** Authorization headers per actor (none for anonymous). */
  headers(actor: Actor): Record<string, string>;
  /** Socket.IO auth token per actor (none for anonymous). */
  token(actor: Actor): string | undefined;
  /** The main workspace (admin, editor, viewer; `removed` was an editor). */
  ws: { id: string; name: string };
  /** The non-member's own workspace: admin somewhere is not admin everywhere. */
  otherWs: { id: string; name: string };
  /** Open channel created by the admin. */
  open: string;
  /** Private channel created by the editor, listing the viewer (and listing `removed` before removal). */
  secret: string;
  /** The editor's message in the open channel. */
  message: string;
  /** A file the editor attached to a message of the open channel. */
  file: string;
  /** A direct message from the admin to the editor. */
  dm: string;
  /** The admin's task list (a second one for moves), and a task of it assigned to the editor. */
  list: string;
  list2: string;
  task: string;
  checklistItem: string;
  /** A task of the admin assigned to the editor and to `removed` while they were colleagues. */
  sharedTask: string;
  /** The editor's "assigned" notification for `task`. */
  notification: string;
  /** A project the editor linked in the workspace, and one of its pull requests. */
  project: string;
  pullRequest: string;
  invited: string;
  /** Members nobody depends on, for the role-change and removal rows. */
  spares: TestUser[];
  /**
   * Sockets the removed member opened while still a member (chat rooms and the open channel's call
   * joined): a removal must shut the doors these were already through.
   */
  removedSockets: Record<string, Socket>;
  call(
    method: InjectOptions['method'],
    url: string,
    actor: Actor,
    payload?: unknown,
  ): Promise<{ statusCode: number; body: string; json(): Loose }>;
  /** The same as `call` but throws unless 2xx: for building fixtures. */
  make(method: InjectOptions['method'], url: string, as: Actor, payload?: unknown): Promise<Loose>;
  /** A workspace with the same four memberships (`removed` removed), for destructive rows. */
  makeWorkspace(): Promise<{ id: string; name: string }>;
  /**
   * A pending invitation to a new workspace of a spare member, addressed to `to` (a person's address,
   * or an address without an account for those who have none): its id.
   */
  makeInvitation(to: Actor): Promise<string>;
  makeChannel(opts?: { private?: boolean; by?: Actor; members?: string[] }): Promise<string>;
  makeMessage(channelId?: string, by?: Actor): Promise<string>;
  makeTask(opts?: { assign?: string[]; archived?: boolean }): Promise<string>;
  uploadFile(
    by: Actor,
    fields: Record<string, string>,
  ): Promise<{ statusCode: number; body: string; json(): Loose }>;
  sendDm(from: Actor, to: Actor, content?: string): Promise<string>;
  socket(namespace: string, actor: Actor): Promise<Socket>;
  close(): Promise<void>;
}

export async function buildScene(): Promise<Scene> {
  const github = await startFakeGithub();
  const t = await createTestApp({
    listen: true,
    env: { GITHUB_API_URL: github.url, GITHUB_SYNC_MINUTES: '1440', GITHUB_WEBHOOK_SECRET: 'matrix-secret' },
  });
  const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const names: Person[] = ['admin', 'editor', 'viewer', 'removed', 'nonMember', 'other'];
  const created = await Promise.all(
    [...names, 'spare1', 'spare2'].map((n) => createUser(t.app, { firstName: n, lastName: 'Matrix' })),
  );
  const people = Object.fromEntries(names.map((n, i) => [n, created[i]])) as Record<Person, TestUser>;
  const spares = created.slice(names.length);

  const revokedToken = await createSession(t.ctx, people.admin.id, false);
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const token = (actor: Actor) =>
    actor === 'anonymous' ? undefined : actor === 'revoked' ? revokedToken : people[actor].token;
  const headers = (actor: Actor): Record<string, string> => {
    const value = token(actor);
    return value ? bearer(value) : {};
  };
  let ip = 0;
  const call: Scene['call'] = (method, path, actor, payload) =>
    t.app.inject({
      method,
      url: path,
      headers: headers(actor),
      // A distinct address per request: the login limiter counts per address.
      remoteAddress: `198.51.100.${(ip++ % 250) + 1}`,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const make: Scene['make'] = async (method, path, as, payload) => {
    const res = await call(method, path, as, payload);
    if (res.statusCode >= 300) throw new Error(`fixture ${method} ${path}: ${res.statusCode} ${res.body}`);
    return res.statusCode === 204 ? null : res.json();
  };
  const logout = await t.app.inject({ method: 'POST', url: '/api/logout', headers: bearer(revokedToken) });
  if (logout.statusCode !== 200) throw new Error(`logout failed: ${logout.body}`);

  /** The invitees accept their invitations to the workspace: membership is always consented. */
  const acceptAll = async (workspaceId: string, invitees: Person[]) => {
    for (const invitee of invitees) {
      const mine = (await make('GET', '/api/invitations', invitee)) as Array<{
        _id: string;
        workspace: { _id: string };
      }>;
      const invitation = mine.find((i) => i.workspace._id === workspaceId);
      if (!invitation) throw new Error(`fixture: ${invitee} has no invitation to ${workspaceId}`);
      await make('POST', `/api/invitations/${invitation._id}/accept`, invitee, {});
    }
  };
  const makeWorkspace = async () => {
    const ws = await make('POST', '/api/workspaces', 'admin', {
      name: uniqueName('mx'),
      description: 'matrix',
      members: [
        { email: people.editor.email, role: 'editor' },
        { email: people.viewer.email, role: 'viewer' },
        { email: people.removed.email, role: 'editor' },
      ],
    });
    await acceptAll(ws._id, ['editor', 'viewer', 'removed']);
    await make('DELETE', `/api/workspaces/${ws.name}/members/${people.removed.id}`, 'admin');
    return { id: ws._id as string, name: ws.name as string };
  };
  // The main workspace keeps `removed` until everything they could reach exists (removed at the end).
  const wsRow = await make('POST', '/api/workspaces', 'admin', {
    name: uniqueName('mx'),
    description: 'matrix',
    members: [
      { email: people.editor.email, role: 'editor' },
      { email: people.viewer.email, role: 'viewer' },
      { email: people.removed.email, role: 'editor' },
    ],
  });
  const ws = { id: wsRow._id as string, name: wsRow.name as string };
  await acceptAll(ws.id, ['editor', 'viewer', 'removed']);
  const wsUrl = `/api/workspaces/${ws.name}`;
  const makeChannel: Scene['makeChannel'] = async (opts = {}) => {
    const channel = await make('POST', `${wsUrl}/channels`, opts.by ?? 'admin', {
      name: uniqueName('ch'),
      description: 'matrix',
      private: opts.private ?? false,
      ...(opts.members ? { members: opts.members } : {}),
    });
    return channel._id as string;
  };
  const open = await makeChannel();
  const secret = await makeChannel({
    private: true,
    by: 'editor',
    members: [people.viewer.id, people.removed.id],
  });
  const makeMessage: Scene['makeMessage'] = async (channelId = open, by = 'editor') =>
    (
      await make('POST', `${wsUrl}/channels/${channelId}/messages`, by, {
        content: 'matrix message',
        clientId: randomUUID(),
      })
    )._id;
  const message = await makeMessage();
  // The removed member spoke before leaving: their old message must not keep a door open.
  await makeMessage(open, 'removed');
  await makeMessage(secret, 'removed');

  const uploadFile: Scene['uploadFile'] = async (by, fields) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('file', new Blob(['hello matrix'], { type: 'text/plain' }), 'matrix.txt');
    const request = new Request('http://localhost/api/files', { method: 'POST', body: form });
    return t.app.inject({
      method: 'POST',
      url: '/api/files',
      headers: { ...headers(by), 'content-type': request.headers.get('content-type') ?? '' },
      payload: Buffer.from(await request.arrayBuffer()),
    });
  };
  const uploaded = await uploadFile('editor', { workspaceName: ws.name, channelId: open });
  if (uploaded.statusCode !== 201) throw new Error(`upload failed: ${uploaded.body}`);
  const file = uploaded.json()._id as string;
  await make('POST', `${wsUrl}/channels/${open}/messages`, 'editor', {
    content: 'with a file',
    clientId: randomUUID(),
    attachments: [file],
  });

  const sockets: Socket[] = [];
  const socket: Scene['socket'] = (namespace, actor) => {
    const client = connect(`${url}${namespace}`, {
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      auth: token(actor) ? { token: token(actor) } : {},
    });
    sockets.push(client);
    return new Promise((resolve, reject) => {
      client.once('connect', () => resolve(client));
      client.once('connect_error', (err) => {
        client.close();
        reject(err);
      });
    });
  };
  const dmSocket = await socket('/dm', 'admin');
  const sendDm: Scene['sendDm'] = async (from, to, content = 'matrix dm') => {
    const s = from === 'admin' ? dmSocket : await socket('/dm', from);
    const ack = await s.timeout(5000).emitWithAck('sendMessage', {
      receiverEmail: people[to as Person].email,
      clientId: randomUUID(),
      content,
    });
    if (s !== dmSocket) s.close();
    if (!ack.ok) throw new Error(`dm failed: ${JSON.stringify(ack)}`);
    return ack.message._id as string;
  };
  const dm = await sendDm('admin', 'editor');

  const list = (await make('POST', '/api/tasklists', 'admin', { title: uniqueName('list') }))._id;
  const list2 = (await make('POST', '/api/tasklists', 'admin', { title: uniqueName('list') }))._id;
  const makeTask: Scene['makeTask'] = async (opts = {}) => {
    const task = (await make('POST', '/api/tasks', 'admin', { title: uniqueName('task'), taskListId: list }))
      ._id;
    if (opts.assign) await make('PUT', `/api/tasks/${task}/assignees`, 'admin', { userIds: opts.assign });
    if (opts.archived) await make('POST', `/api/tasks/${task}/archive`, 'admin', {});
    return task;
  };
  const task = await makeTask({ assign: [people.editor.id] });
  const sharedTask = await makeTask({ assign: [people.editor.id, people.removed.id] });
  const checklistItem = (await make('POST', `/api/tasks/${task}/checklist`, 'admin', { title: 'step' }))
    .checklist[0]._id;
  const notes = await make('GET', '/api/tasks/notifications', 'editor');
  const notification = notes.find((n: { task: { _id: string } }) => n.task._id === task)?._id;
  if (!notification) throw new Error(`no notification: ${JSON.stringify(notes)}`);

  const repo = github.addRepository('octo-org', uniqueName('repo')).seed(2, 1);
  const linked = await make('POST', '/api/projects', 'editor', {
    repositoryUrl: `https://github.com/${repo.fullName}`,
    workspaceId: ws.id,
  });

  const invited = uniqueEmail('invited');
  await make('POST', `${wsUrl}/members`, 'admin', { email: invited, role: 'viewer' });
  for (const spare of spares) {
    await make('POST', `${wsUrl}/members`, 'admin', { email: spare.email, role: 'viewer' });
    const [invitation] = (
      await t.app.inject({ method: 'GET', url: '/api/invitations', headers: spare.auth })
    ).json() as Array<{ _id: string }>;
    const accepted = await t.app.inject({
      method: 'POST',
      url: `/api/invitations/${invitation?._id}/accept`,
      headers: spare.auth,
      payload: {},
    });
    if (accepted.statusCode !== 200) throw new Error(`fixture: spare could not join: ${accepted.body}`);
  }
  const makeInvitation: Scene['makeInvitation'] = async (to) => {
    const host = spares[0] as TestUser;
    const as = { authorization: host.auth.authorization };
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/workspaces',
      headers: as,
      payload: { name: uniqueName('inviting'), description: 'matrix', members: [] },
    });
    if (created.statusCode !== 201) throw new Error(`fixture: ${created.body}`);
    const email = to === 'anonymous' || to === 'revoked' ? uniqueEmail('nobody') : people[to].email;
    const invited = await t.app.inject({
      method: 'POST',
      url: `/api/workspaces/${created.json()._id}/members`,
      headers: as,
      payload: { email, role: 'viewer' },
    });
    if (invited.statusCode !== 201) throw new Error(`fixture: ${invited.body}`);
    const [row] = await t.ctx.db
      .select({ id: schema.workspaceInvitations.id })
      .from(schema.workspaceInvitations)
      .where(
        and(
          eq(schema.workspaceInvitations.workspaceId, created.json()._id),
          eq(schema.workspaceInvitations.email, email),
        ),
      );
    if (!row) throw new Error('fixture: no invitation stored');
    return row.id;
  };
  const removedSockets: Record<string, Socket> = {};
  for (const namespace of ['/chat', '/dm', '/tasks', '/video', '/mesh']) {
    removedSockets[namespace] = await socket(namespace, 'removed');
  }
  for (const channelId of [open, secret]) {
    const joined = await removedSockets['/chat']?.timeout(5000).emitWithAck('joinChannel', {
      workspaceName: ws.name,
      channelId,
    });
    if (!joined?.ok) throw new Error(`removed member could not join: ${JSON.stringify(joined)}`);
  }
  const inCall = await removedSockets['/mesh']?.timeout(5000).emitWithAck('join', { room: open });
  if (!inCall?.ok) throw new Error(`removed member could not join the call: ${JSON.stringify(inCall)}`);
  // Removal last: everything above that the removed member could reach, they no longer can.
  await make('DELETE', `${wsUrl}/members/${people.removed.id}`, 'admin');

  const otherWs = await make('POST', '/api/workspaces', 'nonMember', {
    name: uniqueName('elsewhere'),
    description: 'not yours',
    members: [],
  });

  return {
    t,
    github,
    url,
    people,
    revokedToken,
    headers,
    token,
    ws,
    otherWs: { id: otherWs._id, name: otherWs.name },
    open,
    secret,
    message,
    file,
    dm,
    list,
    list2,
    task,
    checklistItem,
    sharedTask,
    notification,
    project: linked._id,
    pullRequest: linked.pullRequests[0].id,
    invited,
    spares,
    removedSockets,
    call,
    make,
    makeWorkspace,
    makeInvitation,
    makeChannel,
    makeMessage,
    makeTask,
    uploadFile,
    sendDm,
    socket,
    close: async () => {
      for (const s of sockets) s.close();
      await t.close();
      await github.close();
    },
  };
}

/**
 * Tables a refused request may legitimately write: the counters that make refusals count. Sessions
 * are compared without their last-seen time, which every authenticated request refreshes, and queued
 * mail without its delivery state.
 */
const COUNTERS = new Set(['login_failures', 'rate_limit_hits']);
const tableNames = (Object.values(schema) as unknown[])
  .filter((value): value is PgTable => is(value, PgTable))
  .map((table) => getTableName(table))
  .filter((name) => !COUNTERS.has(name));

const digestSql = sql.raw(
  `select ${tableNames
    .map((name) => {
      // Sessions without their last-seen time; the mail outbox without its delivery state, which the
      // sender updates in the background after a success queued the mail.
      const source =
        name === 'sessions'
          ? '(select id, user_id, revoked_at from sessions)'
          : name === 'mail_outbox'
            ? '(select id, kind, to_address, subject from mail_outbox)'
            : `"${name}"`;
      return `(select count(*) || ':' || coalesce(md5(string_agg(md5(x::text), ',' order by md5(x::text))), '') from ${source} x) as "${name}"`;
    })
    .join(', ')}`,
);

/** Every table's row count and a hash of its rows: equal digests mean nothing was written. */
export async function digest(t: TestApp): Promise<Record<string, string>> {
  const result = (await t.ctx.db.execute(digestSql)) as unknown as
    | { rows: Record<string, string>[] }
    | Record<string, string>[];
  const rows = Array.isArray(result) ? result : result.rows;
  return rows[0] ?? {};
}
