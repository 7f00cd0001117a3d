// The channels feature's public entry: other features import only what is listed here (biome.json).
export { ChannelPane } from './channel-pane.tsx';
export type { SidebarUnread } from './use-unread-counts.ts';
export { useUnreadCounts } from './use-unread-counts.ts';
