import { INVITATION_MESSAGES, type MyInvitation, type WorkspaceInvitation } from '@cohort/shared/invitations';
import {
  NOTIFICATION_EVENTS,
  NOTIFICATIONS_NAMESPACE,
  type Notification,
  type NotificationPage,
} from '@cohort/shared/notifications';
import { PENDING_INVITATIONS_MAX, WORKSPACE_MESSAGES } from '@cohort/shared/workspaces';
import { and, eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser, uniqueEmail } from '../../../test/factories.ts';
import { type SmtpServerFake, startSmtpServer } from '../../../test/fakes/smtp.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { users, workspaceMembers } from '../../db/schema.ts';
import { baseUrl, next, openSocket } from '../chat/chat.test-helpers.ts';
import {
  acceptInvitation,
  client,
  createChannel,
  createWorkspace,
  snapshotWorkspace,
  uniqueName,
  wsUrl,
} from './test-fixtures.ts';
import type { MembershipEventMap } from './workspaces.events.ts';

/**
 * Invitations with consent (docs/accounts.md, "Invitations"): adding anyone creates an invitation and
 * its e-mail (received here by a real SMTP server); only the verified owner of the invited address
 * joins, by accepting before expiry. Also: leaving a workspace.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

let smtp: SmtpServerFake;
let t: TestApp;
let url: string;
let api: ReturnType<typeof client>;
let admin: TestUser;
let ann: TestUser;
let bob: TestUser;

const sockets: Socket[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.close();
});

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({
    listen: true,
    env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://cohort.example' },
  });
  url = baseUrl(t.app.server);
  api = client(t);
  [admin, ann, bob] = await Promise.all([
    createUser(t.app, { firstName: 'Ada', lastName: 'Admin' }),
    createUser(t.app, { firstName: 'Ann', lastName: 'Able' }),
    createUser(t.app, { firstName: 'Bob', lastName: 'Baker' }),
  ]);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const invite = (ws: string, email: string, role = 'viewer', as = admin) =>
  api.post(wsUrl(ws, '/members'), as, { email, role });

async function myInvitations(user: TestUser): Promise<MyInvitation[]> {
  const res = await api.get('/api/invitations', user);
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function invitationTo(user: TestUser, workspaceId: string): Promise<MyInvitation> {
  const found = (await myInvitations(user)).find((i) => i.workspace._id === workspaceId);
  if (!found) throw new Error(`no invitation to ${workspaceId} for ${user.email}`);
  return found;
}

const accept = (user: TestUser, id: string) => api.post(`/api/invitations/${id}/accept`, user, {});
const decline = (user: TestUser, id: string) => api.post(`/api/invitations/${id}/decline`, user, {});

const membershipsOf = async (userId: string, workspaceId: string) =>
  t.ctx.db
    .select()
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.userId, userId), eq(workspaceMembers.workspaceId, workspaceId)));

async function feedOf(user: TestUser): Promise<NotificationPage> {
  return (await api.get('/api/notifications', user)).json();
}

/** Collects the membership events emitted while `run` executes. */
async function captureEvents(run: () => Promise<unknown>) {
  const seen: Array<[keyof MembershipEventMap, unknown]> = [];
  const names = ['memberAdded', 'memberRemoved'] as const;
  const offs = names.map((name) => {
    const l = (e: unknown) => {
      seen.push([name, e]);
    };
    return t.ctx.bus.on(name, l);
  });
  try {
    await run();
  } finally {
    for (const off of offs) off();
  }
  return seen;
}

/** A new session for a user (after the clock moved past their old one's idle limit). */
async function signInAgain(user: TestUser): Promise<TestUser> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email: user.email, password: user.password },
  });
  expect(res.statusCode).toBe(200);
  const token = res.json().token as string;
  return { ...user, token, auth: { authorization: `Bearer ${token}` } };
}

