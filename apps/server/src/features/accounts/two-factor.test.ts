import { ACCOUNT_MESSAGES } from '@cohort/shared/accounts';
import { SECURITY_MESSAGES } from '@cohort/shared/security';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { startFakeGoogle } from '../../../test/fakes/google-identity.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { loginChallenges, recoveryCodes, sessions, users } from '../../db/schema.ts';
import { hashToken } from '../../http/session.ts';
import { createWorkspace } from '../workspaces/test-fixtures.ts';
import { CHALLENGE_TTL_MS, MAX_CHALLENGE_ATTEMPTS } from './two-factor.service.ts';
import { nextTotp, totpAt, turnOnTwoFactor } from './two-factor.test-fixtures.ts';

const CLIENT_ID = 'cohort-2fa-test.apps.googleusercontent.com';
let google: Awaited<ReturnType<typeof startFakeGoogle>>;
let t: TestApp;
beforeAll(async () => {
  google = await startFakeGoogle(CLIENT_ID);
  t = await createTestApp({ env: { GOOGLE_CLIENT_ID: CLIENT_ID, GOOGLE_JWKS_URL: google.jwksUrl } });
});
afterAll(async () => {
  await t.close();
  await google.close();
});

// The login throttle counts per IP too: each test signs in from its own address.
let lastIp = 0;
const newIp = () => `203.0.113.${++lastIp}`;

const post = (url: string, payload: object, opts: { auth?: Record<string, string>; ip?: string } = {}) =>
  t.app.inject({
    method: 'POST',
    url,
    payload,
    headers: opts.auth ?? {},
    ...(opts.ip ? { remoteAddress: opts.ip } : {}),
  });

const passwordStep = (user: TestUser, ip: string, remember?: boolean) =>
  post(
    '/api/login',
    { email: user.email, password: user.password, ...(remember === undefined ? {} : { remember }) },
    { ip },
  );

async function challengeFor(user: TestUser, ip: string, remember?: boolean): Promise<string> {
  const res = await passwordStep(user, ip, remember);
  expect(res.statusCode).toBe(200);
  return res.json().challenge;
}

const codeStep = (challenge: string, code: string, ip: string, remember?: boolean) =>
  post('/api/login/two-factor', { challenge, code, ...(remember === undefined ? {} : { remember }) }, { ip });

const sessionCount = async (userId: string) =>
  Number(
    (await t.ctx.db.select({ n: count() }).from(sessions).where(eq(sessions.userId, userId)))[0]?.n ?? 0,
  );

