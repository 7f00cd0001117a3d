import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser, uniqueEmail } from '../../../test/factories.ts';
import { type ReceivedMail, type SmtpServerFake, startSmtpServer } from '../../../test/fakes/smtp.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { accountTokens, mailOutbox, users } from '../../db/schema.ts';
import { VERIFICATION_RESEND_LIMIT } from './email.service.ts';

/**
 * Verified addresses and e-mail changes, end to end through a real SMTP server in this process:
 * every link a test follows is one the server mailed.
 */

const PUBLIC_URL = 'http://cohort.test:8080';
let smtp: SmtpServerFake;
let t: TestApp;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({ env: { SMTP_URL: smtp.url, PUBLIC_URL } });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const post = (url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url,
    headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const me = async (auth: Record<string, string>) =>
  (await t.app.inject({ url: '/api/me', headers: auth })).json().user;
const login = (email: string, password: string) => post('/api/login', { email, password });

const kindOf = (m: ReceivedMail) => m.headers.get('x-cohort-kind');
/** The newest mail of `kind` to `to` that is not among `seen`. */
async function mailTo(to: string, kind: string, seen: ReceivedMail[] = []) {
  return smtp.waitFor((m) => m.to.includes(to) && kindOf(m) === kind && !seen.includes(m));
}
const tokenOf = (m: ReceivedMail, path: string) => {
  const link = m.links.find((l) => new URL(l).pathname === path);
  if (!link) throw new Error(`no ${path} link in ${m.text}`);
  expect(link.startsWith(`${PUBLIC_URL}${path}?token=`)).toBe(true);
  return new URL(link).searchParams.get('token') ?? '';
};
const mailsTo = (to: string, kind: string) =>
  smtp.received.filter((m) => m.to.includes(to) && kindOf(m) === kind);
const outboxTo = (to: string) => t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to));

async function signUp(password = 'correct horse battery') {
  const email = uniqueEmail('signup');
  const res = await post('/api/signup', { firstName: 'Ada', lastName: 'Lovelace', email, password });
  expect(res.statusCode).toBe(201);
  const mail = await mailTo(email, 'verify_email');
  const loggedIn = await login(email, password);
  expect(loggedIn.statusCode).toBe(200);
  const auth = { authorization: `Bearer ${loggedIn.json().token}` };
  return { email, password, mail, token: tokenOf(mail, '/verify-email'), auth };
}

describe('sign-up verification', () => {
  it('mails a single-use link (only its SHA-256 stored, 24 h); the unverified account can sign in', async () => {
    const { email, password, mail, token, auth } = await signUp();
    expect(mail.subject).toBe('Verify your e-mail address for Cohort');
    expect(mail.text).toContain('Hi Ada,');
    // No mail carries a password or a session token.
    expect(mail.raw).not.toContain(password);
    expect(mail.raw).not.toContain(auth.authorization.slice(7));

    const [user] = await t.ctx.db.select().from(users).where(eq(users.email, email));
    const rows = await t.ctx.db
      .select()
      .from(accountTokens)
      .where(eq(accountTokens.userId, String(user?.id)));
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row?.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect((row?.expiresAt.getTime() ?? 0) - (row?.createdAt.getTime() ?? 0)).toBe(24 * 60 * 60 * 1000);

    expect(await me(auth)).toMatchObject({ email, emailVerified: false });
    const verified = await post('/api/account/verify-email', { token });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toEqual({ message: 'Your e-mail address is verified.' });
    expect(await me(auth)).toMatchObject({ email, emailVerified: true });

    // Single use.
    const again = await post('/api/account/verify-email', { token });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      message: 'This link was already used. Ask for a new one if you still need it.',
      field: 'token',
    });
  });

  it('lets an unverified account sign in and create its own workspace', async () => {
    const { auth } = await signUp();
    const res = await post(
      '/api/workspaces',
      { name: `Mine ${Date.now().toString(36)}`, description: 'Before verifying', members: [] },
      auth,
    );
    expect(res.statusCode).toBe(201);
  });

  it('refuses an expired link, and the account stays unverified', async () => {
    const { email, token } = await signUp();
    t.advance(24 * 60 * 60 * 1000 + 1000);
    const res = await post('/api/account/verify-email', { token });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('This link has expired. Ask for a new one.');
    const [row] = await t.ctx.db.select().from(users).where(eq(users.email, email));
    expect(row?.emailVerifiedAt).toBeNull();
  });

  it('refuses unknown and malformed tokens with a clear 400', async () => {
    const unknown = await post('/api/account/verify-email', { token: 'A'.repeat(43) });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(
      'This link is not valid. Open the latest link we sent you, or ask for a new one.',
    );
    for (const body of [{}, { token: 'short' }, { token: 42 }, { token: 'x'.repeat(201) }]) {
      const res = await post('/api/account/verify-email', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().field).toBe('token');
    }
  });

  it('a token of another kind does not verify (a reset link is not a verification link)', async () => {
    const { email, auth } = await signUp();
    expect((await post('/api/account/password/forgot', { email })).statusCode).toBe(200);
    const reset = tokenOf(await mailTo(email, 'reset_password'), '/reset-password');
    const res = await post('/api/account/verify-email', { token: reset });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('This link is not valid');
    expect((await me(auth)).emailVerified).toBe(false);
  });

  it("another account's link verifies that account, never the one who is signed in", async () => {
    const a = await signUp();
    const b = await signUp();
    expect((await post('/api/account/verify-email', { token: a.token }, b.auth)).statusCode).toBe(200);
    expect((await me(a.auth)).emailVerified).toBe(true);
    expect((await me(b.auth)).emailVerified).toBe(false);
  });

  it('refuses a weak password at sign-up with the reason, creating no account and sending no mail', async () => {
    const email = uniqueEmail('weak');
    const res = await post('/api/signup', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email,
      password: 'password123',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe('password');
    expect(res.json().message).toMatch(/too easy to guess.*commonly used password/);
    const named = await post('/api/signup', {
      firstName: 'Zanzibarr',
      lastName: 'Quixotic',
      email,
      password: 'zanzibarrquixotic',
    });
    expect(named.statusCode).toBe(400);
    expect(await t.ctx.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
    expect(await outboxTo(email)).toHaveLength(0);
  });
});

