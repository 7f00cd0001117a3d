// The reads feature's public entry: other features import only what is listed here (biome.json).
export { firstUnreadKey, NewMessagesDivider } from './new-messages-divider.tsx';
export {
  applyChannelUnread,
  applyDirectUnread,
  channelUnreadQuery,
  directUnreadQuery,
  markChannelRead,
  markDirectRead,
  readKeys,
  setChannelMuted,
  unreadLabel,
} from './reads.queries.ts';
export { useDirectUnread } from './use-direct-unread.ts';
export { useMarkRead, useOpenedMark } from './use-mark-read.ts';
