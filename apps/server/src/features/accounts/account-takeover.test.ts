import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser, uniqueEmail } from '../../../test/factories.ts';
import { type ReceivedMail, type SmtpServerFake, startSmtpServer } from '../../../test/fakes/smtp.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { mailOutbox } from '../../db/schema.ts';
import { EMAIL_CHANGE_LIMIT } from './email.service.ts';
import { RESET_REQUESTS_PER_IP_PER_HOUR } from './password-reset.service.ts';
import { nextTotp, turnOnTwoFactor } from './two-factor.test-fixtures.ts';

/**
 * Red-team review of issue 16: what someone who once knew a password (or set up an account with
 * another person's address) could keep after the owner takes it back, and mail budgets per sender.
 */

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

const post = (url: string, payload: unknown, headers: Record<string, string> = {}, remoteAddress?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    headers,
    payload: payload as object,
    ...(remoteAddress ? { remoteAddress } : {}),
  });
const me = async (auth: Record<string, string>) =>
  (await t.app.inject({ url: '/api/me', headers: auth })).json().user;
const kindOf = (m: ReceivedMail) => m.headers.get('x-cohort-kind');
const mailTo = (to: string, kind: string, seen: ReceivedMail[] = []) =>
  smtp.waitFor((m) => m.to.includes(to) && kindOf(m) === kind && !seen.includes(m));
const tokenOf = (m: ReceivedMail, path: string) => {
  const link = m.links.find((l) => new URL(l).pathname === path);
  if (!link) throw new Error(`no ${path} link in ${m.text}`);
  return new URL(link).searchParams.get('token') ?? '';
};
const outboxTo = (to: string, kind?: string) =>
  t.ctx.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, to), kind ? eq(mailOutbox.kind, kind) : undefined));

/** The owner takes the account back through "Forgot password?" and the mailed link. */
async function resetByMail(user: TestUser, password = 'a completely new passphrase') {
  const seen = smtp.received.filter((m) => m.to.includes(user.email));
  expect((await post('/api/account/password/forgot', { email: user.email })).statusCode).toBe(200);
  const token = tokenOf(await mailTo(user.email, 'reset_password', seen), '/reset-password');
  const res = await post('/api/account/password/reset', { token, password });
  expect(res.statusCode).toBe(200);
  return res;
}

/** Someone who knows the password asks to move the account to their own address. */
async function pendingChangeTo(user: TestUser, auth = user.auth) {
  const evil = uniqueEmail('attacker');
  const res = await post('/api/account/email', { newEmail: evil, password: user.password }, auth);
  expect(res.statusCode).toBe(200);
  return { evil, token: tokenOf(await mailTo(evil, 'change_email'), '/confirm-email') };
}

describe('what survives the owner taking the account back', () => {
  it('a pending e-mail change dies with a password reset', async () => {
    const user = await createUser(t.app);
    const { evil, token } = await pendingChangeTo(user);
    await resetByMail(user);
    const confirm = await post('/api/account/email/confirm', { token });
    expect(confirm.statusCode).toBe(400);
    const relogin = await post('/api/login', { email: user.email, password: 'a completely new passphrase' });
    expect((await me({ authorization: `Bearer ${relogin.json().token}` })).email).toBe(user.email);
    expect(
      (await post('/api/login', { email: evil, password: 'a completely new passphrase' })).statusCode,
    ).toBe(401);
  });

  it('a pending e-mail change dies with a password change', async () => {
    const user = await createUser(t.app);
    const { token } = await pendingChangeTo(user);
    const changed = await post(
      '/api/users/password',
      { currentPassword: user.password, newPassword: 'another fresh passphrase' },
      user.auth,
    );
    expect(changed.statusCode).toBe(200);
    expect((await post('/api/account/email/confirm', { token })).statusCode).toBe(400);
    expect((await me(user.auth)).email).toBe(user.email);
  });

  it("a sign-in's pending code step dies with a password reset", async () => {
    const user = await createUser(t.app);
    const { secret } = await turnOnTwoFactor(t, user);
    const login = await post('/api/login', { email: user.email, password: user.password });
    expect(login.json().twoFactorRequired).toBe(true);
    const { challenge } = login.json();
    const reset = await resetByMail(user);
    expect(reset.json().twoFactorRequired).toBe(true);
    const redeem = await post('/api/login/two-factor', { challenge, code: await nextTotp(t, secret) });
    expect(redeem.statusCode).toBe(401);
  });

  it('a reset claims an unverified account: the two-factor its maker set up goes too', async () => {
    // Someone registered the owner's address in advance and turned on their own authenticator.
    const squatter = await createUser(t.app, { verified: false });
    const { recoveryCodes } = await turnOnTwoFactor(t, squatter);
    const reset = await resetByMail(squatter);
    // The owner is signed in by the link, not locked out by the squatter's second factor.
    const token = reset.json().token as string;
    expect(token).toBeTruthy();
    const auth = { authorization: `Bearer ${token}` };
    expect(await me(auth)).toMatchObject({ emailVerified: true });
    expect((await t.app.inject({ url: '/api/2fa', headers: auth })).json().enabled).toBe(false);
    expect((await me(squatter.auth)) ?? null).toBeNull();
    const login = await post('/api/login', {
      email: squatter.email,
      password: 'a completely new passphrase',
    });
    expect(login.json().token).toBeTruthy();
    expect(recoveryCodes.length).toBeGreaterThan(0);
  });
});

describe('mail budgets per sender', () => {
  it(`e-mail change links: ${EMAIL_CHANGE_LIMIT} an hour per account, then 429 and no mail`, async () => {
    const user = await createUser(t.app);
    for (let i = 0; i < EMAIL_CHANGE_LIMIT; i++) {
      const res = await post(
        '/api/account/email',
        { newEmail: uniqueEmail('victim'), password: user.password },
        user.auth,
      );
      expect(res.statusCode).toBe(200);
    }
    const over = uniqueEmail('victim');
    const res = await post('/api/account/email', { newEmail: over, password: user.password }, user.auth);
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toMatch(/too many/i);
    expect(await outboxTo(over)).toHaveLength(0);
    t.advance(60 * 60 * 1000 + 1000);
    const later = await post('/api/account/email', { newEmail: over, password: user.password }, user.auth);
    expect(later.statusCode).toBe(200);
  });

  it(`forgot password: ${RESET_REQUESTS_PER_IP_PER_HOUR} requests an hour per client, answered the same, then no mail`, async () => {
    const ip = '203.0.113.77';
    const victims = await Promise.all(Array.from({ length: 2 }, () => createUser(t.app)));
    const forgot = (email: string) => post('/api/account/password/forgot', { email }, {}, ip);
    const first = await forgot(victims[0]?.email ?? '');
    for (let i = 1; i < RESET_REQUESTS_PER_IP_PER_HOUR; i++) await forgot(uniqueEmail('list'));
    const over = await forgot(victims[1]?.email ?? '');
    expect(over.statusCode).toBe(200);
    expect(over.body).toBe(first.body);
    expect(await outboxTo(victims[0]?.email ?? '', 'reset_password')).toHaveLength(1);
    expect(await outboxTo(victims[1]?.email ?? '', 'reset_password')).toHaveLength(0);
    // Another client is not affected.
    expect(
      (await post('/api/account/password/forgot', { email: victims[1]?.email }, {}, '198.51.100.9'))
        .statusCode,
    ).toBe(200);
    expect(await outboxTo(victims[1]?.email ?? '', 'reset_password')).toHaveLength(1);
  }, 30_000);
});