describe('turning two-factor sign-in on', () => {
  it('stores a pending secret, shows it as an otpauth URI, text and a QR image, and is off until confirmed', async () => {
    const user = await createUser(t.app);
    const setup = await post('/api/2fa/setup', {}, { auth: user.auth });
    expect(setup.statusCode).toBe(200);
    const { secret, otpauthUri, qrCode } = setup.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUri).toBe(
      `otpauth://totp/Cohort:${encodeURIComponent(user.email)}?secret=${secret}&issuer=Cohort`,
    );
    expect(qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(qrCode.split(',')[1], 'base64').toString()).toContain('<svg');

    const status = await t.app.inject({ url: '/api/2fa', headers: user.auth });
    expect(status.json()).toEqual({ enabled: false, recoveryCodesLeft: 0, hasPassword: true });
    // Not on yet: the password alone still signs in.
    expect((await passwordStep(user, newIp())).json().token).toEqual(expect.any(String));
  });

  it('refuses a wrong first code, then confirms with the right one and returns 10 recovery codes once', async () => {
    const user = await createUser(t.app);
    const { secret } = (await post('/api/2fa/setup', {}, { auth: user.auth })).json();

    const wrong = await post('/api/2fa/enable', { code: '000000' }, { auth: user.auth });
    // (A 1-in-a-million chance that 000000 is right: then the assertion below says so.)
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ message: SECURITY_MESSAGES.invalidCode, field: 'code' });
    const malformed = await post('/api/2fa/enable', { code: '12ab56' }, { auth: user.auth });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().field).toBe('code');

    const code = await totpAt(secret, t.ctx.now());
    const ok = await post(
      '/api/2fa/enable',
      { code: `${code.slice(0, 3)} ${code.slice(3)}` },
      { auth: user.auth },
    );
    expect(ok.statusCode).toBe(200);
    const { recoveryCodes: codes, message } = ok.json();
    expect(message).toBe(SECURITY_MESSAGES.enabled);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    // Only hashes are stored.
    const stored = await t.ctx.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    expect(stored).toHaveLength(10);
    expect(stored.map((r) => r.codeHash)).not.toContain(codes[0]);

    const status = await t.app.inject({ url: '/api/2fa', headers: user.auth });
    expect(status.json()).toEqual({ enabled: true, recoveryCodesLeft: 10, hasPassword: true });
    expect((await post('/api/2fa/setup', {}, { auth: user.auth })).statusCode).toBe(409);
    expect((await post('/api/2fa/enable', { code }, { auth: user.auth })).statusCode).toBe(409);
  });

  it('refuses to confirm without a pending setup', async () => {
    const user = await createUser(t.app);
    const res = await post('/api/2fa/enable', { code: '123456' }, { auth: user.auth });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(SECURITY_MESSAGES.setupFirst);
  });

  it('needs a session for every 2FA route', async () => {
    for (const [url, payload] of [
      ['/api/2fa/setup', {}],
      ['/api/2fa/enable', { code: '123456' }],
      ['/api/2fa/disable', { code: '123456' }],
    ] as const) {
      expect((await post(url, payload)).statusCode).toBe(401);
    }
    expect((await t.app.inject({ url: '/api/2fa' })).statusCode).toBe(401);
  });
});

