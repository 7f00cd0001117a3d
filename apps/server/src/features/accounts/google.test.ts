import { eq } from 'drizzle-orm';
import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, uniqueEmail } from '../../../test/factories.ts';
import { startFakeGoogle } from '../../../test/fakes/google-identity.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { accountTokens, recoveryCodes, users } from '../../db/schema.ts';

const CLIENT_ID = 'cohort-test.apps.googleusercontent.com';
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

const googleLogin = (credential: string, path = '/api/google-login') =>
  t.app.inject({ method: 'POST', url: path, payload: { credential } });
const sub = () => `sub-${Math.random().toString(36).slice(2)}`;
const login = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });

describe('Google sign-in', () => {
  it('creates an account from a valid ID token, splitting the display name', async () => {
    const email = uniqueEmail('grace');
    const res = await googleLogin(await google.sign({ email, sub: sub(), name: 'Grace Brewster Hopper' }));
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Google login successful!');
    const me = await t.app.inject({
      url: '/api/me',
      headers: { authorization: `Bearer ${res.json().token}` },
    });
    expect(me.json().user).toMatchObject({ email, firstName: 'Grace', lastName: 'Brewster Hopper' });
  });

  it('google-signup of an existing Google user logs in to the same account', async () => {
    const email = uniqueEmail('g');
    const id = sub();
    const first = await googleLogin(await google.sign({ email, sub: id }), '/api/google-signup');
    expect(first.json().message).toBe('Google signup successful!');
    const second = await googleLogin(await google.sign({ email, sub: id }), '/api/google-signup');
    expect(second.statusCode).toBe(200);
    expect(await t.ctx.db.select().from(users).where(eq(users.email, email))).toHaveLength(1);
  });

  it('links a verified Google e-mail to the existing verified password account, which keeps its password and sessions', async () => {
    const user = await createUser(t.app);
    const res = await googleLogin(await google.sign({ email: user.email, sub: sub() }));
    expect(res.statusCode).toBe(200);
    const me = await t.app.inject({
      url: '/api/me',
      headers: { authorization: `Bearer ${res.json().token}` },
    });
    expect(me.json().user._id).toBe(user.id);
    expect((await t.app.inject({ url: '/api/me', headers: user.auth })).statusCode).toBe(200);
    expect((await login(user.email, user.password)).statusCode).toBe(200);
  });

  it('makes new Google accounts verified', async () => {
    const res = await googleLogin(await google.sign({ email: uniqueEmail('new-g'), sub: sub() }));
    const me = await t.app.inject({
      url: '/api/me',
      headers: { authorization: `Bearer ${res.json().token}` },
    });
    expect(me.json().user.emailVerified).toBe(true);
  });

  it('lets the Google identity win over a password account that was never verified', async () => {
    // Someone registered the address in advance, set a password and kept a session open.
    const squatter = await createUser(t.app, { verified: false });
    const [before] = await t.ctx.db.select().from(accountTokens).where(eq(accountTokens.userId, squatter.id));
    expect(before?.usedAt).toBeNull();
    // They even turned on an authenticator of their own.
    await t.ctx.db
      .update(users)
      .set({ totpSecret: 'JBSWY3DPEHPK3PXP', totpEnabledAt: t.ctx.now() })
      .where(eq(users.id, squatter.id));
    await t.ctx.db.insert(recoveryCodes).values({ userId: squatter.id, codeHash: 'x' });

    const googleSub = sub();
    const res = await googleLogin(await google.sign({ email: squatter.email, sub: googleSub }));
    expect(res.statusCode).toBe(200);
    const owner = { authorization: `Bearer ${res.json().token}` };
    const me = await t.app.inject({ url: '/api/me', headers: owner });
    expect(me.json().user).toMatchObject({ _id: squatter.id, email: squatter.email, emailVerified: true });

    // The password set in advance stops working, and so does every session made with it.
    expect((await t.app.inject({ url: '/api/me', headers: squatter.auth })).statusCode).toBe(401);
    expect((await login(squatter.email, squatter.password)).statusCode).toBe(401);
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, squatter.id));
    expect(row).toMatchObject({ googleSub, passwordHash: null, totpSecret: null, totpEnabledAt: null });
    expect(row?.emailVerifiedAt).toBeInstanceOf(Date);
    expect(await t.ctx.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, squatter.id))).toEqual(
      [],
    );
    // The verification link mailed at sign-up no longer does anything.
    const tokens = await t.ctx.db.select().from(accountTokens).where(eq(accountTokens.userId, squatter.id));
    expect(tokens.every((tk) => tk.usedAt !== null)).toBe(true);
  });

  it('refuses an e-mail Google has not verified with 401 and a clear message, linking nothing', async () => {
    const user = await createUser(t.app);
    const res = await googleLogin(
      await google.sign({ email: user.email, sub: sub(), email_verified: false }),
    );
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(
      'Google has not verified this e-mail address, so it cannot be used to sign in',
    );
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.googleSub).toBeNull();
    // A string "true" is not true.
    const stringly = await googleLogin(
      await google.sign({ email: uniqueEmail(), sub: sub(), email_verified: 'true' }),
    );
    expect(stringly.statusCode).toBe(401);
  });

  it.each([['not-an-address'], ['two@at@example.com'], [''], [`${'x'.repeat(250)}@example.com`]])(
    'refuses an email claim that is not an address (%s) with 401',
    async (email) => {
      const before = (await t.ctx.db.select().from(users)).length;
      const res = await googleLogin(await google.sign({ email, sub: sub() }));
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe('Google did not provide a valid e-mail address');
      expect((await t.ctx.db.select().from(users)).length).toBe(before);
    },
  );

  it.each([
    ['wrong audience', async () => google.sign({ aud: 'someone-else.apps.googleusercontent.com' })],
    ['wrong issuer', async () => google.sign({ iss: 'https://evil.example' })],
    ['expired', async () => google.sign({}, { expiresIn: Math.floor(Date.now() / 1000) - 60 })],
    ['foreign signature', async () => google.sign({}, { key: (await generateKeyPair('RS256')).privateKey })],
    [
      'alg none',
      async () => {
        const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
        const body = Buffer.from(
          JSON.stringify({
            iss: 'https://accounts.google.com',
            aud: CLIENT_ID,
            sub: 'x',
            email: 'none@example.com',
            email_verified: true,
            exp: Math.floor(Date.now() / 1000) + 600,
          }),
        ).toString('base64url');
        return `${header}.${body}.`;
      },
    ],
    [
      'HS256 signed with the public key id',
      async () =>
        new SignJWT({ email: 'hs@example.com', email_verified: true })
          .setProtectedHeader({ alg: 'HS256', kid: 'fake-google-1' })
          .setIssuer('https://accounts.google.com')
          .setAudience(CLIENT_ID)
          .setSubject('hs')
          .setExpirationTime('1h')
          .sign(new TextEncoder().encode('a-shared-secret-of-enough-length!!')),
    ],
  ])('refuses a token with %s and creates no account', async (_name, make) => {
    const before = (await t.ctx.db.select().from(users)).length;
    const res = await googleLogin(await make());
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Invalid Google credential');
    expect((await t.ctx.db.select().from(users)).length).toBe(before);
  });

  it("refuses the prototype's bare {email, googleId}", async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/google-login',
      payload: { email: 'victim@example.com', googleId: '1' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe('credential');
  });
});

describe('Google sign-in when not configured', () => {
  it('says so and signs nobody in', async () => {
    const plain = await createTestApp();
    try {
      const res = await plain.app.inject({
        method: 'POST',
        url: '/api/google-login',
        payload: { credential: await google.sign() },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Google sign-in is not configured on this server');
      const config = await plain.app.inject({ url: '/api/config' });
      expect(config.json()).toEqual({ googleClientId: null });
    } finally {
      await plain.close();
    }
  });
});
