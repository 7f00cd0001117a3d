import { randomUUID } from 'node:crypto';
import type { UserTypingEvent } from '@cohort/shared/chat';
import type { InjectOptions } from 'fastify';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountTokenKind, issueAccountToken } from '../../src/features/accounts/account-tokens.ts';
import { totpAt } from '../../src/features/accounts/two-factor.test-fixtures.ts';
import { createUser, type TestUser } from '../factories.ts';
import {
  ACTORS,
  type Actor,
  buildScene,
  digest,
  type Scene,
  uniqueName,
} from './authorization-matrix.fixtures.ts';

/**
 * One row per HTTP route the app registers (and per Socket.IO namespace and event), each naming
 * the answer for every kind of caller: anonymous, a revoked session, a signed-in stranger, an admin
 * of another workspace, a removed member, viewer, editor and admin (docs/permissions.md). A refusal
 * must have its exact status and leave every table as it was; an allowed caller gets its 2xx. A
 * route or event without rows fails the completeness tests, and so does a row that matches nothing.
 */

let s: Scene;
const started = Date.now();
beforeAll(async () => {
  s = await buildScene();
  console.info(`authorization matrix: scene built in ${Date.now() - started} ms`);
}, 120_000);
afterAll(() => s?.close());

type Expected = Record<Actor, number>;

/** Anonymous and revoked 401; stranger, non-member and removed member 404; then the three roles. */
const member = (viewer: number, editor: number, admin: number): Expected => ({
  anonymous: 401,
  revoked: 401,
  other: 404,
  nonMember: 404,
  removed: 404,
  viewer,
  editor,
  admin,
});
/** Any session will do (the route only ever touches the caller's own things). */
const signedIn = (code: number): Expected => ({
  anonymous: 401,
  revoked: 401,
  other: code,
  nonMember: code,
  removed: code,
  viewer: code,
  editor: code,
  admin: code,
});
/** Only the listed people get their code; every other session 404, as for something that does not exist. */
const only = (allowed: Partial<Record<Actor, number>>, others = 404): Expected => ({
  ...signedIn(others),
  ...allowed,
});
/** No session needed: the same answer for everyone. */
const everyone = (code: number): Expected => Object.fromEntries(ACTORS.map((a) => [a, code])) as Expected;

type Vars = Record<string, string>;

/** The workspace's Team board and a card on it (made once, by the admin). */
let teamCardMade: Promise<{ board: string; list: string; task: string }> | undefined;
function teamCard(sc: Scene) {
  teamCardMade ??= (async () => {
    const boards = (await sc.make('GET', '/api/boards', 'admin')) as Array<{
      _id: string;
      workspace: { _id: string } | null;
    }>;
    const board = boards.find((b) => b.workspace?._id === sc.ws.id)?._id;
    if (!board) throw new Error('no team board');
    const list = (
      await sc.make('POST', '/api/tasklists', 'admin', { title: uniqueName('l'), boardId: board })
    )._id;
    const task = (
      await sc.make('POST', '/api/tasks', 'admin', { title: uniqueName('card'), taskListId: list })
    )._id;
    return { board, list, task } as { board: string; list: string; task: string };
  })();
  return teamCardMade;
}

interface Row {
  /** `METHOD /registered/:url`, exactly as the router has it. */
  route: string;
  /** What distinguishes several rows of one route (open or private channel…). */
  variant?: string;
  /** No session needed (login, contact, health…): said explicitly, never assumed. */
  public?: true;
  /** Builds a fresh target for each caller, for rows whose success consumes it. */
  prepare?: (s: Scene, actor: Actor) => Promise<Vars>;
  url: (s: Scene, v: Vars) => string;
  body?: (s: Scene, v: Vars) => unknown;
  /** Sends the request itself (multipart uploads). */
  send?: (s: Scene, actor: Actor, v: Vars) => Promise<{ statusCode: number; body: string }>;
  expected: Expected;
}

const ws = (rest = '') => `/api/workspaces/${s.ws.name}${rest}`;
const ch = (channel: string, rest = '') => ws(`/channels/${channel}${rest}`);
const newMessage = () => ({ content: 'matrix says hi', clientId: randomUUID() });

// -- Helpers of the sessions and two-factor rows --------------------------------------------------
const isPerson = (actor: Actor): actor is Exclude<Actor, 'anonymous' | 'revoked'> =>
  actor !== 'anonymous' && actor !== 'revoked';
/** Signs `who` in once more (as another device would) and answers that session's id. */
async function freshSessionId(sc: Scene, who: Exclude<Actor, 'anonymous' | 'revoked'> | TestUser) {
  const person = typeof who === 'string' ? sc.people[who] : who;
  const { token } = await sc.make('POST', '/api/login', 'anonymous', {
    email: person.email,
    password: person.password,
  });
  const listed = await sc.t.app.inject({
    url: '/api/sessions',
    headers: { authorization: `Bearer ${token}` },
  });
  return (listed.json() as { _id: string; current: boolean }[]).find((x) => x.current)?._id ?? '';
}
/** Starts a setup for the person and answers a code that matches none of the steps it would accept. */
async function wrongCodeFor(sc: Scene, actor: Exclude<Actor, 'anonymous' | 'revoked'>) {
  const { secret } = await sc.make('POST', '/api/2fa/setup', actor, {});
  const now = sc.t.ctx.now().getTime();
  const valid = await Promise.all([-1, 0, 1].map((d) => totpAt(secret, new Date(now + d * 30_000))));
  return ['000000', '111111', '222222', '333333'].find((c) => !valid.includes(c)) ?? '444444';
}

// -- Helper of the verified-address and password-reset rows ---------------------------------------
/**
 * A live link token of `kind` for a fresh unverified account, as the server would mail it (the raw
 * token exists only in the mail, so it is issued here the way the service issues it).
 */
async function mailedToken(sc: Scene, kind: AccountTokenKind) {
  const user = await createUser(sc.t.app, { verified: false });
  return issueAccountToken(sc.t.ctx.db, {
    userId: user.id,
    kind,
    email: kind === 'change_email' ? `${uniqueName('confirmed')}@example.com` : user.email,
    ttlMs: 60 * 60 * 1000,
    now: sc.t.ctx.now(),
  });
}

