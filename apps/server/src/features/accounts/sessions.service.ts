import { SECURITY_MESSAGES } from '@cohort/shared/security';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import {
  liveSessionsOf,
  revokeOtherSessions,
  revokeOwnSession,
  type SessionUser,
} from '../../http/session.ts';
import { isUuid } from '../workspaces/workspaces.access.ts';

/** Profile → Security: the caller's own sessions only. */

export function listSessions(ctx: AppContext, user: SessionUser) {
  return liveSessionsOf(ctx, user.id);
}

/**
 * Signs out one of the caller's sessions (this one included) and closes its sockets at once.
 * Someone else's session, a revoked or expired one and an unknown id all answer 404 alike.
 */
export async function revokeSessionOfUser(ctx: AppContext, user: SessionUser, sessionId: string) {
  if (!isUuid(sessionId) || !(await revokeOwnSession(ctx, user.id, sessionId))) {
    throw notFound(SECURITY_MESSAGES.sessionNotFound);
  }
}

/** "Sign out everywhere else": every session of the caller but this one. */
export function revokeOtherSessionsOfUser(ctx: AppContext, user: SessionUser) {
  return revokeOtherSessions(ctx, user.id, user.sessionId);
}
