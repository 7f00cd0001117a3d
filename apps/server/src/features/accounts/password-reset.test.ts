import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, uniqueEmail } from '../../../test/factories.ts';
import { type ReceivedMail, type SmtpServerFake, startSmtpServer } from '../../../test/fakes/smtp.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { mailOutbox, users } from '../../db/schema.ts';
import { FORGOT_PASSWORD_MIN_MS, RESET_MAILS_PER_HOUR } from './password-reset.service.ts';

/** "Forgot password?" through a real SMTP server in this process. */

let smtp: SmtpServerFake;
let t: TestApp;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({ env: { SMTP_URL: smtp.url } });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, headers, payload: payload as object });
const forgot = (email: string) => post('/api/account/password/forgot', { email });
const reset = (token: string, password: string) => post('/api/account/password/reset', { token, password });
const login = (email: string, password: string) => post('/api/login', { email, password });
const meStatus = async (auth: Record<string, string>) =>
  (await t.app.inject({ url: '/api/me', headers: auth })).statusCode;

const resetMails = (to: string) =>
  smtp.received.filter((m) => m.to.includes(to) && m.headers.get('x-cohort-kind') === 'reset_password');
async function resetToken(to: string, seen: ReceivedMail[] = []) {
  const mail = await smtp.waitFor(
    (m) => m.to.includes(to) && m.headers.get('x-cohort-kind') === 'reset_password' && !seen.includes(m),
  );
  const link = mail.links.find((l) => new URL(l).pathname === '/reset-password');
  return new URL(String(link)).searchParams.get('token') ?? '';
}
const NEW_PASSWORD = 'a completely new passphrase';

describe('POST /api/account/password/forgot', () => {
  it('answers the same for known and unknown addresses, and mails only the account that exists', async () => {
    const user = await createUser(t.app);
    const unknown = uniqueEmail('nobody');
    const known = await forgot(user.email);
    const missing = await forgot(unknown);
    expect(known.statusCode).toBe(200);
    expect(missing.statusCode).toBe(200);
    expect(known.body).toBe(missing.body);
    expect(known.json().message).toBe(
      'If an account exists for that address, we sent a link to reset its password.',
    );

    const mail = await smtp.waitFor(
      (m) => m.to.includes(user.email) && m.headers.get('x-cohort-kind') === 'reset_password',
    );
    expect(mail.subject).toBe('Reset your Cohort password');
    expect(mail.text).toContain('60 minutes');
    expect(mail.raw).not.toContain(user.password);
    expect(await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, unknown))).toHaveLength(0);
  });

  it('takes the same time for known and unknown addresses', async () => {
    const user = await createUser(t.app);
    const time = async (email: string) => {
      const started = performance.now();
      expect((await forgot(email)).statusCode).toBe(200);
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 3; i++) {
      known.push(await time(user.email));
      unknown.push(await time(uniqueEmail('timing')));
    }
    for (const ms of [...known, ...unknown]) expect(ms).toBeGreaterThanOrEqual(FORGOT_PASSWORD_MIN_MS - 5);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1] ?? 0;
    expect(Math.abs(median(known) - median(unknown))).toBeLessThan(100);
  });

  it(`mails at most ${RESET_MAILS_PER_HOUR} links an hour to one address, answering the same`, async () => {
    const user = await createUser(t.app);
    for (let i = 0; i < RESET_MAILS_PER_HOUR + 2; i++) {
      const res = await forgot(user.email);
      expect(res.statusCode).toBe(200);
    }
    const queued = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, user.email));
    expect(queued.filter((m) => m.kind === 'reset_password')).toHaveLength(RESET_MAILS_PER_HOUR);
  });

  it('validates the address', async () => {
    for (const body of [{}, { email: 'not an address' }, { email: 42 }]) {
      const res = await post('/api/account/password/forgot', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().field).toBe('email');
    }
  });
});

