import { CONTACT_MESSAGES, CONTACT_PER_HOUR, NEWSLETTER_PER_HOUR } from '@cohort/shared/contact';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { contactMessages, newsletterSubscribers } from '../../db/schema.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('POST /api/contact', () => {
  it('stores the message', async () => {
    const email = uniqueEmail('visitor');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { name: 'Visitor', email, message: 'Hello <b>team</b>' },
    });
    expect(res.statusCode).toBe(201);
    const [row] = await t.ctx.db.select().from(contactMessages).where(eq(contactMessages.email, email));
    expect(row).toMatchObject({ name: 'Visitor', message: 'Hello <b>team</b>', userId: null });
  });

  it.each([
    ['missing name', { email: 'a@example.com', message: 'hi' }, 'name'],
    ['invalid e-mail', { name: 'A', email: 'nope', message: 'hi' }, 'email'],
    ['blank message', { name: 'A', email: 'a@example.com', message: '  ' }, 'message'],
    ['overlong message', { name: 'A', email: 'a@example.com', message: 'x'.repeat(5001) }, 'message'],
  ])('rejects %s', async (_name, payload, field) => {
    const before = (await t.ctx.db.select().from(contactMessages)).length;
    const res = await t.app.inject({ method: 'POST', url: '/api/contact', payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe(field);
    expect((await t.ctx.db.select().from(contactMessages)).length).toBe(before);
  });
});

describe('POST /api/newsletter', () => {
  it('subscribes once, idempotently', async () => {
    const email = uniqueEmail('reader');
    for (const variant of [email, email.toUpperCase()]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/newsletter', payload: { email: variant } });
      expect(res.statusCode).toBe(201);
    }
    expect(
      await t.ctx.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)),
    ).toHaveLength(1);
    const bad = await t.app.inject({ method: 'POST', url: '/api/newsletter', payload: { email: 'x' } });
    expect(bad.statusCode).toBe(400);
  });
});

describe('floods', () => {
  it('takes a few contact messages and newsletter sign-ups per address and hour, in parallel too', async () => {
    const send = (url: string, payload: object, remoteAddress: string) =>
      t.app.inject({ method: 'POST', url, payload, remoteAddress });
    const ip = '203.0.113.44';
    const before = (await t.ctx.db.select().from(contactMessages)).length;
    const burst = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        send('/api/contact', { name: 'Bot', email: uniqueEmail('bot'), message: `spam ${i}` }, ip),
      ),
    );
    expect(burst.filter((r) => r.statusCode === 201)).toHaveLength(CONTACT_PER_HOUR);
    for (const r of burst.filter((x) => x.statusCode !== 201)) {
      expect(r.statusCode).toBe(429);
      expect(r.json().message).toBe(CONTACT_MESSAGES.tooOften);
    }
    expect((await t.ctx.db.select().from(contactMessages)).length).toBe(before + CONTACT_PER_HOUR);
    // Another address is not affected; the next hour, this one may write again.
    expect(
      (await send('/api/contact', { name: 'P', email: uniqueEmail(), message: 'hi' }, '203.0.113.45'))
        .statusCode,
    ).toBe(201);
    const signups = await Promise.all(
      Array.from({ length: 15 }, () => send('/api/newsletter', { email: uniqueEmail('list') }, ip)),
    );
    expect(signups.filter((r) => r.statusCode === 201)).toHaveLength(NEWSLETTER_PER_HOUR);
    t.advance(60 * 60 * 1000 + 1000);
    expect(
      (await send('/api/contact', { name: 'P', email: uniqueEmail(), message: 'hi' }, ip)).statusCode,
    ).toBe(201);
  });
});
