import type { AddressInfo } from 'node:net';
import { SECURITY_MESSAGES, type SessionItem } from '@cohort/shared/security';
import { eq } from 'drizzle-orm';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { sessions } from '../../db/schema.ts';

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let t: TestApp;
let url: string;
beforeAll(async () => {
  // The periodic socket re-check is pushed out of the way: a revoked session's sockets must close
  // because the revocation announced it, not because a timer happened to run.
  t = await createTestApp({ listen: true, realtime: { sessionCheckMs: 60 * 60 * 1000 } });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

let lastIp = 0;
/** Another sign-in of the same person, from another device and address. */
async function signInAgain(user: TestUser, userAgent: string) {
  const ip = `198.51.100.${++lastIp}`;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email: user.email, password: user.password },
    headers: { 'user-agent': userAgent },
    remoteAddress: ip,
  });
  expect(res.statusCode).toBe(200);
  const token = res.json().token as string;
  return { token, ip, auth: { authorization: `Bearer ${token}` } };
}

const list = async (auth: Record<string, string>) => {
  const res = await t.app.inject({ url: '/api/sessions', headers: auth });
  expect(res.statusCode).toBe(200);
  return res.json() as SessionItem[];
};
const revoke = (auth: Record<string, string>, id: string) =>
  t.app.inject({ method: 'DELETE', url: `/api/sessions/${id}`, headers: auth });
const me = async (auth: Record<string, string>) =>
  (await t.app.inject({ url: '/api/me', headers: auth })).statusCode;

describe('GET /api/sessions', () => {
  it('lists my live sessions with device, address, times and which one is this', async () => {
    const user = await createUser(t.app);
    const laptop = await signInAgain(user, FIREFOX_LINUX);
    const phone = await signInAgain(user, SAFARI_IPHONE);
    const other = await createUser(t.app);

    const seen = await list(laptop.auth);
    expect(seen).toHaveLength(3);
    const current = seen.filter((s) => s.current);
    expect(current).toEqual([
      {
        _id: expect.any(String),
        device: 'Firefox on Linux',
        ip: laptop.ip,
        createdAt: expect.any(String),
        lastActiveAt: expect.any(String),
        current: true,
      },
    ]);
    expect(seen.find((s) => s.ip === phone.ip)?.device).toBe('Safari on iOS');
    // Nothing of another user's, and no token material.
    const ids = new Set(seen.map((s) => s._id));
    for (const s of await list(other.auth)) expect(ids.has(s._id)).toBe(false);
    expect(JSON.stringify(seen)).not.toContain(laptop.token);
    expect(Object.keys(seen[0] ?? {}).sort()).toEqual(
      ['_id', 'createdAt', 'current', 'device', 'ip', 'lastActiveAt'].sort(),
    );
  });

  it('leaves out revoked and expired sessions', async () => {
    const user = await createUser(t.app);
    const gone = await signInAgain(user, FIREFOX_LINUX);
    await t.app.inject({ method: 'POST', url: '/api/logout', headers: gone.auth });
    const idle = await signInAgain(user, SAFARI_IPHONE);
    const [idleRow] = (await list(idle.auth)).filter((s) => s.current);
    await t.ctx.db
      .update(sessions)
      .set({ expiresAt: new Date(t.ctx.now().getTime() - 1000) })
      .where(eq(sessions.id, idleRow?._id ?? ''));
    const seen = await list(user.auth);
    expect(seen.map((s) => s.current)).toEqual([true]);
  });

  it('needs a session', async () => {
    expect((await t.app.inject({ url: '/api/sessions' })).statusCode).toBe(401);
  });
});

