import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createUser, uniqueEmail } from '../../../test/factories.ts';
import { type SmtpServerFake, startSmtpServer } from '../../../test/fakes/smtp.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { loadConfig } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import { mailOutbox } from '../../db/schema.ts';
import { appLink, composeMail } from './mail.compose.ts';
import { queueMail } from './mail.outbox.ts';
import { MAIL_MAX_ATTEMPTS, MAIL_RETRY_DELAYS_MS, MailSender } from './mail.sender.ts';

const FIRST_RETRY_MS = MAIL_RETRY_DELAYS_MS[0] ?? 0;

let smtp: SmtpServerFake;
let t: TestApp;
const ADMIN = uniqueEmail('operator');

beforeAll(async () => {
  smtp = await startSmtpServer({ user: 'cohort', pass: 's3cret:@/' });
  t = await createTestApp({
    env: {
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Cohort Test <cohort@example.test>',
      ADMIN_EMAILS: ` ${ADMIN.toUpperCase()} ,second-operator@example.com`,
    },
    // The tests drain by hand so each step is observable.
    mail: { pollMs: 0 },
  });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});
beforeEach(() => smtp.refuse(0));

const sample = (to: string, name = 'Ada') =>
  composeMail({
    kind: 'test',
    to,
    subject: `Hello ${name}`,
    paragraphs: [`${name} invited you.`, 'Second paragraph.'],
    action: { label: 'Open Cohort', url: 'https://cohort.example/verify-email?token=abc&x=1' },
    footer: 'You got this because someone typed your address.',
  });

const rowFor = async (to: string) => {
  const [row] = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to));
  if (!row) throw new Error(`no outbox row for ${to}`);
  return row;
};

/** Drains until nothing is due (the app's own drainer may be running too: it is the same queue). */
const drainAll = async (sender: MailSender = t.mail) => {
  while ((await sender.drain()) > 0) {}
};

