// The channels feature's public entry: other features import only what is listed here (biome.json).

export { BrowseChannels } from './browse-channels.tsx';
export { browseChannelsQuery, refreshChannels } from './channel-manage.queries.ts';
export { ChannelPane } from './channel-pane.tsx';
export type { SidebarUnread } from './use-unread-counts.ts';
export { useUnreadCounts } from './use-unread-counts.ts';
