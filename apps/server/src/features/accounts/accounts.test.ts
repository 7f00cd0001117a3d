import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, uniqueEmail } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { sessions, users } from '../../db/schema.ts';
import { MAX_FAILED_PER_ADDRESS } from './login-limiter.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers });

const validSignup = () => ({
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: uniqueEmail('ada'),
  password: 'analytical-engine',
});

describe('POST /api/signup', () => {
  it('creates an account with a normalised e-mail and an argon2id hash, without logging in', async () => {
    const body = validSignup();
    const res = await post('/api/signup', { ...body, email: `  ${body.email.toUpperCase()} ` });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: 'Account created successfully!' });
    expect(res.headers['set-cookie']).toBeUndefined();
    const [row] = await t.ctx.db.select().from(users).where(eq(users.email, body.email));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('refuses a second account for the same e-mail, whatever its case', async () => {
    const body = validSignup();
    expect((await post('/api/signup', body)).statusCode).toBe(201);
    const again = await post('/api/signup', { ...body, email: body.email.toUpperCase() });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('An account with this e-mail already exists');
  });

  it.each([
    ['missing first name', { firstName: undefined }, 'firstName'],
    ['blank last name', { lastName: '   ' }, 'lastName'],
    ['invalid e-mail', { email: 'not-an-email' }, 'email'],
    ['short password', { password: 'short' }, 'password'],
    ['wrong type', { password: 12345678 }, 'password'],
    ['overlong name', { firstName: 'x'.repeat(81) }, 'firstName'],
  ])('rejects %s with 400 naming the field and stores nothing', async (_name, change, field) => {
    const body = { ...validSignup(), ...change };
    const res = await post('/api/signup', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe(field);
    expect(res.json().message).toContain(field);
    if (typeof body.email === 'string' && body.email.includes('@')) {
      expect(await t.ctx.db.select().from(users).where(eq(users.email, body.email))).toHaveLength(0);
    }
  });

  it('answers malformed JSON, a non-JSON body and an oversized body with clear errors', async () => {
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/signup',
      headers: { 'content-type': 'application/json' },
      payload: '{"firstName": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ message: 'Malformed JSON body' });

    const text = await t.app.inject({
      method: 'POST',
      url: '/api/signup',
      headers: { 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(text.statusCode).toBe(415);
    expect(text.json().message).toMatch(/application\/json/);

    const huge = await post('/api/signup', { ...validSignup(), firstName: 'x'.repeat(1024 * 1024 + 10) });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toEqual({ message: 'Request body is too large' });
  });
});

describe('login, sessions and logout', () => {
  it('logs in with an httpOnly SameSite=Lax browser-session cookie and a token usable as Bearer', async () => {
    const body = validSignup();
    await post('/api/signup', body);
    const res = await post('/api/login', { email: body.email, password: body.password });
    expect(res.statusCode).toBe(200);
    const { token, message } = res.json();
    expect(message).toBe('Login successful!');
    expect(token).toMatch(/^[\w-]{40,}$/);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toContain(`cohort_session=${token}`);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Max-Age/);

    const byBearer = await t.app.inject({ url: '/api/me', headers: { authorization: `Bearer ${token}` } });
    expect(byBearer.json().user).toMatchObject({ email: body.email, firstName: 'Ada', lastName: 'Lovelace' });
    const byCookie = await t.app.inject({ url: '/api/me', cookies: { cohort_session: token } });
    expect(byCookie.statusCode).toBe(200);
    // Only a hash of the token is stored.
    const stored = await t.ctx.db.select().from(sessions);
    expect(stored.some((s) => s.tokenHash === token)).toBe(false);
  });

  it('answers a wrong password and an unknown e-mail identically', async () => {
    const user = await createUser(t.app);
    const wrong = await post('/api/login', { email: user.email, password: 'not the password' });
    const unknown = await post('/api/login', { email: uniqueEmail('nobody'), password: 'whatever1' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().message).toBe('Invalid e-mail or password');
  });

  it('needs a session for /api/me, and logout revokes the token server-side', async () => {
    expect((await t.app.inject({ url: '/api/me' })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ url: '/api/me', headers: { authorization: 'Bearer nope' } })).statusCode,
    ).toBe(401);
    const user = await createUser(t.app);
    const out = await post('/api/logout', {}, user.auth);
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/cohort_session=;/);
    expect((await t.app.inject({ url: '/api/me', headers: user.auth })).statusCode).toBe(401);
  });

  it('ends a browser-session login after a day idle, a remembered one after 30 days', async () => {
    const user = await createUser(t.app);
    const remembered = await post('/api/login', {
      email: user.email,
      password: user.password,
      remember: true,
    });
    expect(String(remembered.headers['set-cookie'])).toMatch(/Max-Age=2592000/);
    const rememberedAuth = { authorization: `Bearer ${remembered.json().token}` };

    t.advance(23 * 60 * 60 * 1000);
    expect((await t.app.inject({ url: '/api/me', headers: user.auth })).statusCode).toBe(200); // slides
    t.advance(25 * 60 * 60 * 1000);
    expect((await t.app.inject({ url: '/api/me', headers: user.auth })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/me', headers: rememberedAuth })).statusCode).toBe(200);
    t.advance(31 * 24 * 60 * 60 * 1000);
    expect((await t.app.inject({ url: '/api/me', headers: rememberedAuth })).statusCode).toBe(401);
  });
});

describe('login rate limit', () => {
  it('blocks an account after 10 failures in 15 minutes, even the right password, until the window passes', async () => {
    const user = await createUser(t.app);
    for (let i = 0; i < 10; i++) {
      const res = await post('/api/login', { email: user.email, password: `wrong-${i}-password` }, {});
      expect(res.statusCode).toBe(401);
    }
    const blocked = await post('/api/login', { email: user.email, password: user.password });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/Too many login attempts/);
    t.advance(15 * 60 * 1000 + 1000);
    expect((await post('/api/login', { email: user.email, password: user.password })).statusCode).toBe(200);
  });

  it('blocks an IP that fails on many accounts', async () => {
    const ip = '203.0.113.7';
    const loginFrom = (email: string, password: string) =>
      t.app.inject({ method: 'POST', url: '/api/login', payload: { email, password }, remoteAddress: ip });
    for (let i = 0; i < MAX_FAILED_PER_ADDRESS; i++)
      expect((await loginFrom(uniqueEmail('probe'), 'guess-1234')).statusCode).toBe(401);
    const user = await createUser(t.app);
    expect((await loginFrom(user.email, user.password)).statusCode).toBe(429);
    t.advance(16 * 60 * 1000);
  });
});

describe('cross-site requests', () => {
  it('refuses a state-changing request from another origin and changes nothing', async () => {
    const body = validSignup();
    const res = await post('/api/signup', body, { origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Cross-site request refused');
    expect(await t.ctx.db.select().from(users).where(eq(users.email, body.email))).toHaveLength(0);
  });

  it('allows our own origin and clients that send none', async () => {
    const own = await post('/api/signup', validSignup(), {
      origin: 'http://localhost:80',
      host: 'localhost:80',
    });
    expect(own.statusCode).toBe(201);
    expect((await post('/api/signup', validSignup())).statusCode).toBe(201);
  });
});

describe('POST /api/users/password', () => {
  const change = (auth: Record<string, string>, payload: unknown, remoteAddress = '198.51.100.20') =>
    t.app.inject({
      method: 'POST',
      url: '/api/users/password',
      payload: payload as object,
      headers: auth,
      remoteAddress,
    });
  const login = (email: string, password: string, remoteAddress = '198.51.100.21') =>
    t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email, password },
      remoteAddress,
    });
  const me = (token: string) =>
    t.app.inject({ url: '/api/me', headers: { authorization: `Bearer ${token}` } });

  it('sets the new password, keeps this session and revokes every other one', async () => {
    const user = await createUser(t.app);
    const other = (await login(user.email, user.password)).json().token as string;
    const res = await change(user.auth, {
      currentPassword: user.password,
      newPassword: 'a brand new secret',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Password changed. Your other sessions were signed out.' });
    expect((await me(user.token)).statusCode).toBe(200);
    expect((await me(other)).statusCode).toBe(401);
    expect((await login(user.email, user.password)).statusCode).toBe(401);
    expect((await login(user.email, 'a brand new secret')).statusCode).toBe(200);
    const live = await t.ctx.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(live.filter((s) => s.revokedAt === null)).toHaveLength(2); // this one and the new login
  });

  it('refuses a wrong current password with 400, changing nothing', async () => {
    const user = await createUser(t.app);
    const other = (await login(user.email, user.password)).json().token as string;
    const [before] = await t.ctx.db.select().from(users).where(eq(users.id, user.id));
    const res = await change(user.auth, { currentPassword: 'not my password', newPassword: 'whatever12345' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Current password is incorrect', field: 'currentPassword' });
    const [after] = await t.ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(after?.passwordHash).toBe(before?.passwordHash);
    expect((await me(other)).statusCode).toBe(200);
  });

  it('tells an account made with Google that it has no password to change, changing nothing', async () => {
    const user = await createUser(t.app);
    await t.ctx.db.update(users).set({ passwordHash: null }).where(eq(users.id, user.id));
    const res = await change(user.auth, { currentPassword: 'anything at all', newPassword: 'whatever12345' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'This account signs in with Google and has no password to change',
      field: 'currentPassword',
    });
    const [after] = await t.ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(after?.passwordHash).toBeNull();
    expect((await me(user.token)).statusCode).toBe(200);
  });

  it.each([
    ['a short new password', { currentPassword: 'x', newPassword: 'short' }, 'newPassword'],
    ['no current password', { newPassword: 'long enough pass' }, 'currentPassword'],
    [
      'an empty current password',
      { currentPassword: '', newPassword: 'long enough pass' },
      'currentPassword',
    ],
  ])('rejects %s with 400 naming the field', async (_name, payload, field) => {
    const user = await createUser(t.app);
    const res = await change(user.auth, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe(field);
  });

  it('requires a session', async () => {
    const res = await change({}, { currentPassword: 'whatever1', newPassword: 'whatever12345' });
    expect(res.statusCode).toBe(401);
  });

  it('counts wrong current passwords toward the login throttle of the account', async () => {
    const user = await createUser(t.app);
    for (let i = 0; i < 10; i++) {
      const res = await change(
        user.auth,
        { currentPassword: `guess-${i}-xx`, newPassword: 'whatever12345' },
        '198.51.100.30',
      );
      expect(res.statusCode).toBe(400);
    }
    // Blocked now from that address, here and at the login form, even with the right password...
    const blocked = await change(
      user.auth,
      { currentPassword: user.password, newPassword: 'whatever12345' },
      '198.51.100.30',
    );
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toBe('Too many login attempts. Please wait 15 minutes and try again.');
    expect((await login(user.email, user.password, '198.51.100.30')).statusCode).toBe(429);
    // ...but not from everywhere: guesses from one address cannot lock the owner out (docs/security.md).
    expect((await login(user.email, user.password, '198.51.100.99')).statusCode).toBe(200);
    t.advance(16 * 60 * 1000);
    expect((await login(user.email, user.password, '198.51.100.30')).statusCode).toBe(200);
  });
});