describe('delivery through SMTP_URL', () => {
  it('sends a queued mail with MAIL_FROM, authenticating with the URL credentials, then drops its bodies', async () => {
    const to = uniqueEmail('dest');
    await queueMail(t.ctx.db, sample(to));
    await drainAll();
    const mail = await smtp.waitFor((m) => m.to.includes(to));
    expect(mail.from).toBe('"Cohort Test" <cohort@example.test>');
    expect(mail.user).toBe('cohort');
    expect(mail.subject).toBe('Hello Ada');
    expect(mail.text).toContain('Ada invited you.');
    expect(mail.links).toEqual(['https://cohort.example/verify-email?token=abc&x=1']);
    expect(mail.html).toContain('href="https://cohort.example/verify-email?token=abc&amp;x=1"');
    expect(mail.headers.get('x-cohort-kind')).toBe('test');

    const row = await rowFor(to);
    expect(row).toMatchObject({
      status: 'sent',
      attempts: 1,
      textBody: null,
      htmlBody: null,
      lastError: null,
    });
    expect(row.sentAt).toBeInstanceOf(Date);
  });

  it('escapes every user-supplied string in the HTML part and keeps headers on one line', async () => {
    const to = uniqueEmail('esc');
    const evil = `<img src=x onerror="alert('x')">&\r\nBcc: victim@example.com`;
    await queueMail(t.ctx.db, sample(to, evil));
    await drainAll();
    const mail = await smtp.waitFor((m) => m.to.includes(to));
    expect(mail.to).toEqual([to]);
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt;&amp;');
    // The subject stays one header: no injected Bcc.
    expect(mail.subject).toBe(`Hello <img src=x onerror="alert('x')">& Bcc: victim@example.com`);
    expect(mail.headers.get('bcc')).toBeUndefined();
    // The text part is plain text: the name as typed.
    expect(mail.text).toContain(`<img src=x onerror="alert('x')">&`);
  });

  it('refuses to compose a mail whose button is not an http(s) link', () => {
    expect(() =>
      composeMail({
        kind: 'x',
        to: 'a@b.c',
        subject: 's',
        paragraphs: [],
        action: { label: 'x', url: 'javascript:alert(1)' },
      }),
    ).toThrow(/http/);
  });

  it('queues the mail of a bus event in the transaction that publishes it: rolled back, no mail', async () => {
    const kept = uniqueEmail('kept');
    const dropped = uniqueEmail('dropped');
    const publish = (db: typeof t.ctx.db, to: string) =>
      t.ctx.bus.emitStrict('verificationIssued', { db, to, firstName: 'Ada', token: 'tok' });
    await t.ctx.db.transaction((tx) => publish(tx, kept));
    await expect(
      t.ctx.db.transaction(async (tx) => {
        await publish(tx, dropped);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    // Positive control: the committed one is queued, composed by the mail feature's template.
    const row = await rowFor(kept);
    expect(row.kind).toBe('verify_email');
    expect(row.textBody).toContain('/verify-email?token=tok');
    const none = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, dropped));
    expect(none).toEqual([]);
    await drainAll();
  });

  it('sends at once on ctx.mail.wake(), without waiting for a poll', async () => {
    const to = uniqueEmail('wake');
    await queueMail(t.ctx.db, sample(to));
    // No poll runs in this app (pollMs: 0): without the wake the row would stay pending.
    expect(await rowFor(to)).toMatchObject({ status: 'pending', attempts: 0 });
    t.ctx.mail.wake();
    const mail = await smtp.waitFor((m) => m.to.includes(to), 5000);
    expect(mail).toMatchObject({ to: [to], subject: 'Hello Ada' });
  });
});

describe('retries', () => {
  it('retries after the SMTP server refused, with backoff, and the retry is delivered', async () => {
    const to = uniqueEmail('retry');
    await queueMail(t.ctx.db, sample(to));
    smtp.refuse(1);
    const before = smtp.attempts();
    await drainAll();
    expect(smtp.attempts()).toBe(before + 1);
    let row = await rowFor(to);
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row.lastError).toContain('550');
    expect(row.textBody).not.toBeNull();
    const wait = row.nextAttemptAt.getTime() - t.ctx.now().getTime();
    expect(wait).toBeGreaterThan(FIRST_RETRY_MS - 5000);
    expect(wait).toBeLessThanOrEqual(FIRST_RETRY_MS);

    // Not due yet: nothing is sent.
    await drainAll();
    expect(smtp.attempts()).toBe(before + 1);

    t.advance(FIRST_RETRY_MS);
    await drainAll();
    await smtp.waitFor((m) => m.to.includes(to));
    row = await rowFor(to);
    expect(row).toMatchObject({ status: 'sent', attempts: 2, lastError: null, textBody: null });
  });

  it(`gives up after ${MAIL_MAX_ATTEMPTS} tries: status failed, bodies dropped, never tried again`, async () => {
    const to = uniqueEmail('doomed');
    await queueMail(t.ctx.db, sample(to));
    smtp.refuse(100);
    const before = smtp.attempts();
    for (let i = 0; i < MAIL_MAX_ATTEMPTS; i++) {
      await drainAll();
      expect((await rowFor(to)).attempts).toBe(i + 1);
      t.advance(MAIL_RETRY_DELAYS_MS[i] ?? 0);
    }
    expect(smtp.attempts()).toBe(before + MAIL_MAX_ATTEMPTS);
    const row = await rowFor(to);
    expect(row).toMatchObject({
      status: 'failed',
      attempts: MAIL_MAX_ATTEMPTS,
      textBody: null,
      htmlBody: null,
    });
    expect(row.lastError).toContain('550');
    t.advance(24 * 60 * 60 * 1000);
    await drainAll();
    expect(smtp.attempts()).toBe(before + MAIL_MAX_ATTEMPTS);
    expect(smtp.received.some((m) => m.to.includes(to))).toBe(false);
  });

  it('a mail whose SMTP server is unreachable is retried too, and the request that queued it is unaffected', async () => {
    const down = await startSmtpServer();
    await down.close();
    const ctx: AppContext = {
      ...t.ctx,
      config: { ...t.ctx.config, SMTP_URL: `smtp://127.0.0.1:${down.port}` },
    };
    const sender = new MailSender(ctx, { pollMs: 0 });
    const to = uniqueEmail('unreachable');
    await queueMail(t.ctx.db, sample(to));
    try {
      await sender.drain();
    } finally {
      await sender.stop();
    }
    const row = await rowFor(to);
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row.lastError).toMatch(/ECONNREFUSED|connect/i);
    t.advance(FIRST_RETRY_MS);
    await drainAll();
    await smtp.waitFor((m) => m.to.includes(to));
  });
});

