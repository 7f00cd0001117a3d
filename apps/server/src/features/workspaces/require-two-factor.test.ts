import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SECURITY_MESSAGES } from '@cohort/shared/security';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { nextTotp, turnOnTwoFactor } from '../accounts/two-factor.test-fixtures.ts';
import { client, createChannel, createWorkspace, wsUrl } from './test-fixtures.ts';

let t: TestApp;
let url: string;
beforeAll(async () => {
  t = await createTestApp({ listen: true });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

const put = (name: string, as: TestUser, required: unknown) =>
  t.app.inject({ method: 'PUT', url: wsUrl(name, '/two-factor'), headers: as.auth, payload: { required } });

/** A workspace whose admin has 2FA on, with an editor and a viewer who do not, and one open channel. */
async function scene() {
  const [admin, editor, viewer] = [await createUser(t.app), await createUser(t.app), await createUser(t.app)];
  const { secret } = await turnOnTwoFactor(t, admin);
  const ws = await createWorkspace(t, admin, {
    members: [
      { email: editor.email, role: 'editor' },
      { email: viewer.email, role: 'viewer' },
    ],
  });
  const channel = await createChannel(t, admin, ws.name, {});
  return { admin, secret, editor, viewer, ws, channel };
}

describe('requiring two-factor sign-in in a workspace', () => {
  it('is for admins, and only for an admin who has 2FA on themselves', async () => {
    const { admin, editor, ws } = await scene();
    const other = await createUser(t.app);
    const noTwoFactorAdmin = await createUser(t.app);
    const own = await createWorkspace(t, noTwoFactorAdmin);

    const refused = await put(own.name, noTwoFactorAdmin, true);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(SECURITY_MESSAGES.enableYoursFirst);
    // Turning it off (already off) needs nothing more than being an admin.
    expect((await put(own.name, noTwoFactorAdmin, false)).statusCode).toBe(200);

    expect((await put(ws.name, editor, true)).statusCode).toBe(403);
    expect((await put(ws.name, other, true)).statusCode).toBe(404);
    expect((await put(ws.name, admin, 'yes')).statusCode).toBe(400);
    expect(
      (await t.app.inject({ method: 'PUT', url: wsUrl(ws.name, '/two-factor'), payload: { required: true } }))
        .statusCode,
    ).toBe(401);

    const before = await t.app.inject({ url: wsUrl(ws.name, '/two-factor'), headers: admin.auth });
    expect(before.json()).toEqual({ required: false, membersWithout: 2 });
    const on = await put(ws.name, admin, true);
    expect(on.statusCode).toBe(200);
    expect(on.json()).toEqual({ required: true, membersWithout: 2 });
    expect(
      (await t.app.inject({ url: wsUrl(ws.name, '/two-factor'), headers: editor.auth })).statusCode,
    ).toBe(403);
  });

  it('refuses members without 2FA on every workspace route with a distinct 403, and admits them once they turn it on', async () => {
    const { admin, editor, viewer, ws, channel } = await scene();
    expect((await put(ws.name, admin, true)).statusCode).toBe(200);
    const api = client(t);

    const paths = [
      wsUrl(ws.name),
      wsUrl(ws._id),
      wsUrl(ws.name, '/members'),
      wsUrl(ws.name, '/channels'),
      wsUrl(ws.name, `/channels/${channel._id}`),
      wsUrl(ws.name, `/channels/${channel._id}/messages`),
      wsUrl(ws.name, `/channels/${randomUUID()}`),
    ];
    for (const path of paths) {
      const res = await api.get(path, viewer);
      expect(res.statusCode, path).toBe(403);
      expect(res.json(), path).toEqual({ message: SECURITY_MESSAGES.workspaceRequiresTwoFactor });
    }
    const post = await api.post(wsUrl(ws.name, `/channels/${channel._id}/messages`), editor, {
      content: 'let me in',
      clientId: randomUUID(),
    });
    expect(post.statusCode).toBe(403);
    // The workspace still shows in their list: they are members, asked to set 2FA up.
    const listed = await api.get('/api/workspaces', viewer);
    expect(listed.json().map((w: { _id: string }) => w._id)).toContain(ws._id);
    // The admin (2FA on) works as before.
    for (const path of paths.slice(0, 6)) expect((await api.get(path, admin)).statusCode, path).toBe(200);
    // A stranger still learns nothing: 404, not 403.
    const stranger = await createUser(t.app);
    expect((await api.get(wsUrl(ws.name), stranger)).statusCode).toBe(404);

    await turnOnTwoFactor(t, viewer);
    for (const path of paths.slice(0, 6)) expect((await api.get(path, viewer)).statusCode, path).toBe(200);
    expect((await api.get(wsUrl(ws.name), editor)).statusCode).toBe(403);

    // Leaving stays possible without 2FA: the rule never holds anyone in a workspace.
    const left = await t.app.inject({ method: 'POST', url: wsUrl(ws.name, '/leave'), headers: editor.auth });
    expect(left.statusCode).toBe(204);
    expect((await api.get(wsUrl(ws.name), editor)).statusCode).toBe(404);

    // Off again: everyone is back.
    expect((await put(ws.name, admin, false)).json()).toEqual({ required: false, membersWithout: 0 });
  });

  it('keeps the workspace out of search for members without 2FA', async () => {
    const { admin, viewer, ws, channel } = await scene();
    const word = `zebra${randomUUID().slice(0, 6)}`;
    const api = client(t);
    expect(
      (
        await api.post(wsUrl(ws.name, `/channels/${channel._id}/messages`), admin, {
          clientId: randomUUID(),
          content: `the word is ${word}`,
        })
      ).statusCode,
    ).toBe(201);
    const found = async () => (await api.get(`/api/search?q=${word}`, viewer)).json().messages.length;
    expect(await found()).toBe(1);
    expect((await put(ws.name, admin, true)).statusCode).toBe(200);
    expect(await found()).toBe(0);
    await turnOnTwoFactor(t, viewer);
    expect(await found()).toBe(1);
  });

  it('refuses the socket join of a channel of the workspace', async () => {
    const { admin, viewer, ws, channel } = await scene();
    expect((await put(ws.name, admin, true)).statusCode).toBe(200);
    const sockets: Socket[] = [];
    const socketOf = (user: TestUser) =>
      new Promise<Socket>((resolve, reject) => {
        const s = connect(`${url}/chat`, {
          transports: ['websocket'],
          reconnection: false,
          forceNew: true,
          auth: { token: user.token },
        });
        sockets.push(s);
        s.once('connect', () => resolve(s));
        s.once('connect_error', reject);
      });
    try {
      const join = (s: Socket) =>
        s.timeout(5000).emitWithAck('joinChannel', { workspaceName: ws.name, channelId: channel._id });
      const refused = await join(await socketOf(viewer));
      expect(refused).toEqual({ ok: false, message: SECURITY_MESSAGES.workspaceRequiresTwoFactor });
      expect(await join(await socketOf(admin))).toMatchObject({ ok: true });
    } finally {
      for (const s of sockets) s.close();
    }
  });

  it('keeps its admin from turning their own 2FA off while it is required', async () => {
    const { admin, secret, ws } = await scene();
    expect((await put(ws.name, admin, true)).statusCode).toBe(200);
    const disable = await t.app.inject({
      method: 'POST',
      url: '/api/2fa/disable',
      headers: admin.auth,
      payload: { password: admin.password, code: await nextTotp(t, secret) },
    });
    expect(disable.statusCode).toBe(409);
    expect(disable.json().message).toBe(SECURITY_MESSAGES.adminOfRequiringWorkspace([ws.name]));
    expect((await client(t).get(wsUrl(ws.name), admin)).statusCode).toBe(200);
  });
});