describe('POST /api/account/verification/resend', () => {
  it('needs a session and an unverified address', async () => {
    expect((await post('/api/account/verification/resend')).statusCode).toBe(401);
    const verified = await createUser(t.app);
    const res = await post('/api/account/verification/resend', undefined, verified.auth);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Your e-mail address is already verified.');
  });

  it('mails a new link that replaces the old one', async () => {
    const { email, mail, token, auth } = await signUp();
    const res = await post('/api/account/verification/resend', undefined, auth);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('We sent a verification link to your e-mail address.');
    const fresh = tokenOf(await mailTo(email, 'verify_email', [mail]), '/verify-email');
    expect(fresh).not.toBe(token);
    expect((await post('/api/account/verify-email', { token })).statusCode).toBe(400);
    expect((await post('/api/account/verify-email', { token: fresh })).statusCode).toBe(200);
  });

  it(`is limited to ${VERIFICATION_RESEND_LIMIT} an hour, even when the requests race`, async () => {
    const { email, auth } = await signUp();
    const results = await Promise.all(
      Array.from({ length: VERIFICATION_RESEND_LIMIT + 3 }, () =>
        post('/api/account/verification/resend', undefined, auth),
      ),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(VERIFICATION_RESEND_LIMIT);
    const refused = results.find((r) => r.statusCode === 429);
    expect(refused?.json().message).toBe(
      'Too many verification e-mails. Please wait a while before asking for another.',
    );
    expect(Number(refused?.headers['retry-after'])).toBeGreaterThan(0);
    // Sign-up's mail plus the allowed resends, no more.
    expect(await outboxTo(email)).toHaveLength(1 + VERIFICATION_RESEND_LIMIT);
    t.advance(60 * 60 * 1000 + 1000);
    expect((await post('/api/account/verification/resend', undefined, auth)).statusCode).toBe(200);
  });
});

describe('changing the e-mail address', () => {
  const change = (auth: Record<string, string>, body: unknown) => post('/api/account/email', body, auth);

  it('takes effect only through the link mailed to the new address, then tells the old one', async () => {
    const user = await createUser(t.app, { firstName: '<b>Ada</b>' });
    const newEmail = uniqueEmail('moved');
    const res = await change(user.auth, { newEmail: ` ${newEmail.toUpperCase()} `, password: user.password });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(
      'We sent a confirmation link to your new address. The change takes effect when you open it.',
    );
    const mail = await mailTo(newEmail, 'change_email');
    expect(mail.text).toContain(`from ${user.email} to ${newEmail}`);
    expect(mail.html).toContain('&lt;b&gt;Ada&lt;/b&gt;');
    // Nothing changed yet.
    expect((await me(user.auth)).email).toBe(user.email);

    const confirmed = await post('/api/account/email/confirm', { token: tokenOf(mail, '/confirm-email') });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().message).toBe('Your e-mail address was changed.');
    expect(await me(user.auth)).toMatchObject({ email: newEmail, emailVerified: true });
    expect((await login(newEmail, user.password)).statusCode).toBe(200);
    expect((await login(user.email, user.password)).statusCode).toBe(401);

    const notice = await mailTo(user.email, 'email_changed');
    expect(notice.subject).toBe('Your Cohort e-mail address was changed');
    expect(notice.text).toContain(newEmail);

    const reuse = await post('/api/account/email/confirm', { token: tokenOf(mail, '/confirm-email') });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().message).toContain('already used');
  });

  it('fails cleanly with 409 when the new address was taken in the meantime', async () => {
    const user = await createUser(t.app);
    const newEmail = uniqueEmail('contested');
    expect((await change(user.auth, { newEmail, password: user.password })).statusCode).toBe(200);
    const token = tokenOf(await mailTo(newEmail, 'change_email'), '/confirm-email');
    await createUser(t.app, { email: newEmail });
    const res = await post('/api/account/email/confirm', { token });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('An account with this e-mail already exists');
    expect((await me(user.auth)).email).toBe(user.email);
    expect(mailsTo(user.email, 'email_changed')).toHaveLength(0);
  });

  it('checks the password (counted as a failed login), the address and the account kind', async () => {
    const user = await createUser(t.app);
    const other = await createUser(t.app);
    const wrong = await change(user.auth, { newEmail: uniqueEmail(), password: 'not my password at all' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ message: 'Password is incorrect', field: 'password' });
    const same = await change(user.auth, { newEmail: user.email, password: user.password });
    expect(same.statusCode).toBe(400);
    expect(same.json().field).toBe('newEmail');
    const taken = await change(user.auth, { newEmail: other.email, password: user.password });
    expect(taken.statusCode).toBe(409);
    for (const body of [{}, { newEmail: 'nope', password: 'x' }, { newEmail: uniqueEmail(), password: '' }]) {
      expect((await change(user.auth, body)).statusCode).toBe(400);
    }
    expect((await change({}, { newEmail: uniqueEmail(), password: user.password })).statusCode).toBe(401);
    // A Google-only account has no password to prove it with.
    await t.ctx.db.update(users).set({ passwordHash: null }).where(eq(users.id, other.id));
    const google = await change(other.auth, { newEmail: uniqueEmail(), password: 'anything at all' });
    expect(google.statusCode).toBe(400);
    expect(google.json().message).toContain('signs in with Google');
  });

  it('counts wrong passwords toward the login throttle (10 from one address, then 429 even when right)', async () => {
    const user = await createUser(t.app);
    const from = (payload: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/api/account/email',
        headers: user.auth,
        remoteAddress: '198.51.100.77',
        payload: payload as object,
      });
    for (let i = 0; i < 10; i++) {
      expect((await from({ newEmail: uniqueEmail(), password: `wrong guess ${i}` })).statusCode).toBe(400);
    }
    const blocked = await from({ newEmail: uniqueEmail(), password: user.password });
    expect(blocked.statusCode).toBe(429);
    expect(
      await t.ctx.db.select().from(accountTokens).where(eq(accountTokens.kind, 'change_email')),
    ).not.toContainEqual(expect.objectContaining({ userId: user.id }));
  });

  it('only the newest request works, and a change link is not a verification link', async () => {
    const user = await createUser(t.app);
    const first = uniqueEmail('first');
    const second = uniqueEmail('second');
    await change(user.auth, { newEmail: first, password: user.password });
    const firstToken = tokenOf(await mailTo(first, 'change_email'), '/confirm-email');
    await change(user.auth, { newEmail: second, password: user.password });
    const secondToken = tokenOf(await mailTo(second, 'change_email'), '/confirm-email');
    expect((await post('/api/account/verify-email', { token: secondToken })).statusCode).toBe(400);
    expect((await post('/api/account/email/confirm', { token: firstToken })).statusCode).toBe(400);
    expect((await post('/api/account/email/confirm', { token: secondToken })).statusCode).toBe(200);
    expect((await me(user.auth)).email).toBe(second);
  });

  it('ends the links mailed to the old address (a reset link no longer works)', async () => {
    const user: TestUser = await createUser(t.app);
    await post('/api/account/password/forgot', { email: user.email });
    const reset = tokenOf(await mailTo(user.email, 'reset_password'), '/reset-password');
    const newEmail = uniqueEmail('after');
    await change(user.auth, { newEmail, password: user.password });
    await post('/api/account/email/confirm', {
      token: tokenOf(await mailTo(newEmail, 'change_email'), '/confirm-email'),
    });
    const res = await post('/api/account/password/reset', {
      token: reset,
      password: 'a fresh long passphrase',
    });
    expect(res.statusCode).toBe(400);
    const [row] = await t.ctx.db
      .select()
      .from(accountTokens)
      .where(and(eq(accountTokens.userId, user.id), eq(accountTokens.kind, 'reset_password')));
    expect(row?.usedAt).not.toBeNull();
  });
});