describe('two drainers (two nodes)', () => {
  it('never send one mail twice', async () => {
    const prefix = `race-${Date.now()}`;
    const addresses = Array.from({ length: 45 }, (_, i) => `${prefix}-${i}@example.com`);
    for (const to of addresses) await queueMail(t.ctx.db, sample(to));
    const a = new MailSender(t.ctx, { pollMs: 0 });
    const b = new MailSender(t.ctx, { pollMs: 0 });
    try {
      await Promise.all([drainAll(a), drainAll(b), drainAll(a), drainAll(b)]);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    const got = smtp.received.flatMap((m) => m.to).filter((to) => to.startsWith(prefix));
    expect(got.sort()).toEqual([...addresses].sort());
    for (const to of addresses) expect((await rowFor(to)).attempts).toBe(1);
  });
});

describe('without SMTP_URL', () => {
  it('writes each mail as an .eml file under DATA_DIR/outbox', async () => {
    const local = await createTestApp({ mail: { pollMs: 0 } });
    try {
      const to = uniqueEmail('eml');
      await queueMail(local.ctx.db, sample(to, 'Grace & <Co>'));
      await local.mail.drain();
      const dir = join(local.ctx.config.DATA_DIR, 'outbox');
      const files = (await readdir(dir)).filter((f) => f.endsWith('.eml'));
      expect(files).toHaveLength(1);
      const parsed = await simpleParser(await readFile(join(dir, String(files[0]))));
      expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.text : '').toBe(to);
      expect(parsed.from?.text).toBe('"Cohort" <no-reply@localhost>');
      expect(parsed.subject).toBe('Hello Grace & <Co>');
      expect(parsed.text).toContain('Open Cohort: https://cohort.example/verify-email?token=abc&x=1');
      expect(parsed.html).toContain('Grace &amp; &lt;Co&gt;');
      const [row] = await local.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to));
      expect(row).toMatchObject({ status: 'sent', textBody: null });
    } finally {
      await local.close();
    }
  });
});

describe('appLink', () => {
  const ctxWith = (env: Record<string, string>) => ({ config: loadConfig(env) }) as AppContext;
  it('builds links from PUBLIC_URL, keeping its path', () => {
    expect(appLink(ctxWith({ PUBLIC_URL: 'https://chat.example.com/' }), '/verify-email?token=a')).toBe(
      'https://chat.example.com/verify-email?token=a',
    );
    expect(appLink(ctxWith({ PUBLIC_URL: 'https://example.com/cohort' }), '/login')).toBe(
      'https://example.com/cohort/login',
    );
  });
  it('falls back to http://HOST:PORT, with localhost for a wildcard bind address', () => {
    expect(appLink(ctxWith({ HOST: '127.0.0.1', PORT: '4100' }), '/x')).toBe('http://127.0.0.1:4100/x');
    expect(appLink(ctxWith({ HOST: '0.0.0.0', PORT: '80' }), '/x')).toBe('http://localhost:80/x');
    expect(appLink(ctxWith({}), 'x')).toBe('http://localhost:3000/x');
  });
});

describe('GET /api/admin/mail', () => {
  const get = (headers: Record<string, string> = {}, query = '') =>
    t.app.inject({ method: 'GET', url: `/api/admin/mail${query}`, headers });

  it('is 401 without a session and 404 for anyone not listed in ADMIN_EMAILS or not verified', async () => {
    expect((await get()).statusCode).toBe(401);
    const someone = await createUser(t.app);
    expect((await get(someone.auth)).statusCode).toBe(404);
    const unverifiedOperator = await createUser(t.app, {
      email: 'second-operator@example.com',
      verified: false,
    });
    expect((await get(unverifiedOperator.auth)).statusCode).toBe(404);
  });

  it('lists recent mail and its outcome for an operator, never the bodies', async () => {
    const operator = await createUser(t.app, { email: ADMIN });
    const to = uniqueEmail('listed');
    await queueMail(t.ctx.db, sample(to));
    const res = await get(operator.auth, '?limit=500');
    expect(res.statusCode).toBe(200);
    const item = res.json().mail.find((m: { to: string }) => m.to === to);
    // The outbox drainer (every 3 s) may already have tried it once: pending, or sent, not failed.
    expect(item).toMatchObject({ kind: 'test', subject: 'Hello Ada' });
    expect(item.attempts).toBeLessThanOrEqual(1);
    if (item.status === 'sent') expect(item.sentAt).not.toBeNull();
    else expect(item).toMatchObject({ status: 'pending', sentAt: null });
    expect(res.body).not.toContain('invited you');
    expect(res.body).not.toContain('token=abc');

    const failed = await get(operator.auth, '?status=failed');
    expect(failed.json().mail.every((m: { status: string }) => m.status === 'failed')).toBe(true);
    expect((await get(operator.auth, '?status=nope')).statusCode).toBe(400);
    expect((await get(operator.auth, '?limit=0')).statusCode).toBe(400);
  });
});
