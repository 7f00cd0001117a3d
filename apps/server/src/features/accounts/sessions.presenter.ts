import type { SessionItem } from '@cohort/shared/security';
import { describeDevice } from './sessions.device.ts';

/** A session as its owner sees it: never its token hash, only what tells it apart. */
export function presentSession(
  s: { id: string; userAgent: string | null; ip: string | null; createdAt: Date; lastSeenAt: Date },
  currentSessionId: string,
): SessionItem {
  return {
    _id: s.id,
    device: describeDevice(s.userAgent),
    ip: s.ip,
    createdAt: s.createdAt.toISOString(),
    lastActiveAt: s.lastSeenAt.toISOString(),
    current: s.id === currentSessionId,
  };
}