const ROWS: Row[] = [
  // -- System and public ----------------------------------------------------------------------------
  { route: 'GET /healthz', public: true, url: () => '/healthz', expected: everyone(200) },
  { route: 'GET /readyz', public: true, url: () => '/readyz', expected: everyone(200) },
  // Off here (no METRICS_TOKEN): 404 as for any unknown path. With a token, src/http/metrics.test.ts
  // checks that only that bearer token (never a session) reads it.
  { route: 'GET /metrics', public: true, url: () => '/metrics', expected: everyone(404) },
  { route: 'GET /api/config', public: true, url: () => '/api/config', expected: everyone(200) },
  { route: 'GET /api/openapi.json', public: true, url: () => '/api/openapi.json', expected: everyone(200) },
  { route: 'GET /api/docs', public: true, url: () => '/api/docs', expected: everyone(200) },
  { route: 'GET /api/docs/json', public: true, url: () => '/api/docs/json', expected: everyone(200) },
  { route: 'GET /api/docs/yaml', public: true, url: () => '/api/docs/yaml', expected: everyone(200) },
  {
    route: 'GET /api/docs/static/index.html',
    public: true,
    url: () => '/api/docs/static/index.html',
    expected: everyone(302),
  },
  {
    route: 'GET /api/docs/static/swagger-initializer.js',
    public: true,
    url: () => '/api/docs/static/swagger-initializer.js',
    expected: everyone(200),
  },
  {
    route: 'GET /api/docs/static/*',
    public: true,
    url: () => '/api/docs/static/swagger-ui.css',
    expected: everyone(200),
  },
  {
    route: 'POST /api/signup',
    public: true,
    url: () => '/api/signup',
    body: () => ({
      firstName: 'New',
      lastName: 'Person',
      email: `${uniqueName('signup')}@example.com`,
      password: 'correct horse battery',
    }),
    expected: everyone(201),
  },
  {
    route: 'POST /api/login',
    public: true,
    url: () => '/api/login',
    body: (sc) => ({ email: sc.spares[0]?.email, password: sc.spares[0]?.password }),
    expected: everyone(200),
  },
  {
    route: 'POST /api/google-login',
    public: true,
    url: () => '/api/google-login',
    // Without GOOGLE_CLIENT_ID the server refuses every credential; with it, google.test.ts covers them.
    body: () => ({ credential: 'x'.repeat(40) }),
    expected: everyone(400),
  },
  {
    route: 'POST /api/google-signup',
    public: true,
    url: () => '/api/google-signup',
    // Without GOOGLE_CLIENT_ID the server refuses every credential; with it, google.test.ts covers them.
    body: () => ({ credential: 'x'.repeat(40) }),
    expected: everyone(400),
  },
  {
    route: 'POST /api/contact',
    public: true,
    url: () => '/api/contact',
    body: () => ({ name: 'Ann', email: 'ann@example.com', message: 'Hello there, matrix.' }),
    expected: everyone(201),
  },
  {
    route: 'POST /api/newsletter',
    public: true,
    url: () => '/api/newsletter',
    body: () => ({ email: `${uniqueName('news')}@example.com` }),
    expected: everyone(201),
  },
  {
    // No session grants it: only a valid GitHub signature would.
    route: 'POST /api/github/webhook',
    public: true,
    url: () => '/api/github/webhook',
    body: () => ({ zen: 'hi' }),
    expected: everyone(401),
  },

  // -- Accounts and profile -------------------------------------------------------------------------
  { route: 'GET /api/me', url: () => '/api/me', expected: signedIn(200) },
  {
    // Logging out is always allowed (it only ever ends the caller's own session): a fresh session per caller.
    route: 'POST /api/logout',
    public: true,
    url: () => '/api/logout',
    body: () => ({}),
    expected: everyone(200),
  },
  {
    // The same password again: the caller's own account only, and the other rows' sessions survive.
    route: 'POST /api/users/password',
    prepare: async (sc, actor) => ({
      password:
        actor === 'anonymous' || actor === 'revoked' ? 'correct horse battery' : sc.people[actor].password,
    }),
    url: () => '/api/users/password',
    body: (_sc, v) => ({ currentPassword: v.password, newPassword: v.password }),
    expected: signedIn(200),
  },
  { route: 'GET /api/profile', url: () => '/api/profile', expected: signedIn(200) },
  {
    route: 'PATCH /api/profile',
    url: () => '/api/profile',
    body: () => ({ role: 'Tester' }),
    expected: signedIn(200),
  },

  // -- Verified addresses, password reset, e-mail change, mail outbox (issue 16) -----------------------
  // Links are proof on their own (they may be opened signed out, on another device): everyone gets the
  // same answer for a live link of a fresh account, made per caller since each use consumes it.
  {
    route: 'POST /api/account/verify-email',
    public: true,
    prepare: async (sc) => ({ token: await mailedToken(sc, 'verify_email') }),
    url: () => '/api/account/verify-email',
    body: (_sc, v) => ({ token: v.token }),
    expected: everyone(200),
  },
  {
    route: 'POST /api/account/verify-email',
    variant: 'unknown link',
    public: true,
    url: () => '/api/account/verify-email',
    body: () => ({ token: 'A'.repeat(43) }),
    expected: everyone(400),
  },
  {
    // Everyone in the scene is verified already (the unverified path: accounts/email.test.ts).
    route: 'POST /api/account/verification/resend',
    url: () => '/api/account/verification/resend',
    expected: signedIn(400),
  },
  {
    // The caller's own account only: a link goes to the new address, nothing changes before it is used.
    route: 'POST /api/account/email',
    prepare: async (sc, actor) => ({
      password: isPerson(actor) ? sc.people[actor].password : 'correct horse battery',
      newEmail: `${uniqueName('moving')}@example.com`,
    }),
    url: () => '/api/account/email',
    body: (_sc, v) => ({ newEmail: v.newEmail, password: v.password }),
    expected: signedIn(200),
  },
  {
    route: 'POST /api/account/email/confirm',
    public: true,
    prepare: async (sc) => ({ token: await mailedToken(sc, 'change_email') }),
    url: () => '/api/account/email/confirm',
    body: (_sc, v) => ({ token: v.token }),
    expected: everyone(200),
  },
  {
    // The same answer whether or not the address has an account.
    route: 'POST /api/account/password/forgot',
    public: true,
    url: () => '/api/account/password/forgot',
    body: (sc) => ({ email: sc.spares[0]?.email }),
    expected: everyone(200),
  },
  {
    route: 'POST /api/account/password/reset',
    public: true,
    prepare: async (sc) => ({ token: await mailedToken(sc, 'reset_password') }),
    url: () => '/api/account/password/reset',
    body: (_sc, v) => ({ token: v.token, password: 'a fresh long passphrase' }),
    expected: everyone(200),
  },
  {
    // The operator's view: addresses listed in ADMIN_EMAILS only, none in this scene (mail/mail.test.ts).
    route: 'GET /api/admin/mail',
    url: () => '/api/admin/mail',
    expected: signedIn(404),
  },

  // -- Sessions and two-factor sign-in (issue 16) ----------------------------------------------------
  { route: 'GET /api/sessions', url: () => '/api/sessions', expected: signedIn(200) },
  {
    // A fresh session of the caller's own: revoking it leaves the session the other rows use.
    route: 'DELETE /api/sessions/:sessionId',
    prepare: async (sc, actor) => ({ id: await freshSessionId(sc, isPerson(actor) ? actor : 'admin') }),
    url: (_sc, v) => `/api/sessions/${v.id}`,
    expected: signedIn(204),
  },
  {
    route: 'DELETE /api/sessions/:sessionId',
    variant: "someone else's",
    prepare: async (sc) => ({ id: await freshSessionId(sc, sc.spares[0] as TestUser) }),
    url: (_sc, v) => `/api/sessions/${v.id}`,
    expected: signedIn(404),
  },
  {
    // Only the caller's own other sessions end; the one each row signs in with stays.
    route: 'POST /api/sessions/revoke-others',
    url: () => '/api/sessions/revoke-others',
    body: () => ({}),
    expected: signedIn(200),
  },
  { route: 'GET /api/2fa', url: () => '/api/2fa', expected: signedIn(200) },
  {
    // A pending secret only: two-factor sign-in stays off, so the other rows sign in as before.
    route: 'POST /api/2fa/setup',
    url: () => '/api/2fa/setup',
    body: () => ({}),
    expected: signedIn(200),
  },
  {
    // A pending setup and a code that is certainly wrong for it: refused, nothing written.
    route: 'POST /api/2fa/enable',
    prepare: async (sc, actor) => ({ code: isPerson(actor) ? await wrongCodeFor(sc, actor) : '000000' }),
    url: () => '/api/2fa/enable',
    body: (_sc, v) => ({ code: v.code }),
    expected: signedIn(400),
  },
  {
    // Nobody here has 2FA on: there is nothing to turn off.
    route: 'POST /api/2fa/disable',
    url: () => '/api/2fa/disable',
    body: () => ({ password: 'correct horse battery', code: '123456' }),
    expected: signedIn(409),
  },
  {
    // No session is needed (there is none yet at this step); an unknown challenge grants nothing.
    route: 'POST /api/login/two-factor',
    public: true,
    url: () => '/api/login/two-factor',
    body: () => ({ challenge: 'x'.repeat(43), code: '123456' }),
    expected: everyone(401),
  },
  {
    route: 'GET /api/workspaces/:workspaceName/two-factor',
    url: () => ws('/two-factor'),
    expected: member(403, 403, 200),
  },
  {
    // Turning it off needs only the admin role (turning it on also needs the admin's own 2FA).
    route: 'PUT /api/workspaces/:workspaceName/two-factor',
    url: () => ws('/two-factor'),
    body: () => ({ required: false }),
    expected: member(403, 403, 200),
  },

  // -- Workspaces, members, channels ----------------------------------------------------------------
  {
    route: 'POST /api/workspaces',
    url: () => '/api/workspaces',
    body: () => ({ name: uniqueName('new'), description: 'd', members: [] }),
    expected: signedIn(201),
  },
  { route: 'GET /api/workspaces', url: () => '/api/workspaces', expected: signedIn(200) },
  {
    route: 'GET /api/workspaces/:workspaceName',
    url: () => ws(),
    expected: member(200, 200, 200),
  },
  {
    route: 'GET /api/workspaces/:workspaceName',
    variant: 'by id',
    url: (sc) => `/api/workspaces/${sc.ws.id}`,
    expected: member(200, 200, 200),
  },
  {
    route: 'PATCH /api/workspaces/:workspaceName',
    url: () => ws(),
    body: () => ({ description: uniqueName('changed') }),
    expected: member(403, 403, 200),
  },
  {
    route: 'DELETE /api/workspaces/:workspaceName',
    prepare: async (sc) => ({ name: (await sc.makeWorkspace()).name }),
    url: (_sc, v) => `/api/workspaces/${v.name}`,
    expected: member(403, 403, 204),
  },
  {
    route: 'GET /api/workspaces/:workspaceName/members',
    url: () => ws('/members'),
    expected: member(200, 200, 200),
  },
  {
    route: 'POST /api/workspaces/:workspaceName/members',
    url: () => ws('/members'),
    body: () => ({ email: `${uniqueName('added')}@example.com`, role: 'admin' }),
    expected: member(403, 403, 201),
  },
  {
    route: 'PATCH /api/workspaces/:workspaceName/members/:userId',
    url: (sc) => ws(`/members/${sc.spares[0]?.id}`),
    body: () => ({ role: 'admin' }),
    expected: member(403, 403, 200),
  },
  {
    route: 'DELETE /api/workspaces/:workspaceName/members/:userId',
    url: (sc) => ws(`/members/${sc.spares[1]?.id}`),
    expected: member(403, 403, 204),
  },
  {
    route: 'DELETE /api/workspaces/:workspaceName/invitations/:email',
    url: (sc) => ws(`/invitations/${encodeURIComponent(sc.invited)}`),
    expected: member(403, 403, 204),
  },

  // -- Invitations with consent and leaving (issue 16) ---------------------------------------------
  // Mine: each person sees, accepts and declines only invitations to their own (verified) address;
  // someone else's is answered like one that does not exist.
  { route: 'GET /api/invitations', url: () => '/api/invitations', expected: signedIn(200) },
  {
    route: 'POST /api/invitations/:invitationId/accept',
    variant: 'addressed to the caller',
    prepare: async (sc, actor) => ({ id: await sc.makeInvitation(actor) }),
    url: (_sc, v) => `/api/invitations/${v.id}/accept`,
    body: () => ({}),
    expected: signedIn(200),
  },
  {
    route: 'POST /api/invitations/:invitationId/accept',
    variant: "someone else's",
    prepare: async (sc) => ({ id: await sc.makeInvitation('anonymous') }),
    url: (_sc, v) => `/api/invitations/${v.id}/accept`,
    body: () => ({}),
    expected: signedIn(404),
  },
  {
    route: 'POST /api/invitations/:invitationId/decline',
    variant: 'addressed to the caller',
    prepare: async (sc, actor) => ({ id: await sc.makeInvitation(actor) }),
    url: (_sc, v) => `/api/invitations/${v.id}/decline`,
    body: () => ({}),
    expected: signedIn(204),
  },
  {
    route: 'POST /api/invitations/:invitationId/decline',
    variant: "someone else's",
    prepare: async (sc) => ({ id: await sc.makeInvitation('anonymous') }),
    url: (_sc, v) => `/api/invitations/${v.id}/decline`,
    body: () => ({}),
    expected: signedIn(404),
  },
  // A workspace's pending invitations: its admins only.
  {
    route: 'GET /api/workspaces/:workspaceName/invitations',
    url: () => ws('/invitations'),
    expected: member(403, 403, 200),
  },
  {
    route: 'POST /api/workspaces/:workspaceName/invitations/:email/resend',
    prepare: async (sc) => {
      const email = `${uniqueName('resent')}@example.com`;
      await sc.make('POST', ws('/members'), 'admin', { email, role: 'viewer' });
      return { email };
    },
    url: (_sc, v) => ws(`/invitations/${encodeURIComponent(v.email as string)}/resend`),
    body: () => ({}),
    expected: member(403, 403, 200),
  },
  {
    // Anyone may leave (a workspace of their own per caller); the only admin is refused with 409.
    route: 'POST /api/workspaces/:workspaceName/leave',
    prepare: async (sc) => ({ name: (await sc.makeWorkspace()).name }),
    url: (_sc, v) => `/api/workspaces/${v.name}/leave`,
    body: () => ({}),
    expected: member(204, 204, 409),
  },
  {
    route: 'GET /api/workspaces/:workspaceName/channels',
    url: () => ws('/channels'),
    expected: member(200, 200, 200),
  },
  {
    route: 'POST /api/workspaces/:workspaceName/channels',
    url: () => ws('/channels'),
    body: () => ({ name: uniqueName('ch'), description: 'd', private: true }),
    expected: member(403, 201, 201),
  },
  {
    route: 'GET /api/workspaces/:workspaceName/channels/:channelId',
    variant: 'open',
    url: (sc) => ch(sc.open),
    expected: member(200, 200, 200),
  },
  {
    // Private, created by the editor and listing the viewer: the admin is not listed and does not see it.
    route: 'GET /api/workspaces/:workspaceName/channels/:channelId',
    variant: 'private',
    url: (sc) => ch(sc.secret),
    expected: member(200, 200, 404),
  },
  {
    route: 'PATCH /api/workspaces/:workspaceName/channels/:channelId',
    variant: 'open, created by the admin',
    url: (sc) => ch(sc.open),
    body: () => ({ description: uniqueName('changed') }),
    expected: member(403, 403, 200),
  },
  {
    route: 'PATCH /api/workspaces/:workspaceName/channels/:channelId',
    variant: 'private, created by the editor',
    url: (sc) => ch(sc.secret),
    body: () => ({ description: uniqueName('changed') }),
    expected: member(403, 200, 404),
  },
  {
    route: 'DELETE /api/workspaces/:workspaceName/channels/:channelId',
    variant: 'open',
    prepare: async (sc) => ({ id: await sc.makeChannel() }),
    url: (_sc, v) => ch(v.id as string),
    expected: member(403, 403, 204),
  },
  {
    route: 'DELETE /api/workspaces/:workspaceName/channels/:channelId',
    variant: 'private',
    url: (sc) => ch(sc.secret),
    expected: member(403, 403, 404),
  },

  // -- Channel management (issue 22) ------------------------------------------------------------------
  {
    route: 'GET /api/workspaces/:workspaceName/channels/browse',
    url: () => ws('/channels/browse'),
    expected: member(200, 200, 200),
  },
  {
    route: 'POST /api/workspaces/:workspaceName/channels/:channelId/join',
    variant: 'open',
    prepare: async (sc) => ({ id: await sc.makeChannel() }),
    url: (_sc, v) => ch(v.id as string, '/join'),
    expected: member(200, 200, 200),
  },
  {
    // Private: only those listed see it (already in: joining is a no-op); the admin is not listed.
    route: 'POST /api/workspaces/:workspaceName/channels/:channelId/join',
    variant: 'private',
    url: (sc) => ch(sc.secret, '/join'),
    expected: member(200, 200, 404),
  },
  {
    route: 'POST /api/workspaces/:workspaceName/channels/:channelId/leave',
    variant: 'open',
    prepare: async (sc) => ({
      id: await sc.makeChannel({ members: [sc.people.viewer.id, sc.people.editor.id] }),
    }),
    url: (_sc, v) => ch(v.id as string, '/leave'),
    expected: member(200, 200, 200),
  },
  {
    route: 'POST /api/workspaces/:workspaceName/channels/:channelId/leave',
    variant: 'private, listing all three',
    prepare: async (sc) => ({
      id: await sc.makeChannel({
        private: true,
        by: 'editor',
        members: [sc.people.viewer.id, sc.people.admin.id],
      }),
    }),
    url: (_sc, v) => ch(v.id as string, '/leave'),
    expected: member(204, 204, 204),
  },
  {
    route: 'POST /api/workspaces/:workspaceName/channels/:channelId/archive',
    prepare: async (sc) => ({ id: await sc.makeChannel() }),
    url: (_sc, v) => ch(v.id as string, '/archive'),
    expected: member(403, 403, 200),
  },
  {
    route: 'POST /api/workspaces/:workspaceName/channels/:channelId/unarchive',
    prepare: async (sc) => {
      const id = await sc.makeChannel();
      await sc.make('POST', ch(id, '/archive'), 'admin');
      return { id };
    },
    url: (_sc, v) => ch(v.id as string, '/unarchive'),
    expected: member(403, 403, 200),
  },
  {
    route: 'PUT /api/workspaces/:workspaceName/channels/:channelId/star',
    variant: 'open',
    url: (sc) => ch(sc.open, '/star'),
    expected: member(200, 200, 200),
  },
  {
    route: 'DELETE /api/workspaces/:workspaceName/channels/:channelId/star',
    variant: 'private',
    url: (sc) => ch(sc.secret, '/star'),
    expected: member(200, 200, 404),
  },
  {
    route: 'GET /api/workspaces/:workspaceName/channels/:channelId/members',
    variant: 'open',
    url: (sc) => ch(sc.open, '/members'),
    expected: member(200, 200, 200),
  },
  {
    route: 'GET /api/workspaces/:workspaceName/channels/:channelId/members',
    variant: 'private',
    url: (sc) => ch(sc.secret, '/members'),
    expected: member(200, 200, 404),
  },
  {
    // A private channel of the admin listing the viewer and the editor: only admins manage members.
    route: 'POST /api/workspaces/:workspaceName/channels/:channelId/members',
    prepare: async (sc) => ({
      id: await sc.makeChannel({ private: true, members: [sc.people.viewer.id] }),
    }),
    url: (_sc, v) => ch(v.id as string, '/members'),
    body: (sc) => ({ userIds: [sc.people.editor.id] }),
    expected: member(403, 404, 200),
  },
  {
    route: 'DELETE /api/workspaces/:workspaceName/channels/:channelId/members/:userId',
    prepare: async (sc) => ({
      id: await sc.makeChannel({ private: true, members: [sc.people.viewer.id, sc.people.editor.id] }),
    }),
    url: (sc, v) => ch(v.id as string, `/members/${sc.people.viewer.id}`),
    expected: member(403, 403, 204),
  },

  // -- Channel messages -----------------------------------------------------------------------------
  {
    route: 'GET /api/workspaces/:workspaceName/channels/:channelId/messages',
    variant: 'open',
    url: (sc) => ch(sc.open, '/messages'),
    expected: member(200, 200, 200),
  },
  {
    route: 'GET /api/workspaces/:workspaceName/channels/:channelId/messages',
    variant: 'private',
    url: (sc) => ch(sc.secret, '/messages'),
    expected: member(200, 200, 404),
  },
  {
    route: 'POST /api/workspaces/:workspaceName/channels/:channelId/messages',
    variant: 'open',
    url: (sc) => ch(sc.open, '/messages'),
    body: newMessage,
    expected: member(201, 201, 201),
  },
  {
    route: 'POST /api/workspaces/:workspaceName/channels/:channelId/messages',
    variant: 'private',
    url: (sc) => ch(sc.secret, '/messages'),
    body: newMessage,
    expected: member(201, 201, 404),
  },
  {
    // The sender only; other readers 403.
    route: 'PATCH /api/workspaces/:workspaceName/channels/:channelId/messages/:messageId',
    url: (sc) => ch(sc.open, `/messages/${sc.message}`),
    body: () => ({ content: uniqueName('edited') }),
    expected: member(403, 200, 403),
  },
  {
    // The sender, or an admin (moderation).
    route: 'DELETE /api/workspaces/:workspaceName/channels/:channelId/messages/:messageId',
    prepare: async (sc) => ({ id: await sc.makeMessage() }),
    url: (sc, v) => ch(sc.open, `/messages/${v.id}`),
    expected: member(403, 200, 200),
  },
  {
    route: 'PUT /api/workspaces/:workspaceName/channels/:channelId/messages/:messageId/reactions/:emoji',
    url: (sc) => ch(sc.open, `/messages/${sc.message}/reactions/${encodeURIComponent('👍')}`),
    expected: member(200, 200, 200),
  },
  {
    route: 'DELETE /api/workspaces/:workspaceName/channels/:channelId/messages/:messageId/reactions/:emoji',
    prepare: async (sc, actor) => {
      // Something to remove: the caller's own reaction where they may have one.
      if (['viewer', 'editor', 'admin'].includes(actor)) {
        await sc.make(
          'PUT',
          ch(sc.open, `/messages/${sc.message}/reactions/${encodeURIComponent('🎉')}`),
          actor,
        );
      }
      return {};
    },
    url: (sc) => ch(sc.open, `/messages/${sc.message}/reactions/${encodeURIComponent('🎉')}`),
    expected: member(200, 200, 200),
  },
  {
    route: 'GET /api/workspaces/:workspaceName/channels/:channelId/messages/:messageId/thread',
    url: (sc) => ch(sc.open, `/messages/${sc.message}/thread`),
    expected: member(200, 200, 200),
  },
  // -- Pins (issue 22): readers see them; editors and admins pin and unpin ---------------------------
  {
    route: 'GET /api/workspaces/:workspaceName/channels/:channelId/pins',
    variant: 'open',
    url: (sc) => ch(sc.open, '/pins'),
    expected: member(200, 200, 200),
  },
  {
    route: 'GET /api/workspaces/:workspaceName/channels/:channelId/pins',
    variant: 'private',
    url: (sc) => ch(sc.secret, '/pins'),
    expected: member(200, 200, 404),
  },
  {
    route: 'PUT /api/workspaces/:workspaceName/channels/:channelId/messages/:messageId/pin',
    variant: 'open',
    prepare: async (sc) => ({ id: await sc.makeMessage() }),
    url: (sc, v) => ch(sc.open, `/messages/${v.id}/pin`),
    expected: member(403, 200, 200),
  },
  {
    // The editor created the private channel listing the viewer; the admin is not listed.
    route: 'PUT /api/workspaces/:workspaceName/channels/:channelId/messages/:messageId/pin',
    variant: 'private',
    prepare: async (sc) => ({ id: await sc.makeMessage(sc.secret, 'editor') }),
    url: (sc, v) => ch(sc.secret, `/messages/${v.id}/pin`),
    expected: member(403, 200, 404),
  },
  {
    route: 'DELETE /api/workspaces/:workspaceName/channels/:channelId/messages/:messageId/pin',
    prepare: async (sc) => {
      const id = await sc.makeMessage();
      await sc.make('PUT', ch(sc.open, `/messages/${id}/pin`), 'admin');
      return { id };
    },
    url: (sc, v) => ch(sc.open, `/messages/${v.id}/pin`),
    expected: member(403, 200, 200),
  },

  {
    route: 'GET /api/workspaces/:workspaceName/channels/:channelId/summary',
    variant: 'open',
    url: (sc) => ch(sc.open, '/summary'),
    expected: member(200, 200, 200),
  },
  {
    route: 'GET /api/workspaces/:workspaceName/channels/:channelId/summary',
    variant: 'private',
    url: (sc) => ch(sc.secret, '/summary'),
    expected: member(200, 200, 404),
  },
  {
    route: 'POST /api/summarize',
    url: () => '/api/summarize',
    body: () => ({ messages: [{ sender: 'Ann', content: 'We ship on Friday.' }] }),
    expected: signedIn(200),
  },

  // -- Read marks and mutes -------------------------------------------------------------------------
  {
    route: 'GET /api/workspaces/:workspaceName/unread',
    url: () => ws('/unread'),
    expected: member(200, 200, 200),
  },
  {
    route: 'PUT /api/workspaces/:workspaceName/channels/:channelId/read',
    variant: 'open',
    url: (sc) => ch(sc.open, '/read'),
    body: () => ({ seq: 1 }),
    expected: member(200, 200, 200),
  },
  {
    route: 'PUT /api/workspaces/:workspaceName/channels/:channelId/read',
    variant: 'private',
    url: (sc) => ch(sc.secret, '/read'),
    body: () => ({ seq: 1 }),
    expected: member(200, 200, 404),
  },
  {
    route: 'PUT /api/workspaces/:workspaceName/channels/:channelId/mute',
    variant: 'open',
    url: (sc) => ch(sc.open, '/mute'),
    body: () => ({ muted: false }),
    expected: member(200, 200, 200),
  },
  {
    route: 'PUT /api/workspaces/:workspaceName/channels/:channelId/mute',
    variant: 'private',
    url: (sc) => ch(sc.secret, '/mute'),
    body: () => ({ muted: true }),
    expected: member(200, 200, 404),
  },
  { route: 'GET /api/direct/unread', url: () => '/api/direct/unread', expected: signedIn(200) },
  {
    // The conversation with the editor: the admin has one; the viewer may start one; nobody else.
    route: 'PUT /api/direct/:email/read',
    url: (sc) => `/api/direct/${encodeURIComponent(sc.people.editor.email)}/read`,
    body: () => ({ seq: 0 }),
    expected: only({ viewer: 200, admin: 200 }),
  },

  // -- People (whoever shares a workspace with the caller) ------------------------------------------
  { route: 'GET /api/people', url: () => '/api/people?q=&limit=5', expected: signedIn(200) },
  {
    // The editor's card: their co-members only (the removed member shares nothing with them any more).
    route: 'GET /api/people/:email',
    url: (sc) => `/api/people/${encodeURIComponent(sc.people.editor.email)}`,
    expected: only({ viewer: 200, admin: 200 }),
  },

  // -- Direct messages (admin wrote to the editor) --------------------------------------------------
  {
    // `:email` names the reader: only the caller's own conversations.
    route: 'GET /api/messages/:email',
    url: (sc) =>
      `/api/messages/${encodeURIComponent(sc.people.admin.email)}?with=${encodeURIComponent(sc.people.editor.email)}`,
    expected: only({ admin: 200 }, 403),
  },
  {
    route: 'PATCH /api/direct-messages/:messageId',
    url: (sc) => `/api/direct-messages/${sc.dm}`,
    body: () => ({ content: uniqueName('edited') }),
    expected: only({ editor: 403, admin: 200 }),
  },
  {
    route: 'DELETE /api/direct-messages/:messageId',
    prepare: async (sc) => ({ id: await sc.sendDm('admin', 'editor') }),
    url: (_sc, v) => `/api/direct-messages/${v.id}`,
    expected: only({ editor: 403, admin: 200 }),
  },
  {
    route: 'PUT /api/direct-messages/:messageId/reactions/:emoji',
    url: (sc) => `/api/direct-messages/${sc.dm}/reactions/${encodeURIComponent('👍')}`,
    expected: only({ editor: 200, admin: 200 }),
  },
  {
    route: 'DELETE /api/direct-messages/:messageId/reactions/:emoji',
    prepare: async (sc, actor) => {
      if (actor === 'admin' || actor === 'editor') {
        await sc.make('PUT', `/api/direct-messages/${sc.dm}/reactions/${encodeURIComponent('🎉')}`, actor);
      }
      return {};
    },
    url: (sc) => `/api/direct-messages/${sc.dm}/reactions/${encodeURIComponent('🎉')}`,
    expected: only({ editor: 200, admin: 200 }),
  },

  // -- Saved messages (issue 22): the caller's own; saving needs read access to the message ---------
  { route: 'GET /api/saved', url: () => '/api/saved', expected: signedIn(200) },
  { route: 'GET /api/saved/ids', url: () => '/api/saved/ids', expected: signedIn(200) },
  {
    route: 'PUT /api/saved/:kind/:messageId',
    variant: 'open channel',
    url: (sc) => `/api/saved/channel/${sc.message}`,
    expected: member(200, 200, 200),
  },
  {
    route: 'PUT /api/saved/:kind/:messageId',
    variant: 'private channel',
    prepare: async (sc) => ({ id: await sc.makeMessage(sc.secret, 'editor') }),
    url: (_sc, v) => `/api/saved/channel/${v.id}`,
    expected: member(200, 200, 404),
  },
  {
    // The admin wrote to the editor: only the two of them may save it.
    route: 'PUT /api/saved/:kind/:messageId',
    variant: 'direct',
    url: (sc) => `/api/saved/direct/${sc.dm}`,
    expected: only({ editor: 200, admin: 200 }),
  },
  {
    // Removes the caller's own saved row, if any: nobody else's can be named.
    route: 'DELETE /api/saved/:kind/:messageId',
    prepare: async (sc, actor) => {
      if (actor === 'admin' || actor === 'editor') await sc.make('PUT', `/api/saved/direct/${sc.dm}`, actor);
      return {};
    },
    url: (sc) => `/api/saved/direct/${sc.dm}`,
    expected: signedIn(204),
  },

  // -- Files ----------------------------------------------------------------------------------------
  {
    route: 'POST /api/files',
    variant: 'to the open channel',
    url: () => '/api/files',
    send: (sc, actor) => sc.uploadFile(actor, { workspaceName: sc.ws.name, channelId: sc.open }),
    expected: member(201, 201, 201),
  },
  {
    route: 'POST /api/files',
    variant: 'to the private channel',
    url: () => '/api/files',
    send: (sc, actor) => sc.uploadFile(actor, { workspaceName: sc.ws.name, channelId: sc.secret }),
    expected: member(201, 201, 404),
  },
  {
    route: 'POST /api/files',
    variant: 'to a direct conversation with the editor',
    url: () => '/api/files',
    send: (sc, actor) => sc.uploadFile(actor, { dmWith: sc.people.editor.email }),
    // Whoever shares a workspace with the editor, or already wrote to them.
    expected: only({ viewer: 201, editor: 404, admin: 201 }),
  },
  {
    route: 'GET /api/files/:id',
    url: (sc) => `/api/files/${sc.file}`,
    expected: member(200, 200, 200),
  },
  {
    route: 'GET /api/files/:id/thumbnail',
    // No thumbnail for a text file: readers are sent to the file itself.
    url: (sc) => `/api/files/${sc.file}/thumbnail`,
    expected: member(302, 302, 302),
  },
  {
    // Only the uploader, and only while no message carries it.
    route: 'DELETE /api/files/:id',
    prepare: async (sc) => {
      const res = await sc.uploadFile('editor', { workspaceName: sc.ws.name, channelId: sc.open });
      return { id: JSON.parse(res.body)._id };
    },
    url: (_sc, v) => `/api/files/${v.id}`,
    expected: member(404, 204, 404),
  },
  {
    route: 'GET /api/workspaces/:workspaceName/storage',
    url: () => ws('/storage'),
    expected: member(403, 403, 200),
  },

  // -- Calls ----------------------------------------------------------------------------------------
  { route: 'GET /api/calls/ice-servers', url: () => '/api/calls/ice-servers', expected: signedIn(200) },
  {
    route: 'POST /api/calls/rooms',
    url: () => '/api/calls/rooms',
    body: () => ({}),
    expected: signedIn(201),
  },

  // -- Boards (issue 20: the workspace's Team board; its card is the admin's) -----------------------
  { route: 'GET /api/boards', url: () => '/api/boards', expected: signedIn(200) },
  {
    route: 'POST /api/workspaces/:workspaceName/boards',
    url: (sc) => `/api/workspaces/${sc.ws.name}/boards`,
    body: () => ({ title: uniqueName('board') }),
    expected: member(403, 403, 201),
  },
  {
    route: 'GET /api/boards/:boardId',
    prepare: async (sc) => ({ id: (await teamCard(sc)).board }),
    url: (_sc, v) => `/api/boards/${v.id}`,
    expected: member(200, 200, 200),
  },
  {
    route: 'GET /api/boards/:boardId/activity',
    prepare: async (sc) => ({ id: (await teamCard(sc)).board }),
    url: (_sc, v) => `/api/boards/${v.id}/activity`,
    expected: member(200, 200, 200),
  },
  {
    route: 'PATCH /api/boards/:boardId',
    prepare: async (sc) => ({ id: (await teamCard(sc)).board }),
    url: (_sc, v) => `/api/boards/${v.id}`,
    body: () => ({ title: uniqueName('renamed') }),
    expected: member(403, 403, 200),
  },
  {
    route: 'DELETE /api/boards/:boardId',
    prepare: async (sc) => ({
      id: (await sc.make('POST', `/api/workspaces/${sc.ws.name}/boards`, 'admin', { title: uniqueName('b') }))
        ._id,
    }),
    url: (_sc, v) => `/api/boards/${v.id}`,
    expected: member(403, 403, 204),
  },
  {
    route: 'GET /api/tasks/preview/:id',
    prepare: async (sc) => ({ id: (await teamCard(sc)).task }),
    url: (_sc, v) => `/api/tasks/preview/${v.id}`,
    expected: member(200, 200, 200),
  },
  {
    route: 'POST /api/files',
    variant: 'to a card of the team board',
    url: () => '/api/files',
    send: async (sc, actor) => sc.uploadFile(actor, { taskId: (await teamCard(sc)).task }),
    expected: member(403, 201, 201),
  },
  {
    route: 'POST /api/tasks/:id/attachments',
    prepare: async (sc, actor) => {
      const { task } = await teamCard(sc);
      // Each caller attaches their own upload (an editor's or admin's; others' never get this far).
      const by = actor === 'editor' || actor === 'admin' ? actor : 'admin';
      const res = await sc.uploadFile(by, { taskId: task });
      return { id: task, fileId: JSON.parse(res.body)._id };
    },
    url: (_sc, v) => `/api/tasks/${v.id}/attachments`,
    body: (_sc, v) => ({ fileId: v.fileId }),
    expected: member(403, 201, 201),
  },
  {
    route: 'DELETE /api/tasks/:id/attachments/:fileId',
    prepare: async (sc) => {
      const { task } = await teamCard(sc);
      const fileId = JSON.parse((await sc.uploadFile('admin', { taskId: task })).body)._id;
      await sc.make('POST', `/api/tasks/${task}/attachments`, 'admin', { fileId });
      return { id: task, fileId };
    },
    url: (_sc, v) => `/api/tasks/${v.id}/attachments/${v.fileId}`,
    expected: member(403, 200, 200),
  },

  // -- Tasks (the admin's lists; the task is assigned to the editor) --------------------------------
  { route: 'GET /api/tasklists', url: () => '/api/tasklists', expected: signedIn(200) },
  {
    route: 'POST /api/tasklists',
    url: () => '/api/tasklists',
    body: () => ({ title: uniqueName('list') }),
    expected: signedIn(201),
  },
  {
    route: 'GET /api/tasklist/:taskListId',
    url: (sc) => `/api/tasklist/${sc.list}`,
    expected: only({ admin: 200 }),
  },
  {
    route: 'PATCH /api/tasklists/:taskListId',
    url: (sc) => `/api/tasklists/${sc.list}`,
    body: () => ({ title: uniqueName('renamed') }),
    expected: only({ admin: 200 }),
  },
  {
    route: 'DELETE /api/tasklists/:taskListId',
    prepare: async (sc) => ({
      id: (await sc.make('POST', '/api/tasklists', 'admin', { title: uniqueName('l') }))._id,
    }),
    url: (_sc, v) => `/api/tasklists/${v.id}`,
    expected: only({ admin: 204 }),
  },
  {
    route: 'GET /api/tasks',
    url: (sc) => `/api/tasks?taskListId=${sc.list}`,
    expected: only({ admin: 200 }),
  },
  { route: 'GET /api/tasks/archived', url: () => '/api/tasks/archived', expected: signedIn(200) },
  { route: 'GET /api/tasks/assigned', url: () => '/api/tasks/assigned', expected: signedIn(200) },
  {
    route: 'POST /api/tasks',
    url: () => '/api/tasks',
    body: (sc) => ({ title: uniqueName('task'), taskListId: sc.list }),
    expected: only({ admin: 201 }),
  },
  {
    route: 'GET /api/task/:id',
    url: (sc) => `/api/task/${sc.task}`,
    expected: only({ editor: 200, admin: 200 }),
  },
  {
    // Assigned while they were colleagues: leaving the only shared workspace ends the assignee's access.
    route: 'GET /api/task/:id',
    variant: 'assigned to the removed member too',
    url: (sc) => `/api/task/${sc.sharedTask}`,
    expected: only({ editor: 200, admin: 200 }),
  },
  {
    route: 'POST /api/tasks/:id/comments',
    variant: 'assigned to the removed member too',
    url: (sc) => `/api/tasks/${sc.sharedTask}/comments`,
    body: () => ({ text: 'matrix comment' }),
    expected: only({ editor: 201, admin: 201 }),
  },
  {
    route: 'PUT /api/tasks/:id',
    url: (sc) => `/api/tasks/${sc.task}`,
    body: () => ({ description: uniqueName('described') }),
    expected: only({ editor: 200, admin: 200 }),
  },
  {
    route: 'PUT /api/tasks/:id/move',
    prepare: async (sc) => ({ id: await sc.makeTask({ assign: [sc.people.editor.id] }) }),
    url: (_sc, v) => `/api/tasks/${v.id}/move`,
    body: (sc) => ({ newTaskListId: sc.list2 }),
    expected: only({ editor: 403, admin: 200 }),
  },
  {
    route: 'PUT /api/tasks/:id/position',
    url: (sc) => `/api/tasks/${sc.task}/position`,
    body: () => ({ position: 0 }),
    expected: only({ editor: 403, admin: 200 }),
  },
  {
    route: 'PUT /api/tasks/:id/deadline',
    url: (sc) => `/api/tasks/${sc.task}/deadline`,
    body: () => ({ deadline: '2031-01-02' }),
    expected: only({ editor: 200, admin: 200 }),
  },
  {
    route: 'PUT /api/tasks/:id/assignees',
    prepare: async (sc) => ({ id: await sc.makeTask({ assign: [sc.people.editor.id] }) }),
    url: (_sc, v) => `/api/tasks/${v.id}/assignees`,
    body: (sc) => ({ userIds: [sc.people.editor.id, sc.people.viewer.id] }),
    expected: only({ editor: 403, admin: 200 }),
  },
  {
    route: 'POST /api/tasks/:id/comments',
    url: (sc) => `/api/tasks/${sc.task}/comments`,
    body: () => ({ text: 'matrix comment' }),
    expected: only({ editor: 201, admin: 201 }),
  },
  {
    route: 'POST /api/tasks/:id/checklist',
    url: (sc) => `/api/tasks/${sc.task}/checklist`,
    body: () => ({ title: uniqueName('step') }),
    expected: only({ editor: 201, admin: 201 }),
  },
  {
    route: 'PUT /api/tasks/:id/checklist/:itemId',
    url: (sc) => `/api/tasks/${sc.task}/checklist/${sc.checklistItem}`,
    body: () => ({ title: uniqueName('step') }),
    expected: only({ editor: 200, admin: 200 }),
  },
  {
    route: 'DELETE /api/tasks/:id/checklist/:itemId',
    prepare: async (sc) => {
      const detail = await sc.make('POST', `/api/tasks/${sc.task}/checklist`, 'admin', {
        title: uniqueName('gone'),
      });
      return { item: detail.checklist.at(-1)._id };
    },
    url: (sc, v) => `/api/tasks/${sc.task}/checklist/${v.item}`,
    expected: only({ editor: 200, admin: 200 }),
  },
  {
    route: 'POST /api/tasks/:id/labels',
    url: (sc) => `/api/tasks/${sc.task}/labels`,
    body: () => ({ label: uniqueName('label') }),
    expected: only({ editor: 201, admin: 201 }),
  },
  {
    route: 'DELETE /api/tasks/:id/labels/:label',
    prepare: async (sc) => {
      const label = uniqueName('label');
      await sc.make('POST', `/api/tasks/${sc.task}/labels`, 'admin', { label });
      return { label };
    },
    url: (sc, v) => `/api/tasks/${sc.task}/labels/${v.label}`,
    expected: only({ editor: 200, admin: 200 }),
  },
  {
    route: 'POST /api/tasks/:id/archive',
    prepare: async (sc) => ({ id: await sc.makeTask({ assign: [sc.people.editor.id] }) }),
    url: (_sc, v) => `/api/tasks/${v.id}/archive`,
    body: () => ({}),
    expected: only({ editor: 403, admin: 200 }),
  },
  {
    route: 'POST /api/tasks/:id/restore',
    prepare: async (sc) => ({ id: await sc.makeTask({ assign: [sc.people.editor.id], archived: true }) }),
    url: (_sc, v) => `/api/tasks/${v.id}/restore`,
    body: () => ({}),
    expected: only({ editor: 403, admin: 200 }),
  },
  { route: 'GET /api/tasks/notifications', url: () => '/api/tasks/notifications', expected: signedIn(200) },
  {
    route: 'POST /api/tasks/notifications/read-all',
    url: () => '/api/tasks/notifications/read-all',
    body: () => ({}),
    expected: signedIn(200),
  },
  {
    route: 'POST /api/tasks/notifications/:id/read',
    url: (sc) => `/api/tasks/notifications/${sc.notification}/read`,
    body: () => ({}),
    expected: only({ editor: 200 }),
  },

  // -- Search (everyone signed in; what each may read is pinned in features/search/search.test.ts) ----
  { route: 'GET /api/search', url: () => '/api/search?q=hello', expected: signedIn(200) },
  // The caller's own destinations only (switcher.test.ts checks what each of them sees).
  { route: 'GET /api/switcher', url: () => '/api/switcher', expected: signedIn(200) },

  // -- Notification centre (the caller's own only; someone else's ids change nothing) ---------------
  { route: 'GET /api/notifications', url: () => '/api/notifications', expected: signedIn(200) },
  {
    route: 'POST /api/notifications/read',
    url: () => '/api/notifications/read',
    // The editor's task notification: for everyone else an id that is not theirs, answered alike.
    body: (sc) => ({ ids: [sc.notification] }),
    expected: signedIn(200),
  },
  {
    route: 'POST /api/notifications/read-all',
    url: () => '/api/notifications/read-all',
    body: () => ({}),
    expected: signedIn(200),
  },
  {
    route: 'GET /api/workspaces/:workspaceName/mentions',
    url: () => ws('/mentions'),
    expected: member(200, 200, 200),
  },

  // -- Presence (a workspace's members to its members; one person to whoever shares a workspace) ----
  {
    route: 'GET /api/workspaces/:workspaceName/presence',
    url: () => ws('/presence'),
    expected: member(200, 200, 200),
  },
  {
    // Someone who shares no workspace with the editor gets the same 404 as for an unknown e-mail.
    route: 'GET /api/presence/:email',
    url: (sc) => `/api/presence/${encodeURIComponent(sc.people.editor.email)}`,
    expected: only({ viewer: 200, editor: 200, admin: 200 }),
  },

  // -- Projects (the editor linked one in the workspace) --------------------------------------------
  {
    route: 'GET /api/workspaces/:workspaceId/projects',
    url: (sc) => `/api/workspaces/${sc.ws.id}/projects`,
    expected: member(200, 200, 200),
  },
  {
    route: 'GET /api/workspaces/:workspaceId/users',
    url: (sc) => `/api/workspaces/${sc.ws.id}/users`,
    expected: member(200, 200, 200),
  },
  {
    route: 'POST /api/projects',
    prepare: async (sc) => ({
      repo: sc.github.addRepository('octo-org', uniqueName('repo')).seed(1, 1).fullName,
    }),
    url: () => '/api/projects',
    body: (sc, v) => ({ repositoryUrl: `https://github.com/${v.repo}`, workspaceId: sc.ws.id }),
    // The workspace is named in the body: an outsider gets the workspace's 404 all the same.
    expected: member(403, 201, 201),
  },
  {
    route: 'POST /api/projects/:projectId/sync',
    url: (sc) => `/api/projects/${sc.project}/sync`,
    body: () => ({}),
    expected: member(403, 200, 200),
  },
  {
    route: 'PATCH /api/projects/:projectId/:kind/:itemId/assign',
    url: (sc) => `/api/projects/${sc.project}/pullrequest/${sc.pullRequest}/assign`,
    body: (sc) => ({ userId: sc.people.viewer.id }),
    expected: member(403, 200, 200),
  },
  {
    route: 'DELETE /api/projects/:projectId',
    prepare: async (sc) => {
      const repo = sc.github.addRepository('octo-org', uniqueName('repo')).seed(1, 0);
      const linked = await sc.make('POST', '/api/projects', 'editor', {
        repositoryUrl: `https://github.com/${repo.fullName}`,
        workspaceId: sc.ws.id,
      });
      return { id: linked._id };
    },
    url: (_sc, v) => `/api/projects/${v.id}`,
    expected: member(403, 403, 204),
  },
];

