import { CHAT_MESSAGES } from '@cohort/shared/chat';
import type { StoredFile } from '@cohort/shared/files';
import { and, asc, desc, eq, gt, inArray, lt, lte, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { anyUuid } from '../../db/any-uuid.ts';
import { addReactionCapped } from '../../db/capped-reaction.ts';
import type { Db } from '../../db/client.ts';
import { directConversations, directMessageReactions, directMessages, users } from '../../db/schema.ts';
import { queueEvent } from '../../events/event-outbox.ts';
import { isUniqueViolation } from '../../http/db-errors.ts';
import { badRequest, forbidden, notFound } from '../../http/errors.ts';
import { attachFiles, attachmentsOf, deleteFilesOfMessages } from '../files/files.access.ts';
import {
  findUserByEmail,
  loadRecipientForUser,
  orderedPair,
  type Party,
  recipientNotFound,
} from './direct.access.ts';

// Who may write to whom lives in direct.access.ts (files use it too); kept importable from here.
export { findUserByEmail, loadRecipientForUser, type Party, recipientNotFound };

export interface StoredDirectMessage {
  id: string;
  seq: number;
  sender: Party;
  receiver: Party;
  content: string;
  messageType: 'text';
  clientId: string;
  createdAt: Date;
  rev: number;
  editedAt: Date | null;
  deletedAt: Date | null;
  reactions: Array<{ emoji: string; users: Array<{ id: string; name: string }> }>;
  attachments: StoredFile[];
}

type DirectRow = typeof directMessages.$inferSelect;

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/**
 * Stores a direct message in one statement: the conversation row is created or its last_seq bumped
 * (the row lock orders concurrent senders of the pair) and the message takes that seq. A failing
 * INSERT — a resent clientId — undoes the bump, so seq stays gapless, and the resend is answered
 * with the original message.
 */
export async function sendDirectMessage(
  ctx: AppContext,
  sender: Party,
  receiver: Party,
  input: { clientId: string; content: string; attachments?: readonly string[] | undefined },
): Promise<{ message: StoredDirectMessage; created: boolean }> {
  const [a, b] = orderedPair(sender.id, receiver.id);
  const now = ctx.now();
  const fileIds = input.attachments ?? [];
  const insert = async (db: Db) => {
    const result = await db.execute(sql`
      with conv as (
        insert into ${directConversations} (user_a, user_b, last_seq, last_rev, created_at)
        values (${a}::uuid, ${b}::uuid, 1, 1, ${now.toISOString()}::timestamptz)
        on conflict (user_a, user_b) do update set last_seq = ${directConversations}.last_seq + 1,
          last_rev = ${directConversations}.last_rev + 1
        returning id, last_seq, last_rev
      )
      insert into ${directMessages}
        (conversation_id, seq, sender_id, receiver_id, content, message_type, client_id, created_at, rev)
      select conv.id, conv.last_seq, ${sender.id}::uuid, ${receiver.id}::uuid, ${input.content}, 'text',
             ${input.clientId}::uuid, ${now.toISOString()}::timestamptz, conv.last_rev
      from conv
      returning id, seq, created_at, rev`);
    const [row] = rowsOf<{
      id: string;
      seq: number | string;
      created_at: Date | string;
      rev: number | string;
    }>(result);
    if (!row) throw new Error('direct message insert returned no row');
    const attachments = await attachFiles(db, {
      kind: 'direct',
      fileIds,
      senderId: sender.id,
      messageId: row.id,
      conversation: { pair: [a, b] },
    });
    // Notifications go through the event outbox, committed with the message (events/event-outbox.ts).
    await queueEvent(db, 'messageCreated', row.id, {
      kind: 'direct',
      messageId: row.id,
      senderId: sender.id,
      receiverId: receiver.id,
      content: input.content,
    });
    return { row, attachments };
  };
  try {
    // The message, its attachments and its outbox row commit together.
    const { row, attachments } = await ctx.db.transaction((tx) => insert(tx));
    return {
      created: true,
      message: {
        id: row.id,
        seq: Number(row.seq),
        sender,
        receiver,
        content: input.content,
        messageType: 'text',
        clientId: input.clientId,
        createdAt: new Date(row.created_at),
        rev: Number(row.rev),
        editedAt: null,
        deletedAt: null,
        reactions: [],
        attachments,
      },
    };
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
  const [original] = await ctx.db
    .select()
    .from(directMessages)
    .where(and(eq(directMessages.senderId, sender.id), eq(directMessages.clientId, input.clientId)))
    .limit(1);
  if (!original || original.receiverId !== receiver.id) throw badRequest(CHAT_MESSAGES.invalidClientId);
  const [withState] = await attachReactions(ctx, [original]);
  return {
    created: false,
    message: {
      ...(withState as DirectRow & Pick<StoredDirectMessage, 'reactions' | 'attachments'>),
      sender,
      receiver,
    },
  };
}

/**
 * A page of the conversation between the caller and `other`, oldest first: the newest `limit`
 * (below `before` when given), or with `after` the oldest `limit` above it.
 */
export async function listDirectMessages(
  ctx: AppContext,
  caller: Party,
  other: Party,
  page: {
    before?: number | undefined;
    after?: number | undefined;
    changedAfter?: number | undefined;
    /** `limit` messages centred on this seq: half at or below it, half above. */
    around?: number | undefined;
    limit: number;
  },
): Promise<StoredDirectMessage[]> {
  const [a, b] = orderedPair(caller.id, other.id);
  const [conversation] = await ctx.db
    .select({ id: directConversations.id })
    .from(directConversations)
    .where(and(eq(directConversations.userA, a), eq(directConversations.userB, b)))
    .limit(1);
  if (!conversation) return [];
  const conditions: SQL[] = [eq(directMessages.conversationId, conversation.id)];
  if (page.changedAfter !== undefined) conditions.push(gt(directMessages.rev, page.changedAfter));
  if (page.after !== undefined) conditions.push(gt(directMessages.seq, page.after));
  if (page.before !== undefined) conditions.push(lt(directMessages.seq, page.before));
  const query = ctx.db
    .select()
    .from(directMessages)
    .where(and(...conditions))
    .$dynamic();
  const inConversation = eq(directMessages.conversationId, conversation.id);
  const rows =
    page.around !== undefined
      ? [
          ...(
            await ctx.db
              .select()
              .from(directMessages)
              .where(and(inConversation, lte(directMessages.seq, page.around)))
              .orderBy(desc(directMessages.seq))
              .limit(Math.ceil(page.limit / 2))
          ).reverse(),
          ...(await ctx.db
            .select()
            .from(directMessages)
            .where(and(inConversation, gt(directMessages.seq, page.around)))
            .orderBy(asc(directMessages.seq))
            .limit(Math.floor(page.limit / 2))),
        ]
      : page.changedAfter !== undefined
        ? await query.orderBy(asc(directMessages.rev)).limit(page.limit)
        : page.after !== undefined
          ? await query.orderBy(asc(directMessages.seq)).limit(page.limit)
          : (await query.orderBy(desc(directMessages.seq)).limit(page.limit)).reverse();
  const parties = new Map([
    [caller.id, caller],
    [other.id, other],
  ]);
  return (await attachReactions(ctx, rows)).map((r) => ({
    ...r,
    sender: parties.get(r.senderId) ?? other,
    receiver: parties.get(r.receiverId) ?? other,
  }));
}

async function attachReactions(ctx: AppContext, rows: DirectRow[]) {
  const ids = rows.filter((r) => !r.deletedAt).map((r) => r.id);
  const byMessage = new Map<string, StoredDirectMessage['reactions']>();
  if (ids.length > 0) {
    const reactions = await ctx.db
      .select({
        messageId: directMessageReactions.messageId,
        emoji: directMessageReactions.emoji,
        userId: users.id,
        firstName: users.firstName,
        lastName: users.lastName,
        email: users.email,
      })
      .from(directMessageReactions)
      .innerJoin(users, eq(users.id, directMessageReactions.userId))
      .where(anyUuid(directMessageReactions.messageId, ids))
      .orderBy(asc(directMessageReactions.createdAt));
    for (const r of reactions) {
      const list = byMessage.get(r.messageId) ?? [];
      let entry = list.find((e) => e.emoji === r.emoji);
      if (!entry) {
        entry = { emoji: r.emoji, users: [] };
        list.push(entry);
      }
      entry.users.push({ id: r.userId, name: `${r.firstName} ${r.lastName}`.trim() || r.email });
      byMessage.set(r.messageId, list);
    }
  }
  const files = await attachmentsOf(ctx, 'direct', ids);
  return rows.map((r) => ({
    ...r,
    reactions: byMessage.get(r.id) ?? [],
    attachments: files.get(r.id) ?? [],
  }));
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A direct message the caller sent or received, with both parties; 404 for anyone else. */
export async function loadDirectMessageForUser(
  ctx: AppContext,
  caller: Party,
  messageId: string,
): Promise<StoredDirectMessage> {
  const notThere = () => notFound(CHAT_MESSAGES.messageNotFound);
  if (!UUID_RE.test(messageId)) throw notThere();
  const [row] = await ctx.db.select().from(directMessages).where(eq(directMessages.id, messageId)).limit(1);
  if (!row || (row.senderId !== caller.id && row.receiverId !== caller.id)) throw notThere();
  const parties = await ctx.db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(inArray(users.id, [row.senderId, row.receiverId]));
  const party = (id: string) => parties.find((p) => p.id === id) ?? { id, email: '' };
  const [withReactions] = await attachReactions(ctx, [row]);
  return {
    ...(withReactions as DirectRow & Pick<StoredDirectMessage, 'reactions' | 'attachments'>),
    sender: party(row.senderId),
    receiver: party(row.receiverId),
  };
}

/** Changes a direct message and gives it the conversation's next rev, in one statement. */
async function changeDirectMessage(ctx: AppContext, message: StoredDirectMessage, set: SQL) {
  await ctx.db.execute(sql`
    with bumped as (
      update ${directConversations} c set last_rev = c.last_rev + 1
      from ${directMessages} d where d.id = ${message.id}::uuid and c.id = d.conversation_id
      returning c.last_rev
    )
    update ${directMessages} m set rev = bumped.last_rev, ${set}
    from bumped where m.id = ${message.id}::uuid`);
}

export async function editDirectMessage(ctx: AppContext, caller: Party, messageId: string, content: string) {
  const message = await loadDirectMessageForUser(ctx, caller, messageId);
  if (message.sender.id !== caller.id) throw forbidden(CHAT_MESSAGES.notYourMessage);
  if (message.deletedAt) throw badRequest(CHAT_MESSAGES.messageDeleted);
  await changeDirectMessage(
    ctx,
    message,
    sql`content = ${content}, edited_at = ${ctx.now().toISOString()}::timestamptz`,
  );
  return loadDirectMessageForUser(ctx, caller, messageId);
}

/** Only the sender deletes a direct message (there is no admin of a conversation). */
export async function deleteDirectMessage(ctx: AppContext, caller: Party, messageId: string) {
  const message = await loadDirectMessageForUser(ctx, caller, messageId);
  if (message.sender.id !== caller.id) throw forbidden(CHAT_MESSAGES.cannotDelete);
  if (message.deletedAt) return message;
  await ctx.db.delete(directMessageReactions).where(eq(directMessageReactions.messageId, messageId));
  // Its files go too: rows and stored bytes.
  await deleteFilesOfMessages(ctx, 'direct', [messageId]);
  await changeDirectMessage(
    ctx,
    message,
    sql`content = '', deleted_at = ${ctx.now().toISOString()}::timestamptz`,
  );
  return loadDirectMessageForUser(ctx, caller, messageId);
}

export async function setDirectReaction(
  ctx: AppContext,
  caller: Party,
  messageId: string,
  emoji: string,
  on: boolean,
) {
  const message = await loadDirectMessageForUser(ctx, caller, messageId);
  if (message.deletedAt) throw badRequest(CHAT_MESSAGES.messageDeleted);
  const changed = on
    ? (await addReactionCapped(ctx.db, directMessageReactions, { messageId, userId: caller.id, emoji }))
      ? [{ id: messageId }]
      : []
    : await ctx.db
        .delete(directMessageReactions)
        .where(
          and(
            eq(directMessageReactions.messageId, messageId),
            eq(directMessageReactions.userId, caller.id),
            eq(directMessageReactions.emoji, emoji),
          ),
        )
        .returning({ id: directMessageReactions.messageId });
  // Nothing changed (a repeated PUT or DELETE): no new rev, nothing to announce.
  if (changed.length === 0) return { message, changed: false };
  await changeDirectMessage(ctx, message, sql`edited_at = m.edited_at`);
  return { message: await loadDirectMessageForUser(ctx, caller, messageId), changed: true };
}
