import type { PresenceStatus } from '@cohort/shared/presence';

/**
 * The statuses this tab knows, by user id: seeded by `GET …/presence` answers, moved by live
 * `presenceChanged` events. A live event is newer than any answer to a request sent before it
 * arrived, so such an answer does not overwrite it.
 */
const statuses = new Map<string, PresenceStatus>();
const liveAt = new Map<string, number>();
const listeners = new Set<() => void>();

const notify = () => {
  for (const listener of listeners) listener();
};

export function subscribePresence(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export const presenceOf = (userId: string): PresenceStatus | undefined => statuses.get(userId);

/** A live change. */
export function applyPresenceChange(userId: string, status: PresenceStatus, now = performance.now()) {
  liveAt.set(userId, now);
  if (statuses.get(userId) === status) return;
  statuses.set(userId, status);
  notify();
}

/** An answer to a request sent at `requestedAt` (performance.now()). */
export function applyPresenceSnapshot(entries: Iterable<[string, PresenceStatus]>, requestedAt: number) {
  let changed = false;
  for (const [userId, status] of entries) {
    if ((liveAt.get(userId) ?? -1) > requestedAt || statuses.get(userId) === status) continue;
    statuses.set(userId, status);
    changed = true;
  }
  if (changed) notify();
}

/** Tests start from nothing. */
export function resetPresence() {
  statuses.clear();
  liveAt.clear();
  notify();
}
