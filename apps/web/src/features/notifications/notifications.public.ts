// The notifications feature's public entry: other features import only what is listed here (biome.json).
export { MentionBadge } from './mention-badge.tsx';
export { mentionsQuery, refreshNotificationFeed, useClearChannelMentions } from './notifications.queries.ts';