describe('inviting', () => {
  it('an existing account: an e-mail with the accept link, a live notification, a pending invitation', async () => {
    const ws = await createWorkspace(t, admin, { name: uniqueName('Design <b>') });
    const live = await openSocket(url, NOTIFICATIONS_NAMESPACE, ann.token);
    sockets.push(live);
    const pushed = next<Notification>(live, NOTIFICATION_EVENTS.notification, (n) => n.kind === 'invitation');

    const res = await invite(ws.name, ann.email.toUpperCase(), 'editor');
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      _id: null,
      email: ann.email,
      firstName: '',
      lastName: '',
      role: 'editor',
      status: 'invited',
    });
    // Not a member yet.
    expect((await api.get(wsUrl(ws.name), ann)).statusCode).toBe(404);
    expect(await membershipsOf(ann.id, ws._id)).toEqual([]);

    const invitation = await invitationTo(ann, ws._id);
    expect(invitation).toMatchObject({
      workspace: { _id: ws._id, name: ws.name, description: 'A place to work' },
      role: 'editor',
      invitedBy: { name: 'Ada Admin', email: admin.email },
    });
    const ttl = new Date(invitation.expiresAt).getTime() - new Date(invitation.createdAt).getTime();
    expect(ttl).toBe(7 * DAY_MS);

    const mail = await smtp.waitFor((m) => m.to.includes(ann.email) && m.subject.includes(ws.name));
    expect(mail.subject).toBe(`Ada Admin invited you to ${ws.name} on Cohort`);
    expect(mail.text).toContain('as an editor');
    expect(mail.links).toContain(`https://cohort.example/invitations?focus=${invitation._id}`);
    // The workspace's name is the admin's free text: escaped in the HTML part.
    expect(mail.html).toContain('Design &lt;b&gt;');
    expect(mail.html).not.toContain('Design <b>');

    const notification = await pushed;
    expect(notification).toMatchObject({
      kind: 'invitation',
      actor: { email: admin.email, name: 'Ada Admin' },
      read: false,
      link: `/invitations?focus=${invitation._id}`,
      text: `${ws.name} (as editor)`,
    });
    expect((await feedOf(ann)).notifications.map((n) => n._id)).toContain(notification._id);
  });

  it('an address without an account: the e-mail only; after signing up (verified) it is listed', async () => {
    const ws = await createWorkspace(t, admin);
    const email = uniqueEmail('newcomer');
    expect((await invite(ws.name, email)).statusCode).toBe(201);
    const mail = await smtp.waitFor((m) => m.to.includes(email));
    expect(mail.subject).toContain(ws.name);

    const newcomer = await createUser(t.app, { email });
    // Signing up joins nothing.
    expect((await api.get(wsUrl(ws.name), newcomer)).statusCode).toBe(404);
    const invitation = await invitationTo(newcomer, ws._id);
    expect(mail.links).toContain(`https://cohort.example/invitations?focus=${invitation._id}`);
    expect((await accept(newcomer, invitation._id)).statusCode).toBe(200);
    expect((await api.get(wsUrl(ws.name), newcomer)).json().role).toBe('viewer');
  });

  it("the creation form's members: invitations (and e-mails) for each, nobody joins by being listed", async () => {
    const outsider = uniqueEmail('outsider');
    const res = await api.post('/api/workspaces', admin, {
      name: uniqueName('Launch'),
      description: 'Shipping',
      members: [
        { email: ann.email, role: 'admin' },
        { email: outsider, role: 'editor' },
      ],
    });
    expect(res.statusCode).toBe(201);
    const ws = res.json();
    expect(ws.members).toHaveLength(3);
    expect(ws.members[0]).toEqual({ userId: admin.id, email: admin.email, role: 'admin', status: 'active' });
    expect(ws.members).toEqual(
      expect.arrayContaining([
        { userId: null, email: ann.email, role: 'admin', status: 'invited' },
        { userId: null, email: outsider, role: 'editor', status: 'invited' },
      ]),
    );
    await smtp.waitFor((m) => m.to.includes(outsider) && m.subject.includes(ws.name));
    await smtp.waitFor((m) => m.to.includes(ann.email) && m.subject.includes(ws.name));
    expect((await api.get(wsUrl(ws.name), ann)).statusCode).toBe(404);
    expect((await invitationTo(ann, ws._id)).role).toBe('admin');
  });

  it('refuses members and pending invitees with 409, changing nothing', async () => {
    const ws = await createWorkspace(t, admin, { members: [{ email: ann.email }] });
    const email = uniqueEmail('pending');
    expect((await invite(ws.name, email)).statusCode).toBe(201);
    const before = await snapshotWorkspace(t, ws._id);
    const member = await invite(ws.name, ann.email);
    expect(member.statusCode).toBe(409);
    expect(member.json()).toEqual({ message: WORKSPACE_MESSAGES.alreadyMember });
    const again = await invite(ws.name, email.toUpperCase());
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: WORKSPACE_MESSAGES.alreadyInvited });
    expect(await snapshotWorkspace(t, ws._id)).toEqual(before);
  });
});

