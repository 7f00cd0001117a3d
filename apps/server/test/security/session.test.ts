import type { AddressInfo } from 'node:net';
import type { InjectOptions } from 'fastify';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../factories.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { rowCounts } from './fuzz-kit.ts';

/**
 * Session and cross-site checks over every route and namespace the app registers (enumerated at
 * runtime): cookie flags, Origin checks on HTTP and on the Socket.IO handshake (cross-site
 * WebSocket hijacking), and sockets closed at logout.
 */

let t: TestApp;
let url: string;
let user: TestUser;
beforeAll(async () => {
  t = await createTestApp({ listen: true });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  user = await createUser(t.app);
});
afterAll(() => t.close());

const namespaces = () => [...t.io._nsps.keys()].filter((n) => n !== '/');

function handshake(namespace: string, opts: { cookie?: string; token?: string; origin?: string }) {
  const socket: Socket = connect(`${url}${namespace}`, {
    transports: ['websocket'],
    reconnection: false,
    auth: opts.token ? { token: opts.token } : {},
    extraHeaders: {
      ...(opts.cookie ? { cookie: opts.cookie } : {}),
      ...(opts.origin ? { origin: opts.origin } : {}),
    },
  });
  return new Promise<Socket | null>((resolve) => {
    socket.on('connect', () => resolve(socket));
    socket.on('connect_error', () => {
      socket.close();
      resolve(null);
    });
  });
}

async function eventually(check: () => boolean, ms = 5000) {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('session cookie', () => {
  const login = async (app: TestApp, remember: boolean) => {
    const who = await createUser(app.app);
    const res = await app.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: who.email, password: who.password, remember },
    });
    return {
      cookie: String(res.headers['set-cookie']),
      auth: { authorization: `Bearer ${res.json().token}` },
    };
  };

  it('is HttpOnly, SameSite=Lax, Path=/ and not Secure on a plain-HTTP install', async () => {
    for (const remember of [false, true]) {
      const { cookie } = await login(t, remember);
      expect(cookie).toMatch(/^cohort_session=[\w-]+;/);
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; SameSite=Lax/);
      expect(cookie).toMatch(/; Path=\//);
      expect(cookie).not.toMatch(/Secure/);
      expect(cookie).not.toMatch(/Domain=/);
    }
  });

  it('is Secure when PUBLIC_URL is https, and logout clears it on the same path', async () => {
    const secure = await createTestApp({ env: { PUBLIC_URL: 'https://cohort.example' } });
    try {
      const { cookie, auth } = await login(secure, false);
      expect(cookie).toMatch(/; Secure/);
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; Path=\//);
      const out = await secure.app.inject({ method: 'POST', url: '/api/logout', headers: auth });
      expect(String(out.headers['set-cookie'])).toMatch(/^cohort_session=;.*Path=\//);
    } finally {
      await secure.close();
    }
  });
});

describe('cross-site requests (CSRF)', () => {
  const writes = () => {
    const seen = new Set<string>();
    return t.routes.filter((r) => {
      const key = `${r.method} ${r.url}`;
      if (['GET', 'HEAD', 'OPTIONS'].includes(r.method) || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  };

  it('refuses every state-changing route from a foreign or opaque origin with the cookie, changing nothing', async () => {
    expect(writes().length).toBeGreaterThan(30);
    for (const origin of ['https://evil.example', 'null', `http://127.0.0.1.evil.example`]) {
      for (const route of writes()) {
        const path = route.url.replace(/:(\w+)/g, 'x');
        const before = await rowCounts(t);
        const res = await t.app.inject({
          method: route.method as InjectOptions['method'],
          url: path,
          headers: { origin, host: '127.0.0.1', 'content-type': 'application/json' },
          cookies: { cohort_session: user.token },
          payload: '{}',
        });
        expect(res.statusCode, `${route.method} ${route.url} from ${origin}`).toBe(403);
        expect(res.json()).toEqual({ message: 'Cross-site request refused' });
        expect(await rowCounts(t)).toEqual(before);
      }
    }
    // The session survived: the refused logout above did not run.
    expect((await t.app.inject({ url: '/api/me', cookies: { cohort_session: user.token } })).statusCode).toBe(
      200,
    );
  });

  it('refuses a form-encodable body (text/plain, urlencoded) on writes with 415', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/workspaces',
        headers: { 'content-type': type },
        cookies: { cohort_session: user.token },
        payload: 'name=evil&description=evil',
      });
      expect(res.statusCode, type).toBe(415);
    }
  });
});

describe('Socket.IO handshake', () => {
  it('refuses a foreign origin on every namespace even with a valid session cookie', async () => {
    expect(namespaces().length).toBeGreaterThanOrEqual(5);
    const cookie = `cohort_session=${user.token}`;
    for (const namespace of namespaces()) {
      for (const origin of ['https://evil.example', 'null']) {
        expect(await handshake(namespace, { cookie, origin }), `${namespace} from ${origin}`).toBeNull();
      }
      // Our own origin with the same cookie is accepted, so the refusal above is about the origin.
      const own = await handshake(namespace, { cookie, origin: url });
      expect(own, namespace).not.toBeNull();
      own?.close();
    }
  });

  it('closes every socket of the session on every namespace at logout, and no other user’s', async () => {
    const leaving = await createUser(t.app);
    const staying = await createUser(t.app);
    const mine: Socket[] = [];
    const theirs: Socket[] = [];
    for (const namespace of namespaces()) {
      const a = await handshake(namespace, { token: leaving.token });
      const b = await handshake(namespace, { token: staying.token });
      if (!a || !b) throw new Error(`could not connect to ${namespace}`);
      mine.push(a);
      theirs.push(b);
    }
    await t.app.inject({ method: 'POST', url: '/api/logout', headers: leaving.auth });
    await eventually(() => mine.every((s) => s.disconnected));
    expect(theirs.every((s) => s.connected)).toBe(true);
    for (const namespace of namespaces()) {
      expect(await handshake(namespace, { token: leaving.token }), namespace).toBeNull();
    }
    for (const s of theirs) s.close();
  });
});

describe('password change', () => {
  it('closes the sockets of every other session of the user at once, and keeps this session’s', async () => {
    const who = await createUser(t.app);
    const stranger = await createUser(t.app);
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: who.email, password: who.password },
    });
    const otherToken = second.json().token as string;
    const kept: Socket[] = [];
    const killed: Socket[] = [];
    const theirs: Socket[] = [];
    for (const namespace of namespaces()) {
      const a = await handshake(namespace, { token: who.token });
      const b = await handshake(namespace, { token: otherToken });
      const c = await handshake(namespace, { token: stranger.token });
      if (!a || !b || !c) throw new Error(`could not connect to ${namespace}`);
      kept.push(a);
      killed.push(b);
      theirs.push(c);
    }
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/password',
      headers: who.auth,
      payload: { currentPassword: who.password, newPassword: 'another long secret' },
    });
    expect(res.statusCode).toBe(200);
    // "At once": well before the periodic session check would notice.
    await eventually(() => killed.every((s) => s.disconnected), 1000);
    expect(kept.every((s) => s.connected)).toBe(true);
    expect(theirs.every((s) => s.connected)).toBe(true);
    for (const namespace of namespaces()) {
      expect(await handshake(namespace, { token: otherToken }), namespace).toBeNull();
    }
    for (const s of [...kept, ...theirs]) s.close();
  });
});
