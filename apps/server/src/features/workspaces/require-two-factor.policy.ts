import { SECURITY_MESSAGES } from '@cohort/shared/security';
import type { WorkspaceRole } from '@cohort/shared/workspaces';
import { forbidden } from '../../http/errors.ts';
import { authorize } from './workspaces.policy.ts';

/**
 * Requiring two-factor sign-in is a workspace setting (admins). Turning it on also needs the admin
 * to have 2FA on already, so the admin who flips it is never refused by their own workspace.
 */
export function authorizeTwoFactorRequirement(
  role: WorkspaceRole,
  callerHasTwoFactor: boolean,
  required: boolean,
): void {
  authorize(role, 'editWorkspace');
  if (required && !callerHasTwoFactor) throw forbidden(SECURITY_MESSAGES.enableYoursFirst);
}