describe('accepting', () => {
  it('makes the invitee a member with the invited role, once, and removes the invitation', async () => {
    const ws = await createWorkspace(t, admin);
    await invite(ws.name, bob.email, 'editor');
    const invitation = await invitationTo(bob, ws._id);
    const notificationId = (await feedOf(bob)).notifications.find((n) =>
      n.link.endsWith(invitation._id),
    )?._id;
    expect(notificationId).toBeDefined();

    let res: Awaited<ReturnType<typeof accept>> | undefined;
    const events = await captureEvents(async () => {
      res = await accept(bob, invitation._id);
    });
    expect(res?.statusCode).toBe(200);
    expect(res?.json()).toEqual({ workspace: { _id: ws._id, name: ws.name }, role: 'editor' });
    expect(events).toEqual([['memberAdded', { workspaceId: ws._id, userId: bob.id, role: 'editor' }]]);
    expect((await api.get(wsUrl(ws.name), bob)).json().role).toBe('editor');
    expect((await snapshotWorkspace(t, ws._id)).invitations).toEqual([]);
    expect(await myInvitations(bob)).not.toContainEqual(expect.objectContaining({ _id: invitation._id }));
    // Its notification went with it.
    expect((await feedOf(bob)).notifications.map((n) => n._id)).not.toContain(notificationId);
    // It is used up: accepting again finds nothing, and changes nothing.
    const again = await accept(bob, invitation._id);
    expect(again.statusCode).toBe(404);
    expect(await membershipsOf(bob.id, ws._id)).toHaveLength(1);
  });

  it('twice at the same time makes one membership and one event', async () => {
    const ws = await createWorkspace(t, admin);
    await invite(ws.name, bob.email, 'viewer');
    const invitation = await invitationTo(bob, ws._id);
    let results: Array<Awaited<ReturnType<typeof accept>>> = [];
    const events = await captureEvents(async () => {
      results = await Promise.all([accept(bob, invitation._id), accept(bob, invitation._id)]);
    });
    // One joins; the other, depending on timing, joins the same membership (200) or finds the
    // invitation used up (404).
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes[0]).toBe(200);
    expect([200, 404]).toContain(codes[1]);
    expect(await membershipsOf(bob.id, ws._id)).toHaveLength(1);
    expect(events.filter(([name]) => name === 'memberAdded')).toHaveLength(1);
  });

  it("someone else's invitation, an unknown id and a malformed one all answer 404", async () => {
    const ws = await createWorkspace(t, admin);
    await invite(ws.name, ann.email);
    const invitation = await invitationTo(ann, ws._id);
    const before = await snapshotWorkspace(t, ws._id);
    for (const id of [invitation._id, '00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      for (const act of [accept, decline]) {
        const res = await act(bob, id);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ message: INVITATION_MESSAGES.notFound });
      }
    }
    expect(await snapshotWorkspace(t, ws._id)).toEqual(before);
    expect(await myInvitations(bob)).not.toContainEqual(expect.objectContaining({ _id: invitation._id }));
  });

  it('an unverified address is refused with 403 and sees no invitations, until it is verified', async () => {
    const ws = await createWorkspace(t, admin);
    // Registered, not proved: it could be anyone's claim to this address.
    const claimer = await createUser(t.app, { verified: false });
    await invite(ws.name, claimer.email, 'admin');
    expect(await myInvitations(claimer)).toEqual([]);
    // No in-app notification either.
    expect((await feedOf(claimer)).notifications.filter((n) => n.kind === 'invitation')).toEqual([]);
    const [row] = (await snapshotWorkspace(t, ws._id)).invitations;
    if (!row) throw new Error('no invitation stored');
    for (const act of [accept, decline]) {
      const res = await act(claimer, row.id);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: INVITATION_MESSAGES.verifyFirst });
    }
    expect(await membershipsOf(claimer.id, ws._id)).toEqual([]);

    // Once the owner proves the address, the same invitation is theirs to accept.
    await t.ctx.db.update(users).set({ emailVerifiedAt: t.ctx.now() }).where(eq(users.id, claimer.id));
    expect((await myInvitations(claimer)).map((i) => i._id)).toEqual([row.id]);
    expect((await accept(claimer, row.id)).statusCode).toBe(200);
    expect((await api.get(wsUrl(ws.name), claimer)).json().role).toBe('admin');
  });
});

