import { randomUUID } from 'node:crypto';
import { MAX_DISTINCT_REACTIONS } from '@cohort/shared/chat';
import { eq, type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { appContexts } from '../../app.ts';
import type { AppContext } from '../../context.ts';
import { directConversations, directMessages, users } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import {
  deleteMessage,
  editMessage,
  type MessageHandle,
  reactionsAndFiles,
  setReaction,
} from './messaging.access.ts';

/**
 * The messaging core's own rules, whatever the conversation: who may edit and delete, what a deleted
 * message refuses, when a change takes a rev, how reactors are named. Driven through a direct
 * message with a handle that counts the rev bumps (channels supply the same handle shape).
 */

let app: TestApp;
let ctx: AppContext;

async function person(firstName: string, lastName: string) {
  const [row] = await ctx.db
    .insert(users)
    .values({ email: `${randomUUID().slice(0, 8)}@example.com`, firstName, lastName })
    .returning({ id: users.id, email: users.email });
  if (!row) throw new Error('no user');
  return row;
}

/**
 * A message from `sender` to `receiver`, stored directly, and handles for it: a conversation kind of
 * the test's own (load by id, change with rev + 1) that counts its changes.
 */
async function message(sender: { id: string }, receiver: { id: string }) {
  const [a, b] = sender.id < receiver.id ? [sender.id, receiver.id] : [receiver.id, sender.id];
  const [conversation] = await ctx.db
    .insert(directConversations)
    .values({ userA: a, userB: b, lastSeq: 1, lastRev: 1 })
    .onConflictDoUpdate({
      target: [directConversations.userA, directConversations.userB],
      set: { lastSeq: sql`${directConversations.lastSeq} + 1` },
    })
    .returning();
  if (!conversation) throw new Error('no conversation');
  const [row] = await ctx.db
    .insert(directMessages)
    .values({
      conversationId: conversation.id,
      seq: conversation.lastSeq,
      senderId: sender.id,
      receiverId: receiver.id,
      content: 'hello',
      messageType: 'text',
      clientId: randomUUID(),
      rev: 1,
    })
    .returning();
  if (!row) throw new Error('no message');
  const load = async () => {
    const [current] = await ctx.db.select().from(directMessages).where(eq(directMessages.id, row.id));
    if (!current) throw new Error('gone');
    const [withState] = await reactionsAndFiles(ctx, 'direct', [current]);
    return { ...(withState as NonNullable<typeof withState>), sender: { id: current.senderId } };
  };
  const handleFor = () => {
    const changes: SQL[] = [];
    const handle: MessageHandle<Awaited<ReturnType<typeof load>>> = {
      kind: 'direct',
      load,
      change: async (set) => {
        changes.push(set);
        await ctx.db.execute(
          sql`update ${directMessages} m set rev = m.rev + 1, ${set} where m.id = ${row.id}::uuid`,
        );
      },
    };
    return { handle, changes };
  };
  return { stored: await load(), handleFor };
}

const status = async (p: Promise<unknown>) => {
  try {
    await p;
    return 0;
  } catch (err) {
    if (err instanceof HttpError) return err.statusCode;
    throw err;
  }
};

beforeAll(async () => {
  app = await createTestApp();
  const found = appContexts.get(app.app);
  if (!found) throw new Error('no context');
  ctx = found;
});
afterAll(async () => app.close());

describe('messaging core', () => {
  it('lets only the sender edit, gives the edit a new rev, and refuses to edit a deleted message', async () => {
    const ann = await person('Ann', 'A');
    const bob = await person('Bob', 'B');
    const { stored, handleFor } = await message(ann, bob);
    const asBob = handleFor();
    expect(await status(editMessage(ctx, asBob.handle, bob.id, 'not mine'))).toBe(403);
    expect(asBob.changes).toHaveLength(0);

    const asAnn = handleFor();
    const edited = await editMessage(ctx, asAnn.handle, ann.id, 'hello again');
    expect(edited.content).toBe('hello again');
    expect(edited.editedAt).not.toBeNull();
    expect(edited.rev).toBeGreaterThan(stored.rev);

    await deleteMessage(ctx, asAnn.handle, ann.id, false);
    expect(await status(editMessage(ctx, asAnn.handle, ann.id, 'back'))).toBe(400);
  });

  it('lets the sender or a moderator delete, empties the message, and answers a second delete unchanged', async () => {
    const ann = await person('Ann', 'A');
    const bob = await person('Bob', 'B');
    const first = await message(ann, bob);
    expect(await status(deleteMessage(ctx, first.handleFor().handle, bob.id, false))).toBe(403);
    const moderated = await deleteMessage(ctx, first.handleFor().handle, bob.id, true);
    expect(moderated.deletedAt).not.toBeNull();
    expect(moderated.content).toBe('');

    const second = await message(ann, bob);
    const asAnn = second.handleFor();
    await setReaction(ctx, asAnn.handle, bob.id, '👍', true);
    const deleted = await deleteMessage(ctx, asAnn.handle, ann.id, false);
    expect(deleted.reactions).toEqual([]);
    const changesAfterDelete = asAnn.changes.length;
    const again = await deleteMessage(ctx, asAnn.handle, ann.id, false);
    expect(again.rev).toBe(deleted.rev);
    expect(asAnn.changes).toHaveLength(changesAfterDelete);
    // A deleted message takes no reactions.
    expect(await status(setReaction(ctx, asAnn.handle, ann.id, '🎉', true))).toBe(400);
  });

  it('bumps the rev only for a real reaction change', async () => {
    const ann = await person('Ann', 'A');
    const bob = await person('Bob', 'B');
    const { handleFor } = await message(ann, bob);
    const asBob = handleFor();
    const added = await setReaction(ctx, asBob.handle, bob.id, '👍', true);
    expect(added.changed).toBe(true);
    expect(added.message.reactions).toEqual([{ emoji: '👍', users: [{ id: bob.id, name: 'Bob B' }] }]);
    const repeated = await setReaction(ctx, asBob.handle, bob.id, '👍', true);
    expect(repeated.changed).toBe(false);
    expect(repeated.message.rev).toBe(added.message.rev);
    const removed = await setReaction(ctx, asBob.handle, bob.id, '👍', false);
    expect(removed.changed).toBe(true);
    expect(removed.message.reactions).toEqual([]);
    expect((await setReaction(ctx, asBob.handle, bob.id, '👍', false)).changed).toBe(false);
    expect(asBob.changes).toHaveLength(2);
  });

  it('caps the distinct emoji of a message (409), and a capped emoji may still be joined', async () => {
    const ann = await person('Ann', 'A');
    const bob = await person('Bob', 'B');
    const { handleFor } = await message(ann, bob);
    const asAnn = handleFor().handle;
    const emoji = Array.from({ length: MAX_DISTINCT_REACTIONS }, (_, i) => String.fromCodePoint(0x1f600 + i));
    for (const e of emoji) await setReaction(ctx, asAnn, ann.id, e, true);
    expect(await status(setReaction(ctx, asAnn, ann.id, '🦄', true))).toBe(409);
    const joined = await setReaction(ctx, handleFor().handle, bob.id, emoji[0] as string, true);
    expect(joined.changed).toBe(true);
  });

  it('reads reactions in reaction order and skips deleted messages', async () => {
    const ann = await person('Ann', 'A');
    const nameless = await person('', '');
    const { stored, handleFor } = await message(ann, nameless);
    await setReaction(ctx, handleFor().handle, nameless.id, '👍', true);
    await setReaction(ctx, handleFor().handle, ann.id, '👍', true);
    const row = { id: stored.id, deletedAt: null };
    const [direct] = await reactionsAndFiles(ctx, 'direct', [row]);
    expect(direct?.reactions[0]?.users.map((u) => u.name)).toEqual([nameless.email.split('@')[0], 'Ann A']);
    // Deleted messages are not asked for reactions or files at all.
    const [gone] = await reactionsAndFiles(ctx, 'direct', [{ id: stored.id, deletedAt: new Date() }]);
    expect(gone?.reactions).toEqual([]);
    expect(gone?.attachments).toEqual([]);
  });
});