describe('POST /api/account/password/reset', () => {
  it('sets the password, ends every session, signs in, and the link works once', async () => {
    const user = await createUser(t.app);
    // Two other sessions: another browser and an API client.
    const other = (await login(user.email, user.password)).json().token as string;
    await forgot(user.email);
    const token = await resetToken(user.email);

    const res = await reset(token, NEW_PASSWORD);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(
      'Your password was reset. Every session of the account was signed out; you are signed in here.',
    );
    expect(res.headers['set-cookie']).toMatch(/^cohort_session=.+HttpOnly/);
    const fresh = { authorization: `Bearer ${res.json().token}` };
    expect(await meStatus(fresh)).toBe(200);
    expect(await meStatus(user.auth)).toBe(401);
    expect(await meStatus({ authorization: `Bearer ${other}` })).toBe(401);

    expect((await login(user.email, user.password)).statusCode).toBe(401);
    expect((await login(user.email, NEW_PASSWORD)).statusCode).toBe(200);

    const again = await reset(token, 'yet another long passphrase');
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toContain('already used');
    expect((await login(user.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a weak password with the reason, and the same link still works after', async () => {
    const user = await createUser(t.app, { firstName: 'Quintessa', lastName: 'Marlowe' });
    await forgot(user.email);
    const token = await resetToken(user.email);
    const weak = await reset(token, 'password123');
    expect(weak.statusCode).toBe(400);
    expect(weak.json().field).toBe('password');
    expect(weak.json().message).toMatch(/too easy to guess/);
    // The person's own name is an easy word.
    expect((await reset(token, 'quintessamarlowe')).statusCode).toBe(400);
    expect((await reset(token, 'short')).json().field).toBe('password');
    expect((await reset(token, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('expires after an hour', async () => {
    const user = await createUser(t.app);
    await forgot(user.email);
    const token = await resetToken(user.email);
    t.advance(60 * 60 * 1000 + 1000);
    const res = await reset(token, NEW_PASSWORD);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('This link has expired. Ask for a new one.');
    expect((await login(user.email, user.password)).statusCode).toBe(200);
  });

  it('only the newest link works, and a verification link is not a reset link', async () => {
    const email = uniqueEmail('two-links');
    const signup = await post('/api/signup', {
      firstName: 'Ada',
      lastName: 'L',
      email,
      password: 'correct horse battery',
    });
    expect(signup.statusCode).toBe(201);
    const verifyMail = await smtp.waitFor(
      (m) => m.to.includes(email) && m.headers.get('x-cohort-kind') === 'verify_email',
    );
    const verifyToken = new URL(String(verifyMail.links[0])).searchParams.get('token') ?? '';
    expect((await reset(verifyToken, NEW_PASSWORD)).json().message).toContain('This link is not valid');

    await forgot(email);
    const first = await resetToken(email);
    const seen = resetMails(email);
    await forgot(email);
    const second = await resetToken(email, seen);
    expect((await reset(first, NEW_PASSWORD)).statusCode).toBe(400);
    expect((await reset(second, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('verifies the address of an unverified account (the link proved it)', async () => {
    const user = await createUser(t.app, { verified: false });
    await forgot(user.email);
    const res = await reset(await resetToken(user.email), NEW_PASSWORD);
    const me = await t.app.inject({
      url: '/api/me',
      headers: { authorization: `Bearer ${res.json().token}` },
    });
    expect(me.json().user.emailVerified).toBe(true);
  });

  it('does not sign in an account with two-factor sign-in: the code is still asked at /login', async () => {
    const user = await createUser(t.app);
    await t.ctx.db
      .update(users)
      .set({ totpSecret: 'JBSWY3DPEHPK3PXP', totpEnabledAt: t.ctx.now() })
      .where(eq(users.id, user.id));
    await forgot(user.email);
    const res = await reset(await resetToken(user.email), NEW_PASSWORD);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message:
        'Your password was reset and every session was signed out. Log in with it and your authentication code.',
      twoFactorRequired: true,
    });
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await meStatus(user.auth)).toBe(401);
    const next = await login(user.email, NEW_PASSWORD);
    expect(next.statusCode).toBe(200);
    expect(next.json().token).toBeUndefined();
  });
});

describe('POST /api/users/password (change) uses the same strength rule', () => {
  it('refuses a weak new password naming newPassword', async () => {
    const user = await createUser(t.app);
    const res = await post(
      '/api/users/password',
      { currentPassword: user.password, newPassword: 'qwertyuiop' },
      user.auth,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe('newPassword');
    expect(res.json().message).toMatch(/too easy to guess/);
  });
});