describe('declining', () => {
  it('removes the invitation: it can no longer be accepted, and admins no longer see it', async () => {
    const ws = await createWorkspace(t, admin);
    await invite(ws.name, ann.email);
    const invitation = await invitationTo(ann, ws._id);
    const res = await decline(ann, invitation._id);
    expect(res.statusCode).toBe(204);
    expect(await myInvitations(ann)).not.toContainEqual(expect.objectContaining({ _id: invitation._id }));
    expect((await accept(ann, invitation._id)).statusCode).toBe(404);
    expect(await membershipsOf(ann.id, ws._id)).toEqual([]);
    expect((await api.get(wsUrl(ws.name, '/invitations'), admin)).json()).toEqual([]);
    // Declined is not barred: the admin may invite again.
    expect((await invite(ws.name, ann.email)).statusCode).toBe(201);
  });
});

describe("a workspace's pending invitations", () => {
  it('are listed, resent and revoked by admins', async () => {
    const ws = await createWorkspace(t, admin, { members: [{ email: bob.email, role: 'admin' }] });
    const email = uniqueEmail('later');
    await invite(ws.name, email, 'editor');
    await invite(ws.name, ann.email);
    await smtp.waitFor((m) => m.to.includes(email));

    const list = await api.get(wsUrl(ws.name, '/invitations'), admin);
    expect(list.statusCode).toBe(200);
    const [first, second] = list.json() as WorkspaceInvitation[];
    expect(first).toMatchObject({
      email,
      role: 'editor',
      invitedBy: { name: 'Ada Admin', email: admin.email },
      expired: false,
    });
    expect(second).toMatchObject({ email: ann.email, role: 'viewer' });

    // Resent (by another admin): a new expiry and a second e-mail in that admin's name.
    t.advance(60_000);
    const resent = await api.post(
      wsUrl(ws.name, `/invitations/${encodeURIComponent(email)}/resend`),
      bob,
      {},
    );
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toMatchObject({ _id: first?._id, email, invitedBy: { name: 'Bob Baker' } });
    expect(new Date(resent.json().expiresAt).getTime()).toBeGreaterThan(
      new Date(first?.expiresAt ?? 0).getTime(),
    );
    await smtp.waitFor((m) => m.to.includes(email) && m.subject.startsWith('Bob Baker invited you'));

    // Revoked: the invitee can no longer accept, and its notification is gone.
    const annInvitation = await invitationTo(ann, ws._id);
    expect((await feedOf(ann)).notifications.some((n) => n.link.endsWith(annInvitation._id))).toBe(true);
    const revoked = await api.del(wsUrl(ws.name, `/invitations/${encodeURIComponent(ann.email)}`), admin);
    expect(revoked.statusCode).toBe(204);
    expect((await accept(ann, annInvitation._id)).statusCode).toBe(404);
    expect((await feedOf(ann)).notifications.some((n) => n.link.endsWith(annInvitation._id))).toBe(false);
    expect((await api.get(wsUrl(ws.name, '/invitations'), admin)).json()).toHaveLength(1);

    const unknown = await api.post(
      wsUrl(ws.name, `/invitations/${encodeURIComponent(uniqueEmail('nobody'))}/resend`),
      admin,
      {},
    );
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: WORKSPACE_MESSAGES.invitationNotFound });
  });

  it('are hidden from non-admins: listing 403, and no invited rows in the workspace or its members', async () => {
    const invited = uniqueEmail('secret');
    const ws = await createWorkspace(t, admin, {
      members: [
        { email: ann.email, role: 'editor' },
        { email: invited, role: 'admin' },
      ],
    });
    const listing = await api.get(wsUrl(ws.name, '/invitations'), ann);
    expect(listing.statusCode).toBe(403);
    expect(
      (await api.post(wsUrl(ws.name, `/invitations/${encodeURIComponent(invited)}/resend`), ann, {}))
        .statusCode,
    ).toBe(403);
    for (const res of [await api.get(wsUrl(ws.name), ann), await api.get(wsUrl(ws.name, '/members'), ann)]) {
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(invited);
    }
    const mine = (await api.get('/api/workspaces', ann)).json() as Array<{ _id: string; members: unknown[] }>;
    expect(JSON.stringify(mine.find((w) => w._id === ws._id))).not.toContain(invited);
    // The admin sees the same workspace with the invitation.
    const theirs = (await api.get('/api/workspaces', admin)).json() as Array<{ _id: string }>;
    expect(JSON.stringify(theirs.find((w) => w._id === ws._id))).toContain(invited);
    expect((await api.get(wsUrl(ws.name), admin)).body).toContain(invited);
  });
});

