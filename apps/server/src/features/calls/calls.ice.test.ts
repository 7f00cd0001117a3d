import { createHmac } from 'node:crypto';
import { TURN_CREDENTIAL_TTL_SECONDS } from '@cohort/shared/calls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

let plain: TestApp;
let turn: TestApp;
let plainUser: TestUser;
let turnUser: TestUser;
const SECRET = 'test-only-secret';

beforeAll(async () => {
  [plain, turn] = await Promise.all([
    createTestApp(),
    createTestApp({
      env: {
        STUN_URLS: 'stun:stun.example.org:3478, stun:127.0.0.1:3478',
        TURN_URLS: 'turn:127.0.0.1:3478?transport=udp,turn:127.0.0.1:3478?transport=tcp',
        TURN_SECRET: SECRET,
      },
    }),
  ]);
  [plainUser, turnUser] = await Promise.all([createUser(plain.app), createUser(turn.app)]);
});
afterAll(() => Promise.all([plain.close(), turn.close()]));

const get = (t: TestApp, user?: TestUser) =>
  t.app.inject({ method: 'GET', url: '/api/calls/ice-servers', headers: user?.auth ?? {} });

describe('GET /api/calls/ice-servers', () => {
  it('needs a session', async () => {
    expect((await get(plain)).statusCode).toBe(401);
  });

  it('gives the default STUN server and no TURN without a secret', async () => {
    const res = await get(plain, plainUser);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ iceServers: [{ urls: ['stun:stun.l.google.com:19302'] }] });
  });

  it('gives TURN credentials in coturn use-auth-secret format, valid one hour', async () => {
    const before = Math.floor(Date.now() / 1000);
    const res = await get(turn, turnUser);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { iceServers } = res.json() as {
      iceServers: { urls: string[]; username?: string; credential?: string }[];
    };
    expect(iceServers[0]).toEqual({ urls: ['stun:stun.example.org:3478', 'stun:127.0.0.1:3478'] });
    const relay = iceServers[1];
    expect(relay?.urls).toEqual(['turn:127.0.0.1:3478?transport=udp', 'turn:127.0.0.1:3478?transport=tcp']);
    const [expiry, userId] = (relay?.username ?? '').split(':');
    expect(userId).toBe(turnUser.id);
    const expires = Number(expiry);
    expect(expires).toBeGreaterThanOrEqual(before + TURN_CREDENTIAL_TTL_SECONDS);
    expect(expires).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + TURN_CREDENTIAL_TTL_SECONDS);
    const expected = createHmac('sha1', SECRET)
      .update(relay?.username ?? '')
      .digest('base64');
    expect(relay?.credential).toBe(expected);
  });

  it('follows the injected clock', async () => {
    turn.advance(10 * 60 * 1000);
    const res = await get(turn, turnUser);
    const { iceServers } = res.json() as { iceServers: { username?: string }[] };
    const expiry = Number((iceServers[1]?.username ?? '').split(':')[0]);
    expect(expiry).toBeGreaterThanOrEqual(
      Math.floor(Date.now() / 1000) + 600 + TURN_CREDENTIAL_TTL_SECONDS - 1,
    );
  });
});
