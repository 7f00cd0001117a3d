/**
 * The last message seq each user has seen per channel, in local storage, so unread counts survive a
 * reload. Marks only move forward. Listeners hear about changes made in this tab (the channel pane
 * moves the mark; the sidebar's counter listens).
 */

const listeners = new Set<() => void>();
const key = (userId: string, channelId: string) => `cohort.lastRead.${userId}.${channelId}`;

export function readMark(userId: string, channelId: string): number | null {
  try {
    const raw = localStorage.getItem(key(userId, channelId));
    const seq = raw === null ? Number.NaN : Number(raw);
    return Number.isInteger(seq) && seq >= 0 ? seq : null;
  } catch {
    return null;
  }
}

export function markRead(userId: string, channelId: string, seq: number): void {
  const current = readMark(userId, channelId);
  if (current !== null && current >= seq) return;
  try {
    localStorage.setItem(key(userId, channelId), String(seq));
  } catch {
    // Without storage the counts still work until the next reload.
  }
  for (const listener of listeners) listener();
}

export function subscribeReadMarks(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
