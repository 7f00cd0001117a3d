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
  const name = `${s.other.firstName} ${s.other.lastName}`.trim();
  return {
    email: s.other.email,
    name: name || s.other.email,
    lastReadSeq: s.lastReadSeq,
    lastSeq: s.lastSeq,
    unread: s.unread,
  };
}
