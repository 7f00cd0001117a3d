import type { ChannelUnread } from '@cohort/shared/reads';
import type { Channel } from '@cohort/shared/workspaces';

/**
 * The sidebar's channel groups (issue 22): the channels the caller joined, starred ones first, without
 * the archived ones (those are reached from "Browse channels"). The channel being read is listed too
 * while the caller previews it without having joined, so the sidebar always shows where they are.
 */
export function sidebarGroups(channels: Channel[], openId: string | undefined) {
  const shown = channels.filter((c) => !c.archived && (c.joined || c._id === openId));
  return {
    starred: shown.filter((c) => c.starred),
    channels: shown.filter((c) => !c.starred),
  };
}

/**
 * A workspace's badge in the switcher: unread messages and unread mentions over the channels its
 * sidebar lists (joined, not archived, not muted).
 */
export function workspaceBadge(
  channels: Channel[],
  unread: readonly ChannelUnread[],
  mentions: ReadonlyArray<{ channelId: string; count: number }>,
): { unread: number; mentions: number } {
  const listed = new Set(channels.filter((c) => c.joined && !c.archived).map((c) => c._id));
  let total = 0;
  for (const entry of unread) if (listed.has(entry.channelId) && !entry.muted) total += entry.unread;
  let mentioned = 0;
  for (const m of mentions) if (listed.has(m.channelId)) mentioned += m.count;
  return { unread: total, mentions: mentioned };
}

/** Up to two initials of a workspace's name ("Acme Design" → "AD", "acme" → "A"). */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.slice(0, 2).map((w) => [...w][0] ?? '');
  return letters.join('').toUpperCase() || '?';
}
