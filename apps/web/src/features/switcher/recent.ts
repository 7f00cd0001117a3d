/**
 * Recently opened destinations and recent searches, kept per user in this browser's local storage
 * (`cohort.recent.<userId>.<list>`, cleared on sign-out with the other personal keys: lib/storage.ts).
 * Most recent first, without duplicates, capped.
 */

export const RECENT_DESTINATIONS_MAX = 20;
export const RECENT_SEARCHES_MAX = 10;

export type RecentList = 'destinations' | 'searches';

const CAPS: Record<RecentList, number> = {
  destinations: RECENT_DESTINATIONS_MAX,
  searches: RECENT_SEARCHES_MAX,
};

export const recentStorageKey = (userId: string, list: RecentList) => `cohort.recent.${userId}.${list}`;

/** `entry` moved (or added) to the front of `list`, at most `cap` entries. Pure. */
export function pushRecent(list: readonly string[], entry: string, cap: number): string[] {
  return [entry, ...list.filter((e) => e !== entry)].slice(0, cap);
}

export function readRecent(userId: string, list: RecentList): string[] {
  try {
    const raw = JSON.parse(localStorage.getItem(recentStorageKey(userId, list)) ?? '[]') as unknown;
    return Array.isArray(raw)
      ? raw.filter((e): e is string => typeof e === 'string').slice(0, CAPS[list])
      : [];
  } catch {
    // Unreadable or unavailable storage: no recents, the rest works.
    return [];
  }
}

export function recordRecent(userId: string, list: RecentList, entry: string): void {
  const value = entry.trim();
  if (!value) return;
  try {
    const next = pushRecent(readRecent(userId, list), value, CAPS[list]);
    localStorage.setItem(recentStorageKey(userId, list), JSON.stringify(next));
  } catch {
    // Storage can be unavailable (private mode, quotas); recents are a convenience.
  }
}

/** The recent-destination key of a channel, a person (by e-mail) or a workspace (by name). */
export const recentKey = {
  channel: (id: string) => `channel:${id}`,
  person: (email: string) => `person:${email.trim().toLowerCase()}`,
  workspace: (name: string) => `workspace:${name.trim().toLowerCase()}`,
};

/** The destination a signed-in page stands for (a channel, a direct conversation, a workspace), if any. */
export function destinationOfLocation(pathname: string, search: string): string | null {
  const channel = /^\/workspace\/[^/]+\/channel\/([^/]+)\/?$/.exec(pathname);
  if (channel?.[1]) return recentKey.channel(decodeURIComponent(channel[1]));
  const workspace = /^\/workspace\/([^/]+)\/?$/.exec(pathname);
  if (workspace?.[1] && workspace[1] !== 'create') {
    return recentKey.workspace(decodeURIComponent(workspace[1]));
  }
  if (pathname === '/chat' || pathname === '/livechat') {
    const email = new URLSearchParams(search).get('with');
    if (email) return recentKey.person(email);
  }
  return null;
}