describe('DELETE /api/sessions/:sessionId', () => {
  it('signs out one of my other sessions and leaves this one', async () => {
    const user = await createUser(t.app);
    const phone = await signInAgain(user, SAFARI_IPHONE);
    const target = (await list(phone.auth)).find((s) => s.current);
    const res = await revoke(user.auth, target?._id ?? '');
    expect(res.statusCode).toBe(204);
    expect(await me(phone.auth)).toBe(401);
    expect(await me(user.auth)).toBe(200);
    // Already gone: like any unknown id.
    expect((await revoke(user.auth, target?._id ?? '')).statusCode).toBe(404);
  });

  it("answers another user's session, an unknown id and a malformed id with 404, and revokes nothing", async () => {
    const [user, other] = [await createUser(t.app), await createUser(t.app)];
    const [theirs] = await list(other.auth);
    for (const id of [theirs?._id ?? '', '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const res = await revoke(user.auth, id);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: SECURITY_MESSAGES.sessionNotFound });
    }
    expect(await me(other.auth)).toBe(200);
  });

  it('may sign out this very session', async () => {
    const user = await createUser(t.app);
    const [mine] = await list(user.auth);
    expect((await revoke(user.auth, mine?._id ?? '')).statusCode).toBe(204);
    expect(await me(user.auth)).toBe(401);
  });
});

describe('POST /api/sessions/revoke-others', () => {
  it('signs out every other session of mine, and nobody else', async () => {
    const [user, other] = [await createUser(t.app), await createUser(t.app)];
    const a = await signInAgain(user, FIREFOX_LINUX);
    const b = await signInAgain(user, SAFARI_IPHONE);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/sessions/revoke-others',
      headers: a.auth,
      payload: {},
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: SECURITY_MESSAGES.othersRevoked, revoked: 2 });
    expect(await me(a.auth)).toBe(200);
    expect(await me(b.auth)).toBe(401);
    expect(await me(user.auth)).toBe(401);
    expect(await me(other.auth)).toBe(200);
    expect((await list(a.auth)).map((s) => s.current)).toEqual([true]);
  });
});

describe("a revoked session's sockets", () => {
  const open: Socket[] = [];
  afterAll(() => {
    for (const s of open) s.close();
  });
  const socketOf = (token: string, namespace = '/chat') =>
    new Promise<Socket>((resolve, reject) => {
      const client = connect(`${url}${namespace}`, {
        transports: ['websocket'],
        reconnection: false,
        forceNew: true,
        auth: { token },
      });
      open.push(client);
      client.once('connect', () => resolve(client));
      client.once('connect_error', reject);
    });
  const disconnected = (socket: Socket, ms: number) =>
    new Promise<boolean>((resolve) => {
      if (!socket.connected) return resolve(true);
      const timer = setTimeout(() => resolve(false), ms);
      socket.once('disconnect', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });

  it('close at once when the session is revoked from another one', async () => {
    const user = await createUser(t.app);
    const phone = await signInAgain(user, SAFARI_IPHONE);
    const [chat, dm] = [await socketOf(phone.token), await socketOf(phone.token, '/dm')];
    const kept = await socketOf(user.token);
    const target = (await list(phone.auth)).find((s) => s.current);
    const closing = Promise.all([disconnected(chat, 2000), disconnected(dm, 2000)]);
    expect((await revoke(user.auth, target?._id ?? '')).statusCode).toBe(204);
    expect(await closing).toEqual([true, true]);
    // The other session's socket is untouched, checked by a round trip instead of a waiting window:
    // a disconnect sent with the revocation's would reach it before this answer.
    expect(await kept.timeout(2000).emitWithAck('joinChannel', {})).toMatchObject({ ok: false });
    expect(kept.connected).toBe(true);
  });

  it('close at once on "sign out everywhere else"', async () => {
    const user = await createUser(t.app);
    const phone = await signInAgain(user, SAFARI_IPHONE);
    const socket = await socketOf(phone.token);
    const closing = disconnected(socket, 2000);
    await t.app.inject({
      method: 'POST',
      url: '/api/sessions/revoke-others',
      headers: user.auth,
      payload: {},
    });
    expect(await closing).toBe(true);
  });
});
