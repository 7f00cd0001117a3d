import { displayName } from '@cohort/shared/names';
import { type ChannelUnread, DIRECT_EXCERPT_LENGTH, type DirectUnread } from '@cohort/shared/reads';
import type { ChannelReadState, DirectReadState } from './reads.service.ts';

/** The only shapes read state leaves the server in (HTTP answers and `readMarkChanged` alike). */
export function presentChannelRead(s: ChannelReadState): ChannelUnread {
  return {
    channelId: s.channelId,
    workspaceId: s.workspaceId,
    lastReadSeq: s.lastReadSeq,
    lastSeq: s.lastSeq,
    unread: s.unread,
    muted: s.muted,
  };
}

export function presentDirectRead(s: DirectReadState): DirectUnread {
  return {
    email: s.other.email,
    name: displayName(s.other),
    lastReadSeq: s.lastReadSeq,
    lastSeq: s.lastSeq,
    unread: s.unread,
    ...(s.last !== undefined
      ? {
          lastMessage: s.last && {
            excerpt: [...s.last.content].slice(0, DIRECT_EXCERPT_LENGTH).join(''),
            fromMe: s.last.fromMe,
            createdAt: s.last.createdAt.toISOString(),
            deleted: s.last.deleted,
          },
        }
      : {}),
  };
}
