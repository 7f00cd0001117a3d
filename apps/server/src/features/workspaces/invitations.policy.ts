import { INVITATION_MESSAGES } from '@cohort/shared/invitations';
import { forbidden } from '../../http/errors.ts';

/**
 * Accepting or declining an invitation needs a verified address: an account registered with someone
 * else's address, never proved, must not take the role meant for its owner (or turn it down).
 */
export function authorizeInvitee(user: { emailVerified: boolean }): void {
  if (!user.emailVerified) throw forbidden(INVITATION_MESSAGES.verifyFirst);
}
