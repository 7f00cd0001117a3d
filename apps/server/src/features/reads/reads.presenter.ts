import { displayName } from '@cohort/shared/names';
import type { ChannelUnread, DirectUnread } from '@cohort/shared/reads';
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
  };
}
