import { CHAT_MESSAGES } from '@cohort/shared/chat';
import { READ_MESSAGES, UNREAD_CAP } from '@cohort/shared/reads';
import { and, eq, inArray, lt, ne, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { readMarks } from '../../db/schema.ts';
import type { AppEvents } from '../../events/event-bus.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { countUnreadInChannels } from '../chat/chat.unread.access.ts';
import {
  type ConversationOfUser,
  conversationsOf,
  countUnreadInConversations,
  findPartner,
  type LastDirectMessage,
} from '../direct/direct.unread.access.ts';
import { loadRecipientForUser, type Party } from '../workspaces/peers.access.ts';
import { presentChannelRead, presentDirectRead } from './reads.presenter.ts';
import type { ReadsRealtime } from './reads.socket.ts';

/** A channel as the reads feature needs it (from `loadChannelForUser` / `listReadableChannels`). */
export interface ChannelRef {
  id: string;
  workspaceId: string;
  lastSeq: number;
}

export interface ChannelReadState {
  channelId: string;
  workspaceId: string;
  lastReadSeq: number;
  lastSeq: number;
  unread: number;
  muted: boolean;
}

export interface DirectReadState {
  other: ConversationOfUser['other'];
  /** In the listing only (a mark's answer and push leave it out). */
  last?: LastDirectMessage | null;
  lastReadSeq: number;
  lastSeq: number;
  unread: number;
}

interface Mark {
  lastReadSeq: number;
  muted: boolean;
}

/**
 * The only writer of `read_marks`. A mark only moves forward; a channel's mark is created at its
 * newest seq the first time the user's listing sees it (old history is not news to a newcomer),
 * while a direct conversation never marked counts from the start (a message to you is news).
 * Events go out after the statement that moved the mark has committed, to that user only.
 */
export class ReadsService {
  constructor(
    private readonly ctx: AppContext,
    private readonly realtime: ReadsRealtime,
  ) {}

  private async marksOf(userId: string, conversationIds: string[]): Promise<Map<string, Mark>> {
    const marks = new Map<string, Mark>();
    if (conversationIds.length === 0) return marks;
    const rows = await this.ctx.db
      .select({
        conversationId: readMarks.conversationId,
        lastReadSeq: readMarks.lastReadSeq,
        muted: readMarks.muted,
      })
      .from(readMarks)
      .where(and(eq(readMarks.userId, userId), inArray(readMarks.conversationId, conversationIds)));
    for (const r of rows) marks.set(r.conversationId, { lastReadSeq: Number(r.lastReadSeq), muted: r.muted });
    return marks;
  }

  /** Unread state of each channel (readable by the user: the caller checked), in the given order. */
  async listChannels(userId: string, channels: ChannelRef[]): Promise<ChannelReadState[]> {
    const ids = channels.map((c) => c.id);
    let marks = await this.marksOf(userId, ids);
    const unseen = channels.filter((c) => !marks.has(c.id));
    if (unseen.length > 0) {
      // First sight: read up to now. A concurrent first sight (another tab) keeps whichever came first.
      await this.ctx.db
        .insert(readMarks)
        .values(unseen.map((c) => ({ userId, conversationId: c.id, lastReadSeq: c.lastSeq })))
        .onConflictDoNothing();
      marks = await this.marksOf(userId, ids);
    }
    const behind = channels.flatMap((c) => {
      const mark = marks.get(c.id);
      return mark && mark.lastReadSeq < c.lastSeq
        ? [{ conversationId: c.id, afterSeq: mark.lastReadSeq }]
        : [];
    });
    const counts = await countUnreadInChannels(this.ctx, userId, behind, UNREAD_CAP);
    return channels.map((c) => {
      const mark = marks.get(c.id) ?? { lastReadSeq: c.lastSeq, muted: false };
      return {
        channelId: c.id,
        workspaceId: c.workspaceId,
        lastReadSeq: mark.lastReadSeq,
        lastSeq: c.lastSeq,
        unread: counts.get(c.id) ?? 0,
        muted: mark.muted,
      };
    });
  }

  private async channelState(userId: string, channel: ChannelRef): Promise<ChannelReadState> {
    const [state] = await this.listChannels(userId, [channel]);
    if (!state) throw new Error('no read state for the channel');
    return state;
  }

  /** Moves the user's mark of a channel forward to `seq` (a lower one changes nothing). */
  async markChannel(userId: string, channel: ChannelRef, seq: number): Promise<ChannelReadState> {
    if (seq > channel.lastSeq) throw badRequest(READ_MESSAGES.seqTooHigh, 'seq');
    const moved = await this.moveMark(userId, channel.id, seq);
    const state = await this.channelState(userId, channel);
    if (moved) this.realtime.channelChanged(userId, presentChannelRead(state));
    return state;
  }

  async muteChannel(userId: string, channel: ChannelRef, muted: boolean): Promise<ChannelReadState> {
    const changed = await this.ctx.db
      .insert(readMarks)
      .values({ userId, conversationId: channel.id, lastReadSeq: channel.lastSeq, muted })
      .onConflictDoUpdate({
        target: [readMarks.userId, readMarks.conversationId],
        set: { muted },
        setWhere: ne(readMarks.muted, muted),
      })
      .returning({ muted: readMarks.muted });
    const state = await this.channelState(userId, channel);
    // A row comes back when it was inserted or its flag flipped; a repeat announces nothing.
    if (changed.length > 0) this.realtime.channelChanged(userId, presentChannelRead(state));
    return state;
  }

  /** One statement: insert at `seq`, or raise an existing mark to it. True when the mark moved. */
  private async moveMark(userId: string, conversationId: string, seq: number): Promise<boolean> {
    const rows = await this.ctx.db
      .insert(readMarks)
      .values({ userId, conversationId, lastReadSeq: seq })
      .onConflictDoUpdate({
        target: [readMarks.userId, readMarks.conversationId],
        set: { lastReadSeq: sql`excluded.last_read_seq` },
        setWhere: lt(readMarks.lastReadSeq, seq),
      })
      .returning({ lastReadSeq: readMarks.lastReadSeq });
    return rows.length > 0;
  }

  /** Unread state of each of the user's direct conversations, with its newest message, newest first. */
  async listDirect(userId: string): Promise<DirectReadState[]> {
    const conversations = await conversationsOf(this.ctx, userId);
    const marks = await this.marksOf(
      userId,
      conversations.map((c) => c.id),
    );
    return this.directStates(userId, conversations, marks);
  }

  private async directStates(
    userId: string,
    conversations: ConversationOfUser[],
    marks: Map<string, Mark>,
  ): Promise<DirectReadState[]> {
    const behind = conversations.flatMap((c) => {
      const read = marks.get(c.id)?.lastReadSeq ?? 0;
      return read < c.lastSeq ? [{ conversationId: c.id, afterSeq: read }] : [];
    });
    const counts = await countUnreadInConversations(this.ctx, userId, behind, UNREAD_CAP);
    return conversations.map((c) => ({
      other: c.other,
      ...(c.last !== undefined ? { last: c.last } : {}),
      lastReadSeq: marks.get(c.id)?.lastReadSeq ?? 0,
      lastSeq: c.lastSeq,
      unread: counts.get(c.id) ?? 0,
    }));
  }

  /**
   * Moves the user's mark of the conversation with `email` forward. 404 for an unknown e-mail, the
   * user themselves, or someone they have no conversation with and may not write to; with someone
   * they may write to but never did, only seq 0 is valid (and changes nothing).
   */
  async markDirect(user: Party, email: string, seq: number): Promise<DirectReadState> {
    const partner = await findPartner(this.ctx, user.id, email);
    if (!partner) throw notFound(CHAT_MESSAGES.recipientNotFound);
    const { other, conversation } = partner;
    if (!conversation) {
      await loadRecipientForUser(this.ctx, user, other.email);
      if (seq > 0) throw badRequest(READ_MESSAGES.seqTooHigh, 'seq');
      return { other, lastReadSeq: 0, lastSeq: 0, unread: 0 };
    }
    if (seq > conversation.lastSeq) throw badRequest(READ_MESSAGES.seqTooHigh, 'seq');
    const moved = await this.moveMark(user.id, conversation.id, seq);
    const marks = await this.marksOf(user.id, [conversation.id]);
    const [state] = await this.directStates(user.id, [{ ...conversation, other }], marks);
    if (!state) throw new Error('no read state for the conversation');
    if (moved) {
      this.realtime.directChanged(user.id, presentDirectRead(state));
      await this.ctx.bus.emit('directRead', { userId: user.id, conversationId: conversation.id, seq });
    }
    return state;
  }

  /**
   * read_marks has no foreign key to channels (a conversation id is a channel or a direct
   * conversation), so the marks of a deleted channel or workspace are removed when it is announced.
   * Returns what stops listening.
   */
  watchDeletions(): () => void {
    const forget = (channelIds: string[]) => {
      if (channelIds.length === 0) return;
      this.ctx.db
        .delete(readMarks)
        .where(inArray(readMarks.conversationId, channelIds))
        .catch((err: unknown) => this.ctx.log.error({ err }, 'could not remove read marks'));
    };
    const onChannel = ({ channelId }: AppEvents['channelDeleted']) => forget([channelId]);
    const onWorkspace = ({ channelIds }: AppEvents['workspaceDeleted']) => forget(channelIds);
    const offs = [
      this.ctx.bus.on('channelDeleted', onChannel),
      this.ctx.bus.on('workspaceDeleted', onWorkspace),
    ];
    return () => {
      for (const off of offs) off();
    };
  }
}
