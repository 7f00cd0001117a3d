import type { AddressInfo } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
let url: string;
beforeAll(async () => {
  t = await createTestApp({ listen: true });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

function attempt(opts: { token?: string; cookie?: string; origin?: string }) {
  const socket: Socket = connect(url, {
    transports: ['websocket'],
    reconnection: false,
    auth: opts.token ? { token: opts.token } : {},
    extraHeaders: {
      ...(opts.cookie ? { cookie: opts.cookie } : {}),
      ...(opts.origin ? { origin: opts.origin } : {}),
    },
  });
  return new Promise<{ ok: boolean; error?: string }>((resolve) => {
    socket.on('connect', () => {
      socket.close();
      resolve({ ok: true });
    });
    socket.on('connect_error', (err) => {
      socket.close();
      resolve({ ok: false, error: err.message });
    });
  });
}

describe('Socket.IO handshake', () => {
  it('accepts a valid session by token or cookie', async () => {
    const user = await createUser(t.app);
    expect(await attempt({ token: user.token })).toEqual({ ok: true });
    expect(await attempt({ cookie: `cohort_session=${user.token}` })).toEqual({ ok: true });
  });

  it('refuses a missing, invalid or revoked session', async () => {
    expect((await attempt({})).ok).toBe(false);
    expect((await attempt({ token: 'forged' })).error).toBe('unauthorized');
    const user = await createUser(t.app);
    await t.app.inject({ method: 'POST', url: '/api/logout', headers: user.auth });
    expect((await attempt({ token: user.token })).error).toBe('unauthorized');
  });

  it('refuses a handshake from another site', async () => {
    const user = await createUser(t.app);
    expect((await attempt({ token: user.token, origin: 'https://evil.example' })).ok).toBe(false);
  });
});