describe('leaving', () => {
  it('ends the membership and its channel memberships, and tells subscribers', async () => {
    const ws = await createWorkspace(t, admin, { members: [{ email: ann.email, role: 'editor' }] });
    const secret = await createChannel(t, ann, ws.name, { private: true, members: [admin.id] });
    let res: Awaited<ReturnType<typeof api.post>> | undefined;
    const events = await captureEvents(async () => {
      res = await api.post(wsUrl(ws.name, '/leave'), ann, {});
    });
    expect(res?.statusCode).toBe(204);
    expect(events).toEqual([['memberRemoved', { workspaceId: ws._id, userId: ann.id }]]);
    expect((await api.get(wsUrl(ws.name), ann)).statusCode).toBe(404);
    const snapshot = await snapshotWorkspace(t, ws._id);
    expect(snapshot.members.map((m) => m.userId)).toEqual([admin.id]);
    expect(snapshot.channelMembers.filter((m) => m.userId === ann.id)).toEqual([]);
    expect((await api.get(wsUrl(ws.name, `/channels/${secret._id}`), admin)).statusCode).toBe(200);
    // Gone means gone: leaving again is a 404, like any workspace one is not in.
    expect((await api.post(wsUrl(ws.name, '/leave'), ann, {})).statusCode).toBe(404);
  });

  it('refuses the last admin with 409 and a clear message; with another admin it works', async () => {
    const ws = await createWorkspace(t, admin, { members: [{ email: bob.email, role: 'editor' }] });
    const before = await snapshotWorkspace(t, ws._id);
    const refused = await api.post(wsUrl(ws.name, '/leave'), admin, {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: WORKSPACE_MESSAGES.lastAdminLeave });
    expect(await snapshotWorkspace(t, ws._id)).toEqual(before);

    expect((await api.patch(wsUrl(ws.name, `/members/${bob.id}`), admin, { role: 'admin' })).statusCode).toBe(
      200,
    );
    expect((await api.post(wsUrl(ws.name, '/leave'), admin, {})).statusCode).toBe(204);
    expect((await api.get(wsUrl(ws.name), admin)).statusCode).toBe(404);
    // Now Bob is the last admin.
    expect((await api.post(wsUrl(ws.name, '/leave'), bob, {})).statusCode).toBe(409);
  });
});

// Last: it moves the clock past every session's idle limit.
describe('expiry', () => {
  it('an expired invitation is neither listed nor accepted (410) until an admin resends it', async () => {
    const ws = await createWorkspace(t, admin);
    await invite(ws.name, ann.email, 'editor');
    const invitation = await invitationTo(ann, ws._id);

    t.advance(7 * DAY_MS + 60_000);
    const [lateAnn, lateAdmin] = await Promise.all([signInAgain(ann), signInAgain(admin)]);
    expect(await myInvitations(lateAnn)).not.toContainEqual(expect.objectContaining({ _id: invitation._id }));
    expect((await feedOf(lateAnn)).notifications.some((n) => n.link.endsWith(invitation._id))).toBe(false);
    const late = await accept(lateAnn, invitation._id);
    expect(late.statusCode).toBe(410);
    expect(late.json()).toEqual({ message: INVITATION_MESSAGES.expired });
    expect(await membershipsOf(ann.id, ws._id)).toEqual([]);

    const pending = (
      await api.get(wsUrl(ws.name, '/invitations'), lateAdmin)
    ).json() as WorkspaceInvitation[];
    expect(pending).toEqual([expect.objectContaining({ _id: invitation._id, expired: true })]);
    const resent = await api.post(
      wsUrl(ws.name, `/invitations/${encodeURIComponent(ann.email)}/resend`),
      lateAdmin,
      {},
    );
    expect(resent.statusCode).toBe(200);
    expect(resent.json().expired).toBe(false);
    // The resent invitation is new in the bell again.
    expect((await feedOf(lateAnn)).notifications.some((n) => n.link.endsWith(invitation._id))).toBe(true);
    expect((await acceptInvitation(t, lateAnn, ws._id)).role).toBe('editor');
  });
});

// Last in the file: its 200 mails would queue ahead of the other tests' mail.
describe('caps', () => {
  it(`keeps at most ${PENDING_INVITATIONS_MAX} pending: each sends mail to an outside address`, async () => {
    const members = Array.from({ length: PENDING_INVITATIONS_MAX }, () => ({ email: uniqueEmail('bulk') }));
    const boss = await createUser(t.app);
    const ws = await createWorkspace(t, boss, { members, accept: false });
    const before = await snapshotWorkspace(t, ws._id);
    const over = await invite(ws.name, uniqueEmail('one-more'), 'viewer', boss);
    expect(over.statusCode).toBe(409);
    expect(over.json()).toEqual({ message: WORKSPACE_MESSAGES.tooManyPending });
    expect(await snapshotWorkspace(t, ws._id)).toEqual(before);
  });
});