/** The registered API routes (HEAD answers are Fastify's automatic copies of the GETs). */
function registeredRoutes() {
  return [
    ...new Set(
      s.t.routes
        .filter(
          (r) =>
            r.method !== 'HEAD' &&
            (r.url.startsWith('/api/') ||
              r.url.startsWith('/healthz') ||
              r.url.startsWith('/readyz') ||
              r.url.startsWith('/metrics')),
        )
        .map((r) => `${r.method} ${r.url}`),
    ),
  ].sort();
}

const rowName = (row: Row) => (row.variant ? `${row.route} (${row.variant})` : row.route);

describe('completeness', () => {
  it('has rows for every registered route, and no row for a route that does not exist', () => {
    const registered = registeredRoutes();
    const covered = new Set(ROWS.map((r) => r.route));
    expect(registered.length).toBeGreaterThan(80);
    expect(
      registered.filter((r) => !covered.has(r)),
      'routes without rows',
    ).toEqual([]);
    expect(
      [...covered].filter((r) => !registered.includes(r)),
      'rows that match no route',
    ).toEqual([]);
  });

  it('gives every row an answer for every actor', () => {
    for (const row of ROWS)
      expect(Object.keys(row.expected).sort(), rowName(row)).toEqual([...ACTORS].sort());
  });

  it('marks a route public only when it answers without a session', () => {
    for (const row of ROWS) {
      if (!row.public) {
        expect(row.expected.anonymous, rowName(row)).toBe(401);
        expect(row.expected.revoked, rowName(row)).toBe(401);
      }
    }
  });
});

