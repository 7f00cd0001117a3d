import { INVITATION_MESSAGES } from '@cohort/shared/invitations';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, uniqueEmail } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { mailOutbox } from '../../db/schema.ts';
import { INVITATION_MAILS_PER_HOUR, INVITATION_RESENDS_PER_HOUR } from './invitations.service.ts';
import { client, createWorkspace, uniqueName, wsUrl } from './test-fixtures.ts';

/** Invitations mail outside addresses: one person cannot make the server mail without bound. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { INVITATIONS_PER_HOUR: String(INVITATION_MAILS_PER_HOUR) } });
});
afterAll(async () => {
  await t.close();
});

const outboxTo = (to: string) => t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to));

describe('invitation mail budgets', () => {
  it(`resending one invitation: ${INVITATION_RESENDS_PER_HOUR} an hour, then 429 and no mail`, async () => {
    const api = client(t);
    const admin = await createUser(t.app);
    const ws = await createWorkspace(t, admin);
    const victim = uniqueEmail('victim');
    expect(
      (await api.post(wsUrl(ws.name, '/members'), admin, { email: victim, role: 'viewer' })).statusCode,
    ).toBe(201);
    const resend = () =>
      api.post(wsUrl(ws.name, `/invitations/${encodeURIComponent(victim)}/resend`), admin, {});
    for (let i = 0; i < INVITATION_RESENDS_PER_HOUR; i++) expect((await resend()).statusCode).toBe(200);
    const over = await resend();
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({ message: INVITATION_MESSAGES.resendLimited });
    expect(await outboxTo(victim)).toHaveLength(1 + INVITATION_RESENDS_PER_HOUR);
    t.advance(60 * 60 * 1000 + 1000);
    expect((await resend()).statusCode).toBe(200);
  });

  it(`all invitations of one person: ${INVITATION_MAILS_PER_HOUR} mails an hour, over every workspace`, async () => {
    const api = client(t);
    const spammer = await createUser(t.app);
    const batch = (n: number) => Array.from({ length: n }, () => ({ email: uniqueEmail('list') }));
    // A full creation form fits the budget…
    await createWorkspace(t, spammer, { members: batch(200), accept: false });
    // …but a second workspace cannot be used to go on mailing past it.
    const left = INVITATION_MAILS_PER_HOUR - 200;
    const over = batch(left + 1);
    const second = await api.post('/api/workspaces', spammer, {
      name: uniqueName(),
      description: 'x',
      members: over,
    });
    expect(second.statusCode).toBe(429);
    expect(second.json()).toEqual({ message: INVITATION_MESSAGES.mailLimited });
    expect(await outboxTo(over[0]?.email ?? '')).toHaveLength(0);
    // Nor can inviting and revoking one address over and over.
    const ws = await createWorkspace(t, spammer);
    const victim = uniqueEmail('victim');
    let sent = 0;
    for (let i = 0; i < left + 1; i++) {
      const res = await api.post(wsUrl(ws.name, '/members'), spammer, { email: victim, role: 'viewer' });
      if (res.statusCode === 429) break;
      expect(res.statusCode).toBe(201);
      sent++;
      await api.del(wsUrl(ws.name, `/invitations/${encodeURIComponent(victim)}`), spammer);
    }
    expect(sent).toBe(left);
    expect(await outboxTo(victim)).toHaveLength(left);
  }, 60_000);
});
