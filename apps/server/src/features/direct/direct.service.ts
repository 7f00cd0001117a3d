import { CHAT_MESSAGES } from '@cohort/shared/chat';
import type { StoredFile } from '@cohort/shared/files';
import { and, asc, desc, eq, gt, inArray, lt, lte, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { type Db, rowsOf } from '../../db/client.ts';
import { preparedSql } from '../../db/prepared.ts';
import { directConversations, directMessages, users } from '../../db/schema.ts';
import { outboxClaimedUntil, outboxPayload, queuedEventSql } from '../../events/event-outbox.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import {
  insertMessage,
  isMessageId,
  type MessageHandle,
  reactionsAndFiles,
  type StoredReaction,
} from '../messaging/messaging.access.ts';
import {
  findUserByEmail,
  loadRecipientForUser,
  orderedPair,
  type Party,
  recipientNotFound,
} from '../workspaces/peers.access.ts';
import { sharesWorkspaceSql } from '../workspaces/workspaces.access.ts';

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
  reactions: StoredReaction[];
  attachments: StoredFile[];
}

type DirectRow = typeof directMessages.$inferSelect;

/** The statement `storeDirectMessage` runs, prepared: every value is a placeholder. */
const storeDirectStatement = preparedSql(
  'store_direct_message',
  () => sql`
  with conv as (
    insert into ${directConversations} (user_a, user_b, last_seq, last_rev, created_at)
    select ${sql.placeholder('a')}::uuid, ${sql.placeholder('b')}::uuid, 1, 1, ${sql.placeholder('now')}::timestamptz
    where ${sharesWorkspaceSql(sql`${sql.placeholder('a')}::uuid`, sql`${sql.placeholder('b')}::uuid`)}
      -- The address still names this person (a socket's remembered lookup may predate a change).
      and exists (select 1 from ${users} where id = ${sql.placeholder('receiverId')}::uuid
        and email = ${sql.placeholder('receiverEmail')}::text)
    on conflict (user_a, user_b) do update set last_seq = ${directConversations}.last_seq + 1,
      last_rev = ${directConversations}.last_rev + 1
    returning id, last_seq, last_rev
  ),
  inserted as (
    insert into ${directMessages}
      (conversation_id, seq, sender_id, receiver_id, content, message_type, client_id, created_at, rev)
    select conv.id, conv.last_seq, ${sql.placeholder('senderId')}::uuid, ${sql.placeholder('receiverId')}::uuid,
           ${sql.placeholder('content')}::text, 'text', ${sql.placeholder('clientId')}::uuid, ${sql.placeholder('now')}::timestamptz,
           conv.last_rev
    from conv
    returning id, seq, created_at, rev
  ),
  -- Notifications go through the event outbox, committed with the message (events/event-outbox.ts).
  queued as (${queuedEventSql('messageCreated', sql`inserted`, sql`inserted.id`, {
    payload: sql.placeholder('payload'),
    claimedUntil: sql.placeholder('claimedUntil'),
    createdAt: sql.placeholder('now'),
  })})
  select id, seq, created_at, rev from inserted`,
);

/**
 * Stores a direct message in one statement: the conversation row is created or its last_seq bumped
 * (the row lock orders concurrent senders of the pair) and the message takes that seq. A failing
 * INSERT — a resent clientId — undoes the bump, so seq stays gapless, and the resend is answered
 * with the original message.
 *
 * The statement itself re-checks what the caller's lookup found, as a channel's insert re-checks
 * membership: that the two still share a workspace and that the receiver still has the address the
 * sender wrote to. The lookup may be a moment old (someone removed in between), or remembered by the
 * sender's socket for its life. Answers null when either no longer holds, and stores nothing.
 */
export async function storeDirectMessage(
  ctx: AppContext,
  sender: Party,
  receiver: Party,
  input: { clientId: string; content: string; attachments?: readonly string[] | undefined },
): Promise<{ message: StoredDirectMessage; created: boolean } | null> {
  const [a, b] = orderedPair(sender.id, receiver.id);
  const now = ctx.now();
  const fileIds = input.attachments ?? [];
  const link = { fileIds, senderId: sender.id, conversation: { pair: [a, b] as const } };
  const insert = async (db: Db) => {
    const result = await storeDirectStatement(db).execute({
      a,
      b,
      senderId: sender.id,
      receiverId: receiver.id,
      receiverEmail: receiver.email,
      content: input.content,
      clientId: input.clientId,
      now: now.toISOString(),
      payload: outboxPayload('messageCreated', {
        kind: 'direct',
        senderId: sender.id,
        receiverId: receiver.id,
        content: input.content,
      }),
      claimedUntil: outboxClaimedUntil(now),
    });
    const [row] = rowsOf<{
      id: string;
      seq: number | string;
      created_at: Date | string;
      rev: number | string;
    }>(result);
    return row ?? null;
  };
  const inserted = await insertMessage(ctx, 'direct', link, insert);
  if (inserted === null) return null;
  if (inserted !== 'resend') {
    const { row, attachments } = inserted;
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

function attachReactions(ctx: AppContext, rows: DirectRow[]) {
  return reactionsAndFiles(ctx, 'direct', rows);
}

/** A direct message the caller sent or received, with both parties; 404 for anyone else. */
export async function loadDirectMessageForUser(
  ctx: AppContext,
  caller: Party,
  messageId: string,
): Promise<StoredDirectMessage> {
  const notThere = () => notFound(CHAT_MESSAGES.messageNotFound);
  if (!isMessageId(messageId)) throw notThere();
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

/**
 * A direct message for the messaging core: loaded for one of its two parties (404 otherwise), and
 * changed with the conversation's next rev in one statement.
 */
export function directMessageHandle(
  ctx: AppContext,
  caller: Party,
  messageId: string,
): MessageHandle<StoredDirectMessage> {
  return {
    kind: 'direct',
    load: () => loadDirectMessageForUser(ctx, caller, messageId),
    change: async (set) => {
      await ctx.db.execute(sql`
        with bumped as (
          update ${directConversations} c set last_rev = c.last_rev + 1
          from ${directMessages} d where d.id = ${messageId}::uuid and c.id = d.conversation_id
          returning c.last_rev
        )
        update ${directMessages} m set rev = bumped.last_rev, ${set}
        from bumped where m.id = ${messageId}::uuid`);
    },
  };
}
