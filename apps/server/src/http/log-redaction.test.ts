import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUser, type TestUser, uniqueEmail } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { users } from '../db/schema.ts';
import { createChannel, createWorkspace, wsUrl } from '../features/workspaces/test-fixtures.ts';
import { safeUrl, serializeError } from './log-redaction.ts';

/**
 * Failed queries used to be logged with their bind parameters. These tests make real routes fail in
 * the database (a NOT VALID check constraint refuses new rows) and read what the server logged.
 */
describe('the log never carries secrets or content', () => {
  let built: TestApp;
  let lines: string[];
  let owner: TestUser;
  const capture = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const logged = () => lines.join('');

  beforeAll(async () => {
    lines = [];
    built = await createTestApp({ env: { LOG_LEVEL: 'info' }, logStream: capture });
    owner = await createUser(built.app);
    // The sign-up's verification mail is written (and logged, with its address) in the background: on
    // a slow machine it landed in the sign-in test's lines. Let it finish first.
    await vi.waitFor(() => expect(logged()).toContain(`mail to ${owner.email} written`), { timeout: 10_000 });
  });
  afterAll(() => built.close());

  const refuseNewRows = (table: string) =>
    built.ctx.db.execute(
      sql.raw(`alter table ${table} add constraint refuse_${table} check (false) not valid`),
    );
  const allowNewRows = (table: string) =>
    built.ctx.db.execute(sql.raw(`alter table ${table} drop constraint refuse_${table}`));

  it('a failed sign-up logs neither the e-mail, the password nor its hash', async () => {
    const email = uniqueEmail('secret-signup');
    const password = `Pw-${randomUUID()}`;
    lines = [];
    await refuseNewRows('users');
    try {
      const res = await built.app.inject({
        method: 'POST',
        url: '/api/signup',
        payload: { firstName: 'Sam', lastName: 'Secret', email, password },
      });
      expect(res.statusCode).toBe(500);
    } finally {
      await allowNewRows('users');
    }
    const out = logged();
    expect(out).toContain('Failed query');
    expect(out).toContain('refuse_users');
    expect(out).not.toContain(email);
    expect(out).not.toContain(password);
    expect(out).not.toContain('$argon2');
  });

  it('a failed sign-in logs no session-token hash and no password hash', async () => {
    const [row] = await built.ctx.db.select().from(users).where(eq(users.id, owner.id));
    lines = [];
    await refuseNewRows('sessions');
    try {
      const res = await built.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: owner.email, password: owner.password },
      });
      expect(res.statusCode).toBe(500);
    } finally {
      await allowNewRows('sessions');
    }
    const out = logged();
    expect(out).toContain('refuse_sessions');
    expect(out).not.toMatch(/[0-9a-f]{64}/);
    expect(out).not.toContain(row?.passwordHash ?? '$argon2');
    expect(out).not.toContain(owner.email);
  });

  it('a failed message post logs no message text', async () => {
    const ws = await createWorkspace(built, owner);
    const channel = await createChannel(built, owner, ws.name, {});
    const content = `confidential-${randomUUID()}`;
    lines = [];
    await refuseNewRows('channel_messages');
    try {
      const res = await built.app.inject({
        method: 'POST',
        url: wsUrl(ws.name, `/channels/${channel._id}/messages`),
        headers: owner.auth,
        payload: { clientId: randomUUID(), content },
      });
      expect(res.statusCode).toBe(500);
    } finally {
      await allowNewRows('channel_messages');
    }
    const out = logged();
    expect(out).toContain('refuse_channel_messages');
    expect(out).not.toContain(content);
  });

  it('secret query parameters and quoted values are elided', () => {
    expect(safeUrl('/reset-password?token=abc123&x=1')).toBe('/reset-password?token=[redacted]&x=1');
    expect(safeUrl('/verify-email?TOKEN=abc')).toBe('/verify-email?TOKEN=[redacted]');
    const err = Object.assign(new Error('invalid input syntax for type uuid: "hunter2"'), { code: '22P02' });
    const safe = serializeError(err);
    expect(JSON.stringify(safe)).not.toContain('hunter2');
    expect(safe.code).toBe('22P02');
  });
});