describe("a removed member's sockets, opened while they were a member", () => {
  // Runs first, a moment after the removal: well inside the 10 s periodic re-checks.
  it('are out of the call at once: the room lists nobody to them and relays nothing', async () => {
    const socket = s.removedSockets['/mesh'] as Socket;
    const peer = await meshPeer(s.open, 'editor');
    try {
      const started = Date.now();
      let users: { id: string }[] = [{ id: 'not asked yet' }];
      while (users.length > 0 && Date.now() - started < 2000) {
        users = ((await socket.timeout(5000).emitWithAck('get-users', {})) as { users: { id: string }[] })
          .users;
        if (users.length > 0) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(users).toEqual([]);
      expect(await ack(socket, 'offer', { to: peer.id, offer })).toBe('forbidden');
    } finally {
      await ack(peer, 'leave', {});
    }
  });

  it('are out of the channel rooms: typing there reaches nobody', async () => {
    const observer = await socketOf('/chat', 'admin');
    expect(await ack(observer, 'joinChannel', ref(s.open))).toBe('ok');
    const socket = s.removedSockets['/chat'] as Socket;
    const seen = collectTyping(observer);
    socket.emit('typing', { ...ref(s.open), isTyping: true });
    await typingHandled(socket, observer);
    // Positive control: a member's typing in the same room reaches the same listener.
    const member = await socketOf('/chat', 'editor');
    expect(await ack(member, 'joinChannel', ref(s.open))).toBe('ok');
    member.emit('typing', { ...ref(s.open), isTyping: true });
    await until(() => seen.some((e) => e.userId === s.people.editor.id));
    member.emit('typing', { ...ref(s.open), isTyping: false });
    expect(seen.filter((e) => e.userId === s.people.removed.id)).toEqual([]);
  });
});

const counts = {
  socketEvents: 0,
  socketRefusals: 0,
  requests: 0,
  refusals: 0,
  digestMs: 0,
  prepareMs: 0,
  requestMs: 0,
};
let lastDigest: Record<string, string> | undefined;

describe.each(ROWS.map((row) => [rowName(row), row] as const))('%s', (_name, row) => {
  it.each(ACTORS)('as %s', async (actor) => {
    let mark = Date.now();
    const v = row.prepare ? await row.prepare(s, actor) : {};
    counts.prepareMs += Date.now() - mark;
    const expected = row.expected[actor];
    const method = row.route.split(' ')[0] as InjectOptions['method'];
    const refused = expected >= 400;
    // The digest after the last refusal still holds when nothing ran since (no prepare, no success).
    if (row.prepare) lastDigest = undefined;
    // A success may finish writing after its answer (notifications): let it settle before measuring.
    if (refused && !lastDigest) await new Promise((resolve) => setTimeout(resolve, 20));
    mark = Date.now();
    const before = refused ? (lastDigest ?? (await digest(s.t))) : undefined;
    counts.digestMs += Date.now() - mark;
    lastDigest = undefined;
    mark = Date.now();
    let res: { statusCode: number; body: string };
    if (row.send) {
      res = await row.send(s, actor, v);
    } else if (row.route === 'POST /api/logout' && actor !== 'anonymous' && actor !== 'revoked') {
      // Logging out must not end the session the other rows use: a fresh one of the same person.
      const other = await s.make('POST', '/api/login', 'anonymous', {
        email: s.people[actor].email,
        password: s.people[actor].password,
      });
      res = await s.t.app.inject({
        method,
        url: row.url(s, v),
        headers: { authorization: `Bearer ${other.token}` },
        payload: {},
      });
    } else {
      res = await s.call(method, row.url(s, v), actor, row.body?.(s, v));
    }
    counts.requests++;
    counts.requestMs += Date.now() - mark;
    const label = `${rowName(row)} as ${actor}: ${res.statusCode} ${res.body.slice(0, 300)}`;
    expect(res.statusCode, label).toBe(expected);
    if (refused) {
      counts.refusals++;
      expect(JSON.parse(res.body).message, label).toEqual(expect.any(String));
      if (expected === 401 && !row.public)
        expect(JSON.parse(res.body), label).toEqual({ message: 'Please log in' });
      // Everything stored, hashed: a refusal wrote nothing anywhere.
      mark = Date.now();
      const after = await digest(s.t);
      counts.digestMs += Date.now() - mark;
      expect(after, `a refusal changed stored rows: ${label}`).toEqual(before);
      lastDigest = after;
    }
  });
});

afterAll(() => {
  console.info(
    `authorization matrix: ${Date.now() - started} ms, ${ROWS.length} rows × ${ACTORS.length} actors, ${counts.requests} requests, ${counts.refusals} refusals; ${counts.socketEvents} socket events (${counts.socketRefusals} refused); ms in digests ${counts.digestMs}, prepares ${counts.prepareMs}, requests ${counts.requestMs}`,
  );
});

// -- Socket.IO ------------------------------------------------------------------------------------

type Person = Exclude<Actor, 'anonymous' | 'revoked'>;
const PEOPLE = ACTORS.filter((a): a is Person => a !== 'anonymous' && a !== 'revoked');
/** What an event came to: `ok`, or the refusal's reason as the ack said it (or what was observed). */
type Outcome = string;

interface SocketRow {
  namespace: string;
  /** The event as the server listens to it; `connect` is the handshake itself. */
  event: string;
  variant?: string;
  run: (sc: Scene, actor: Person, socket: Socket) => Promise<Outcome>;
  expected: Record<Person, Outcome>;
}

const sockets = new Map<string, Socket>();
beforeAll(() => {
  // The removed member's sockets were connected (and in the channels' rooms) before the removal.
  for (const [namespace, socket] of Object.entries(s.removedSockets))
    sockets.set(`${namespace} removed`, socket);
});
/** One connected socket per namespace and person, reused by the rows. */
async function socketOf(namespace: string, actor: Person): Promise<Socket> {
  const key = `${namespace} ${actor}`;
  const known = sockets.get(key);
  if (known?.connected) return known;
  const socket = await s.socket(namespace, actor);
  sockets.set(key, socket);
  return socket;
}

async function ack(socket: Socket, event: string, payload: unknown): Promise<Outcome> {
  const answer = (await socket.timeout(5000).emitWithAck(event, payload)) as {
    ok: boolean;
    message?: unknown;
    reason?: string;
    error?: string;
  };
  if (answer.ok) return 'ok';
  return (
    answer.reason ??
    answer.error ??
    (typeof answer.message === 'string' ? answer.message : JSON.stringify(answer))
  );
}

/** Every `userTyping` that reaches `socket` from now on (the listener stays for the socket's life). */
function collectTyping(socket: Socket): Partial<UserTypingEvent>[] {
  const seen: Partial<UserTypingEvent>[] = [];
  socket.on('userTyping', (e: Partial<UserTypingEvent>) => seen.push(e));
  return seen;
}

/**
 * Resolves once whatever `typer`'s last `typing` relayed has reached `observer`, with no waiting
 * window: the server handles a socket's events in order and relays typing synchronously, so an
 * acknowledged request from the typer proves the typing was handled (and any relay written), and an
 * acknowledged request from the observer comes back on its connection after that relay.
 */
async function typingHandled(typer: Socket, observer: Socket) {
  await typer.timeout(5000).emitWithAck('leaveChannel', { channelId: randomUUID(), workspaceName: 'none' });
  await observer
    .timeout(5000)
    .emitWithAck('leaveChannel', { channelId: randomUUID(), workspaceName: 'none' });
}

async function until(check: () => boolean, ms = 5000) {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** `rest` for the listed people, `refusal` for the other signed-in ones. */
const outcomes = (allowed: Partial<Record<Person, Outcome>>, refusal: Outcome): Record<Person, Outcome> =>
  Object.fromEntries(PEOPLE.map((p) => [p, allowed[p] ?? refusal])) as Record<Person, Outcome>;
const NOT_FOUND = 'Channel not found';
const readers = (refusal = NOT_FOUND) => outcomes({ viewer: 'ok', editor: 'ok', admin: 'ok' }, refusal);
const secretReaders = (refusal = NOT_FOUND) => outcomes({ viewer: 'ok', editor: 'ok' }, refusal);
const allOk = () => outcomes({}, 'ok');

const ref = (channelId: string) => ({ workspaceName: s.ws.name, channelId });
const offer = { type: 'offer', sdp: 'v=0 matrix' };
const answer = { type: 'answer', sdp: 'v=0 matrix' };
const candidate = { candidate: 'candidate:1 1 udp 1 127.0.0.1 9 typ host', sdpMid: '0', sdpMLineIndex: 0 };

/**
 * The admin rings the editor (who has a /video tab open); `then` runs while it rings; hung up after.
 * The admin's own socket places the call when the admin is the one acting (a call belongs to the
 * socket that carries it); otherwise a fresh one, so the flood guard of one socket is not exhausted.
 */
async function duringCall(sc: Scene, actor: Person, socket: Socket, then: () => Promise<Outcome>) {
  await socketOf('/video', 'editor');
  const caller = actor === 'admin' ? socket : await sc.socket('/video', 'admin');
  const rang = await ack(caller, 'initiate-call', { toEmail: sc.people.editor.email, offer });
  if (rang !== 'ok') throw new Error(`could not set up the call: ${rang}`);
  try {
    return await then();
  } finally {
    await ack(caller, 'end-call', { to: sc.people.editor.email });
    if (caller !== socket) caller.close();
  }
}

/** A mesh room with the editor in it (the admin for the private channel's sake is not listed). */
async function meshPeer(room: string, peer: Person = 'editor') {
  const socket = await socketOf('/mesh', peer);
  const joined = await ack(socket, 'join', { room });
  if (joined !== 'ok') throw new Error(`${peer} could not join ${room}: ${joined}`);
  return socket;
}

/** The actor tries to join `room`, then relays `event` to the peer there; always leaves after. */
async function relayTo(room: string, actor: Person, socket: Socket, event: string, payload: object) {
  const peer = await meshPeer(room, actor === 'editor' ? 'viewer' : 'editor');
  try {
    await ack(socket, 'join', { room });
    return await ack(socket, event, { to: peer.id, ...payload });
  } finally {
    await ack(socket, 'leave', {});
    await ack(peer, 'leave', {});
  }
}

const SOCKET_ROWS: SocketRow[] = [
  ...['/chat', '/dm', '/tasks', '/video', '/mesh', '/notifications', '/presence'].map(
    (namespace): SocketRow => ({
      namespace,
      event: 'connect',
      run: async (_sc, actor) => ((await socketOf(namespace, actor)).connected ? 'ok' : 'not connected'),
      expected: allOk(),
    }),
  ),
  {
    namespace: '/tasks',
    event: 'watchBoard',
    run: async (sc, _a, socket) => ack(socket, 'watchBoard', { boardId: (await teamCard(sc)).board }),
    expected: readers('Board not found'),
  },
  {
    namespace: '/tasks',
    event: 'unwatchBoard',
    run: async (sc, _a, socket) => ack(socket, 'unwatchBoard', { boardId: (await teamCard(sc)).board }),
    expected: allOk(),
  },
  {
    namespace: '/chat',
    event: 'joinChannel',
    variant: 'open',
    run: async (sc, _a, socket) => ack(socket, 'joinChannel', ref(sc.open)),
    expected: readers(),
  },
  {
    namespace: '/chat',
    event: 'joinChannel',
    variant: 'private',
    run: async (sc, _a, socket) => ack(socket, 'joinChannel', ref(sc.secret)),
    expected: secretReaders(),
  },
  {
    // Leaving only ever takes the caller's own socket out of a room.
    namespace: '/chat',
    event: 'leaveChannel',
    run: async (sc, _a, socket) => ack(socket, 'leaveChannel', ref(sc.open)),
    expected: allOk(),
  },
  {
    // Typing reaches the channel only from a socket that was let into it.
    namespace: '/chat',
    event: 'typing',
    run: async (sc, actor, socket) => {
      const observer = await socketOf('/chat', actor === 'admin' ? 'editor' : 'admin');
      if ((await ack(observer, 'joinChannel', ref(sc.open))) !== 'ok')
        throw new Error('observer cannot join');
      await ack(socket, 'joinChannel', ref(sc.open));
      const seen = collectTyping(observer);
      socket.emit('typing', { ...ref(sc.open), isTyping: true });
      // No waiting window: the relay, if any, has arrived once this resolves (readers' rows are the
      // positive control: the same code answers 'ok' for them).
      await typingHandled(socket, observer);
      const delivered = seen.some((e) => e.channelId === sc.open && e.userId === sc.people[actor].id);
      socket.emit('typing', { ...ref(sc.open), isTyping: false });
      return delivered ? 'ok' : 'dropped';
    },
    expected: readers('dropped'),
  },
  {
    namespace: '/chat',
    event: 'sendMessage',
    variant: 'open',
    run: async (sc, _a, socket) =>
      ack(socket, 'sendMessage', { ...ref(sc.open), clientId: randomUUID(), message: { content: 'matrix' } }),
    expected: readers(),
  },
  {
    namespace: '/chat',
    event: 'sendMessage',
    variant: 'private',
    run: async (sc, _a, socket) =>
      ack(socket, 'sendMessage', {
        ...ref(sc.secret),
        clientId: randomUUID(),
        message: { content: 'matrix' },
      }),
    expected: secretReaders(),
  },
  {
    namespace: '/dm',
    event: 'register',
    run: async (_sc, _a, socket) => ack(socket, 'register', {}),
    expected: allOk(),
  },
  {
    // To the editor: whoever shares a workspace with them (or already wrote to them).
    namespace: '/dm',
    event: 'sendMessage',
    run: async (sc, _a, socket) =>
      ack(socket, 'sendMessage', {
        receiverEmail: sc.people.editor.email,
        clientId: randomUUID(),
        content: 'hi',
      }),
    expected: outcomes({ viewer: 'ok', admin: 'ok' }, 'Recipient not found'),
  },
  {
    namespace: '/video',
    event: 'register-email',
    run: async (_sc, _a, socket) => ack(socket, 'register-email', {}),
    expected: allOk(),
  },
  {
    // Calling the editor (online): only people who share a workspace with them.
    namespace: '/video',
    event: 'initiate-call',
    run: async (sc, _a, socket) => {
      await socketOf('/video', 'editor');
      const outcome = await ack(socket, 'initiate-call', { toEmail: sc.people.editor.email, offer });
      if (outcome === 'ok') await ack(socket, 'end-call', { to: sc.people.editor.email });
      return outcome;
    },
    expected: outcomes({ viewer: 'ok', admin: 'ok' }, 'unavailable'),
  },
  {
    // The admin rings the editor: nobody but the editor can pick up, whatever e-mail they name.
    namespace: '/video',
    event: 'accept-call',
    run: async (sc, actor, socket) =>
      duringCall(sc, actor, socket, () => ack(socket, 'accept-call', { to: sc.people.admin.email, answer })),
    expected: outcomes({ editor: 'ok' }, 'no call'),
  },
  {
    namespace: '/video',
    event: 'reject-call',
    run: async (sc, actor, socket) =>
      duringCall(sc, actor, socket, () => ack(socket, 'reject-call', { to: sc.people.admin.email })),
    expected: outcomes({ editor: 'ok' }, 'no call'),
  },
  {
    namespace: '/video',
    event: 'end-call',
    run: async (sc, actor, socket) =>
      duringCall(sc, actor, socket, () =>
        ack(socket, 'end-call', { to: actor === 'admin' ? sc.people.editor.email : sc.people.admin.email }),
      ),
    expected: outcomes({ editor: 'ok', admin: 'ok' }, 'no call'),
  },
  {
    namespace: '/video',
    event: 'candidate',
    run: async (sc, actor, socket) =>
      duringCall(sc, actor, socket, () =>
        ack(socket, 'candidate', {
          to: actor === 'admin' ? sc.people.editor.email : sc.people.admin.email,
          candidate,
        }),
      ),
    expected: outcomes({ editor: 'ok', admin: 'ok' }, 'no call'),
  },
  {
    namespace: '/mesh',
    event: 'join',
    variant: 'open channel',
    run: async (sc, _a, socket) => {
      const outcome = await ack(socket, 'join', { room: sc.open });
      await ack(socket, 'leave', {});
      return outcome;
    },
    expected: readers('forbidden'),
  },
  {
    namespace: '/mesh',
    event: 'join',
    variant: 'private channel',
    run: async (sc, _a, socket) => {
      const outcome = await ack(socket, 'join', { room: sc.secret });
      await ack(socket, 'leave', {});
      return outcome;
    },
    expected: secretReaders('forbidden'),
  },
  {
    // Ad-hoc rooms are links: anyone signed in who has one may join.
    namespace: '/mesh',
    event: 'join',
    variant: 'ad-hoc room',
    run: async (sc, _a, socket) => {
      const room = (await sc.make('POST', '/api/calls/rooms', 'admin', {})).roomId;
      const outcome = await ack(socket, 'join', { room });
      await ack(socket, 'leave', {});
      return outcome;
    },
    expected: allOk(),
  },
  {
    namespace: '/mesh',
    event: 'leave',
    run: async (_sc, _a, socket) => ack(socket, 'leave', {}),
    expected: allOk(),
  },
  {
    // The list is of the caller's own room: someone kept out of the channel's call sees nobody in it.
    namespace: '/mesh',
    event: 'get-users',
    run: async (sc, actor, socket) => {
      const peer = await meshPeer(sc.open, actor === 'editor' ? 'viewer' : 'editor');
      try {
        await ack(socket, 'join', { room: sc.open });
        const answer = (await socket.timeout(5000).emitWithAck('get-users', {})) as {
          users?: { id: string }[];
        };
        return answer.users?.some((u) => u.id === peer.id) ? 'ok' : 'nobody';
      } finally {
        await ack(socket, 'leave', {});
        await ack(peer, 'leave', {});
      }
    },
    expected: readers('nobody'),
  },
  {
    namespace: '/mesh',
    event: 'offer',
    run: async (sc, actor, socket) => relayTo(sc.open, actor, socket, 'offer', { offer }),
    expected: readers('forbidden'),
  },
  {
    namespace: '/mesh',
    event: 'answer',
    run: async (sc, actor, socket) => relayTo(sc.open, actor, socket, 'answer', { answer }),
    expected: readers('forbidden'),
  },
  {
    namespace: '/mesh',
    event: 'candidate',
    run: async (sc, actor, socket) => relayTo(sc.open, actor, socket, 'candidate', { candidate }),
    expected: readers('forbidden'),
  },
  {
    // Mute state: only a participant of a room may announce it (to that room).
    namespace: '/mesh',
    event: 'media-state',
    run: async (sc, actor, socket) => {
      const peer = await meshPeer(sc.open, actor === 'editor' ? 'viewer' : 'editor');
      try {
        await ack(socket, 'join', { room: sc.open });
        return await ack(socket, 'media-state', { audioMuted: true, videoMuted: false });
      } finally {
        await ack(socket, 'leave', {});
        await ack(peer, 'leave', {});
      }
    },
    expected: readers('forbidden'),
  },
  {
    // Naming one's SFU feed takes a grant of an SFU room; this server has no Janus, so the rooms are
    // mesh rooms and nobody, in the room or not, has a feed to name (calls.sfu.test.ts has the grants).
    namespace: '/mesh',
    event: 'sfu-joined',
    run: async (sc, _a, socket) => {
      try {
        await ack(socket, 'join', { room: sc.open });
        return await ack(socket, 'sfu-joined', {});
      } finally {
        await ack(socket, 'leave', {});
      }
    },
    expected: outcomes({}, 'forbidden'),
  },
  {
    // "Meeting in progress": only readers of the channel may follow its meeting.
    namespace: '/mesh',
    event: 'watch-meeting',
    variant: 'open channel',
    run: async (sc, _a, socket) => {
      const outcome = await ack(socket, 'watch-meeting', { room: sc.open });
      await ack(socket, 'unwatch-meeting', {});
      return outcome;
    },
    expected: readers('forbidden'),
  },
  {
    namespace: '/mesh',
    event: 'watch-meeting',
    variant: 'private channel',
    run: async (sc, _a, socket) => {
      const outcome = await ack(socket, 'watch-meeting', { room: sc.secret });
      await ack(socket, 'unwatch-meeting', {});
      return outcome;
    },
    expected: secretReaders('forbidden'),
  },
  {
    namespace: '/mesh',
    event: 'unwatch-meeting',
    run: async (_sc, _a, socket) => ack(socket, 'unwatch-meeting', {}),
    expected: allOk(),
  },
  {
    // A tab reports only its own state; the session decides whose it is.
    namespace: '/presence',
    event: 'activity',
    run: async (_sc, _a, socket) => ack(socket, 'activity', { state: 'idle' }),
    expected: allOk(),
  },
];

const RESERVED = new Set(['disconnect', 'disconnecting', 'error', 'newListener', 'removeListener']);

/** The namespaces the server registered, and the events a connected socket listens to in each. */
async function handledEvents(): Promise<string[]> {
  const found: string[] = [];
  for (const name of [...s.t.io._nsps.keys()].filter((n) => n !== '/')) {
    const client = await socketOf(name, 'admin');
    // Connection handlers may register listeners after an await: give them a moment.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const server = s.t.io.of(name).sockets.get(client.id ?? '');
    found.push(`${name} connect`);
    for (const event of server?.eventNames() ?? []) {
      if (!RESERVED.has(String(event))) found.push(`${name} ${String(event)}`);
    }
  }
  return found.sort();
}

const socketRowName = (row: SocketRow) =>
  `${row.namespace} ${row.event}${row.variant ? ` (${row.variant})` : ''}`;

describe('socket completeness', () => {
  it('has rows for every namespace and every event the server handles, and none for anything else', async () => {
    const handled = await handledEvents();
    const covered = new Set(SOCKET_ROWS.map((r) => `${r.namespace} ${r.event}`));
    expect(handled.length).toBeGreaterThan(20);
    expect(
      handled.filter((e) => !covered.has(e)),
      'events without rows',
    ).toEqual([]);
    expect(
      [...covered].filter((e) => !handled.includes(e)),
      'rows that match no event',
    ).toEqual([]);
  });
});

describe.each(SOCKET_ROWS.map((row) => [socketRowName(row), row] as const))('%s', (_name, row) => {
  it.each(['anonymous', 'revoked'] as const)('as %s: the handshake is refused', async (actor) => {
    await expect(s.socket(row.namespace, actor)).rejects.toThrow('unauthorized');
  });

  it.each(PEOPLE)('as %s', async (actor) => {
    const socket = await socketOf(row.namespace, actor);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const before = await digest(s.t);
    const outcome = await row.run(s, actor, socket);
    counts.socketEvents++;
    expect(outcome, `${socketRowName(row)} as ${actor}`).toBe(row.expected[actor]);
    if (outcome !== 'ok') {
      counts.socketRefusals++;
      expect(
        await digest(s.t),
        `a refused event changed stored rows: ${socketRowName(row)} as ${actor}`,
      ).toEqual(before);
    }
  });
});