describe('password sign-in with two-factor sign-in on', () => {
  it('answers a correct password with a challenge and no session, token or cookie', async () => {
    const user = await createUser(t.app);
    await turnOnTwoFactor(t, user);
    const before = await sessionCount(user.id);
    const res = await passwordStep(user, newIp());
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      twoFactorRequired: true,
      challenge: expect.stringMatching(/^[\w-]{40,}$/),
      message: SECURITY_MESSAGES.loginCodeNeeded,
    });
    expect(body.token).toBeUndefined();
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await sessionCount(user.id)).toBe(before);
    // The challenge is no session token either.
    expect(
      (await t.app.inject({ url: '/api/me', headers: { authorization: `Bearer ${body.challenge}` } }))
        .statusCode,
    ).toBe(401);
    // Only its hash is stored, for five minutes.
    const [row] = await t.ctx.db
      .select()
      .from(loginChallenges)
      .where(eq(loginChallenges.tokenHash, hashToken(body.challenge)));
    expect(row?.userId).toBe(user.id);
    expect(row && row.expiresAt.getTime() - row.createdAt.getTime()).toBe(CHALLENGE_TTL_MS);
  });

  it('still answers a wrong password exactly as without 2FA', async () => {
    const user = await createUser(t.app);
    await turnOnTwoFactor(t, user);
    const res = await post(
      '/api/login',
      { email: user.email, password: 'not the password' },
      { ip: newIp() },
    );
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: ACCOUNT_MESSAGES.invalidCredentials });
  });

  it('redeems the challenge with the current code into a session and cookie', async () => {
    const user = await createUser(t.app);
    const { secret } = await turnOnTwoFactor(t, user);
    const ip = newIp();
    const challenge = await challengeFor(user, ip);
    const res = await codeStep(challenge, await nextTotp(t, secret), ip);
    expect(res.statusCode).toBe(200);
    const { token, message } = res.json();
    expect(message).toBe(ACCOUNT_MESSAGES.loginSuccess);
    expect(String(res.headers['set-cookie'])).toContain(`cohort_session=${token}`);
    expect(String(res.headers['set-cookie'])).not.toMatch(/Max-Age/);
    const me = await t.app.inject({ url: '/api/me', headers: { authorization: `Bearer ${token}` } });
    expect(me.json().user._id).toBe(user.id);
    // A redeemed challenge is spent.
    const again = await codeStep(challenge, await nextTotp(t, secret), ip);
    expect(again.statusCode).toBe(401);
    expect(again.json().message).toBe(SECURITY_MESSAGES.challengeExpired);
  });

  it('keeps "Remember me" from the password step, or takes it from the code step', async () => {
    const user = await createUser(t.app);
    const { secret } = await turnOnTwoFactor(t, user);
    const ip = newIp();
    const remembered = await codeStep(await challengeFor(user, ip, true), await nextTotp(t, secret), ip);
    expect(String(remembered.headers['set-cookie'])).toMatch(/Max-Age=2592000/);
    const overridden = await codeStep(
      await challengeFor(user, ip, true),
      await nextTotp(t, secret),
      ip,
      false,
    );
    expect(String(overridden.headers['set-cookie'])).not.toMatch(/Max-Age/);
  });

  it('accepts one step of clock drift either way, not two', async () => {
    const user = await createUser(t.app);
    const { secret } = await turnOnTwoFactor(t, user);
    const ip = newIp();
    const step = 30_000;
    t.advance(10 * step);
    const behind = await totpAt(secret, new Date(t.ctx.now().getTime() - step));
    expect((await codeStep(await challengeFor(user, ip), behind, ip)).statusCode).toBe(200);
    t.advance(10 * step);
    const ahead = await totpAt(secret, new Date(t.ctx.now().getTime() + step));
    expect((await codeStep(await challengeFor(user, ip), ahead, ip)).statusCode).toBe(200);
    t.advance(10 * step);
    const challenge = await challengeFor(user, ip);
    const tooOld = await totpAt(secret, new Date(t.ctx.now().getTime() - 2 * step));
    const tooNew = await totpAt(secret, new Date(t.ctx.now().getTime() + 2 * step));
    for (const code of [tooOld, tooNew]) {
      const res = await codeStep(challenge, code, ip);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: SECURITY_MESSAGES.invalidCode, field: 'code' });
    }
  });

  it('refuses a code that was already used, and any code of an earlier step after it', async () => {
    const user = await createUser(t.app);
    const { secret } = await turnOnTwoFactor(t, user);
    const ip = newIp();
    const code = await nextTotp(t, secret);
    expect((await codeStep(await challengeFor(user, ip), code, ip)).statusCode).toBe(200);
    const reused = await codeStep(await challengeFor(user, ip), code, ip);
    expect(reused.statusCode).toBe(401);
    expect(reused.json().message).toBe(SECURITY_MESSAGES.invalidCode);
    // The previous step's code is still inside the drift window, but older than the one used.
    const earlier = await totpAt(secret, new Date(t.ctx.now().getTime() - 30_000));
    expect((await codeStep(await challengeFor(user, ip), earlier, ip)).statusCode).toBe(401);
  });

  it('lets a code be used once even when two requests race with it', async () => {
    const user = await createUser(t.app);
    const { secret } = await turnOnTwoFactor(t, user);
    const ip = newIp();
    const [a, b] = [await challengeFor(user, ip), await challengeFor(user, ip)];
    const code = await nextTotp(t, secret);
    const results = await Promise.all([codeStep(a, code, ip), codeStep(b, code, ip)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 401]);
  });

  it('ends the challenge after five minutes', async () => {
    const user = await createUser(t.app);
    const { secret } = await turnOnTwoFactor(t, user);
    const ip = newIp();
    const challenge = await challengeFor(user, ip);
    t.advance(CHALLENGE_TTL_MS + 1000);
    const res = await codeStep(challenge, await totpAt(secret, t.ctx.now()), ip);
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(SECURITY_MESSAGES.challengeExpired);
  });

  it('allows five codes per challenge, counted before checking, even the right code after that', async () => {
    const user = await createUser(t.app);
    const { secret } = await turnOnTwoFactor(t, user);
    const ip = newIp();
    const challenge = await challengeFor(user, ip);
    const right = await nextTotp(t, secret);
    const wrong = right === '111111' ? '222222' : '111111';
    // Ten concurrent guesses: only five are ever checked.
    const guesses = await Promise.all(Array.from({ length: 10 }, () => codeStep(challenge, wrong, ip)));
    const messages = guesses.map((g) => g.json().message);
    expect(messages.filter((m) => m === SECURITY_MESSAGES.invalidCode)).toHaveLength(MAX_CHALLENGE_ATTEMPTS);
    expect(messages.filter((m) => m === SECURITY_MESSAGES.challengeExpired)).toHaveLength(5);
    const [row] = await t.ctx.db
      .select()
      .from(loginChallenges)
      .where(eq(loginChallenges.tokenHash, hashToken(challenge)));
    expect(row?.attempts).toBe(MAX_CHALLENGE_ATTEMPTS);
    const late = await codeStep(challenge, right, ip);
    expect(late.statusCode).toBe(401);
    expect(late.json().message).toBe(SECURITY_MESSAGES.challengeExpired);
    // A new password step starts a new challenge.
    expect((await codeStep(await challengeFor(user, ip), right, ip)).statusCode).toBe(200);
  });

  it('counts wrong codes toward the login throttle, like wrong passwords', async () => {
    const user = await createUser(t.app);
    const { secret } = await turnOnTwoFactor(t, user);
    const ip = newIp();
    // Ten wrong codes over two challenges (the right passwords in between do not count).
    for (let i = 0; i < 2; i++) {
      const challenge = await challengeFor(user, ip);
      for (let j = 0; j < 5; j++) expect((await codeStep(challenge, '000000', ip)).statusCode).toBe(401);
    }
    const blocked = await passwordStep(user, ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toBe(ACCOUNT_MESSAGES.tooManyAttempts);
    t.advance(15 * 60 * 1000 + 1000);
    const challenge = await challengeFor(user, ip);
    expect((await codeStep(challenge, await totpAt(secret, t.ctx.now()), ip)).statusCode).toBe(200);
  });

  it('takes a recovery code (however it is typed) once, instead of the authenticator code', async () => {
    const user = await createUser(t.app);
    const { recoveryCodes: codes } = await turnOnTwoFactor(t, user);
    const ip = newIp();
    const code = codes[3] as string;
    const typed = ` ${code.toUpperCase().replaceAll('-', ' ')} `;
    expect((await codeStep(await challengeFor(user, ip), typed, ip)).statusCode).toBe(200);
    const again = await codeStep(await challengeFor(user, ip), code, ip);
    expect(again.statusCode).toBe(401);
    expect(again.json().message).toBe(SECURITY_MESSAGES.invalidCode);
    expect((await t.app.inject({ url: '/api/2fa', headers: user.auth })).json().recoveryCodesLeft).toBe(9);
  });

  it("does not take another account's recovery code", async () => {
    const [user, other] = [await createUser(t.app), await createUser(t.app)];
    await turnOnTwoFactor(t, user);
    const { recoveryCodes: theirs } = await turnOnTwoFactor(t, other);
    const ip = newIp();
    expect((await codeStep(await challengeFor(user, ip), theirs[0] as string, ip)).statusCode).toBe(401);
  });

  it('answers an unknown challenge with 401 and stores nothing', async () => {
    const res = await codeStep('x'.repeat(43), '123456', newIp());
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(SECURITY_MESSAGES.challengeExpired);
    const missing = await post('/api/login/two-factor', { challenge: 'abc' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().field).toBe('code');
  });

  it('does not ask Google sign-in for a code (Google did the second factor)', async () => {
    const user = await createUser(t.app);
    await turnOnTwoFactor(t, user);
    const res = await post('/api/google-login', {
      credential: await google.sign({ email: user.email, sub: `sub-${user.id}` }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().token).toEqual(expect.any(String));
    expect(res.json().twoFactorRequired).toBeUndefined();
  });
});

describe('turning two-factor sign-in off', () => {
  it('needs the password and a code, and counts wrong ones toward the throttle', async () => {
    const user = await createUser(t.app);
    const { secret } = await turnOnTwoFactor(t, user);
    const ip = newIp();
    const disable = (payload: object) => post('/api/2fa/disable', payload, { auth: user.auth, ip });

    const noPassword = await disable({ code: await nextTotp(t, secret) });
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json()).toEqual({ message: SECURITY_MESSAGES.passwordRequired, field: 'password' });
    const wrongPassword = await disable({ password: 'nope nope nope', code: await nextTotp(t, secret) });
    expect(wrongPassword.json()).toEqual({ message: SECURITY_MESSAGES.wrongPassword, field: 'password' });
    const wrongCode = await disable({ password: user.password, code: '000000' });
    expect(wrongCode.json()).toEqual({ message: SECURITY_MESSAGES.invalidCode, field: 'code' });
    expect((await disable({ password: user.password })).statusCode).toBe(400);
    // Guessing here is throttled as at /api/login: eight more wrong answers, then even a right one waits.
    for (let i = 0; i < 8; i++)
      expect((await disable({ password: user.password, code: '000000' })).statusCode).toBe(400);
    const blocked = await disable({ password: user.password, code: await nextTotp(t, secret) });
    expect(blocked.statusCode).toBe(429);
    t.advance(15 * 60 * 1000 + 1000);

    const ok = await disable({ password: user.password, code: await nextTotp(t, secret) });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toBe(SECURITY_MESSAGES.disabled);
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.totpSecret).toBeNull();
    expect(row?.totpEnabledAt).toBeNull();
    expect(await t.ctx.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id))).toEqual([]);
    // The password alone signs in again.
    expect((await passwordStep(user, newIp())).json().token).toEqual(expect.any(String));
    expect((await disable({ password: user.password, code: '123456' })).statusCode).toBe(409);
  });

  it('takes a recovery code as the code', async () => {
    const user = await createUser(t.app);
    const { recoveryCodes: codes } = await turnOnTwoFactor(t, user);
    const res = await post(
      '/api/2fa/disable',
      { password: user.password, code: codes[0] },
      { auth: user.auth, ip: newIp() },
    );
    expect(res.statusCode).toBe(200);
  });

  it('proves a Google-only account (no password) with the code alone', async () => {
    const user = await createUser(t.app);
    const { secret } = await turnOnTwoFactor(t, user);
    await t.ctx.db.update(users).set({ passwordHash: null }).where(eq(users.id, user.id));
    expect((await t.app.inject({ url: '/api/2fa', headers: user.auth })).json().hasPassword).toBe(false);
    const res = await post(
      '/api/2fa/disable',
      { code: await nextTotp(t, secret) },
      { auth: user.auth, ip: newIp() },
    );
    expect(res.statusCode).toBe(200);
  });

  it('refuses an admin of a workspace that requires it (they would lock themselves out)', async () => {
    const user = await createUser(t.app);
    const { secret } = await turnOnTwoFactor(t, user);
    const ws = await createWorkspace(t, user);
    const required = await t.app.inject({
      method: 'PUT',
      url: `/api/workspaces/${ws.name}/two-factor`,
      headers: user.auth,
      payload: { required: true },
    });
    expect(required.statusCode).toBe(200);
    const res = await post(
      '/api/2fa/disable',
      { password: user.password, code: await nextTotp(t, secret) },
      { auth: user.auth, ip: newIp() },
    );
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(SECURITY_MESSAGES.adminOfRequiringWorkspace([ws.name]));
    expect((await t.app.inject({ url: '/api/2fa', headers: user.auth })).json().enabled).toBe(true);
  });
});
