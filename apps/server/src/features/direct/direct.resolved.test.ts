import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser, uniqueEmail } from '../../../test/factories.ts';
import { createTestApp, nothingToDeliver, type TestApp } from '../../../test/test-app.ts';
import { directMessages, users } from '../../db/schema.ts';
import { SocketMemory } from '../../realtime/socket-memory.ts';
import type { Party } from '../workspaces/peers.access.ts';
import { createWorkspace } from '../workspaces/test-fixtures.ts';
import { type DirectPublisher, sendDirectMessage } from './direct.actions.ts';

/** What a `/dm` socket remembers of the people it writes to (direct.actions.ts), in statements. */

let t: TestApp;
let kim: TestUser;
let lee: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  [kim, lee] = await Promise.all([createUser(t.app), createUser(t.app)]);
  await createWorkspace(t, kim, { members: [{ email: lee.email }] });
});
afterAll(() => t.close());

const publisher: DirectPublisher = { announceCreated: () => {}, announceUpdate: () => {} };
const sessionUser = (u: TestUser) => ({
  id: u.id,
  email: u.email,
  firstName: 'Kim',
  lastName: 'T',
  sessionId: randomUUID(),
  emailVerified: true,
  twoFactorEnabled: false,
});

describe('a /dm socket writing to one address', () => {
  it('looks the person up once, and the insert re-checks that the address is still theirs', async () => {
    const recipients = new SocketMemory<Party>();
    // Statements up to the acknowledgement (the lookup, if any, and the insert): what comes after it
    // (the notification, the outbox) and other work of the app in between must not count.
    const send = async (receiverEmail: string, content = `hello ${randomUUID()}`) => {
      await expect.poll(() => nothingToDeliver(t.ctx.db)).toBe(true);
      let statements = 0;
      let beforeAck = Number.NaN;
      const stop = t.database.timeQueries(() => statements++);
      try {
        const { message } = await sendDirectMessage(
          t.ctx,
          publisher,
          sessionUser(kim),
          { receiverEmail, clientId: randomUUID(), content },
          { recipients, acknowledge: () => (beforeAck = statements) },
        );
        return { statements: beforeAck, receiver: message.receiver };
      } finally {
        stop();
      }
    };
    const first = await send(lee.email);
    const remembered = await send(lee.email);
    expect(remembered.statements).toBeLessThan(first.statements);
    expect((await send(lee.email)).statements).toBeLessThan(first.statements);

    // Lee changes address and a colleague signs up with the old one: the remembered entry is refused
    // by the insert (nothing stored), and the next send looks the address up and reaches its new owner.
    const oldEmail = lee.email;
    const newEmail = uniqueEmail('lee');
    await t.ctx.db.update(users).set({ email: newEmail }).where(eq(users.id, lee.id));
    const lost = `meant for the old address ${randomUUID()}`;
    await expect(send(oldEmail, lost)).rejects.toMatchObject({ statusCode: 404 });
    const leftOver = await t.ctx.db
      .select({ id: directMessages.id })
      .from(directMessages)
      .where(eq(directMessages.content, lost));
    expect(leftOver).toEqual([]);
    const newcomer = await createUser(t.app, { email: oldEmail });
    await createWorkspace(t, kim, { members: [{ email: newcomer.email }] });
    const welcome = `welcome ${randomUUID()}`;
    expect((await send(oldEmail, welcome)).statements).toBeGreaterThan(remembered.statements);
    const [row] = await t.ctx.db
      .select({ receiverId: directMessages.receiverId })
      .from(directMessages)
      .where(eq(directMessages.content, welcome));
    expect(row?.receiverId).toBe(newcomer.id);
    // Lee is reached at the new address, looked up once more.
    expect((await send(newEmail)).receiver).toBe(newEmail);
  });
});
