import { SECURITY_MESSAGES } from '@cohort/shared/security';
import { conflict } from '../../http/errors.ts';

/** Where an account stands with two-factor sign-in: a secret alone is a setup not yet confirmed. */
export interface TwoFactorState {
  secret: string | null;
  enabledAt: Date | null;
}

/** A new authenticator secret only while 2FA is off (turning it on again starts from a fresh one). */
export function authorizeSetup(state: TwoFactorState): void {
  if (state.enabledAt) throw conflict(SECURITY_MESSAGES.alreadyEnabled);
}

/** Confirming needs the pending secret that setup stored. */
export function authorizeEnable(state: TwoFactorState): void {
  if (state.enabledAt) throw conflict(SECURITY_MESSAGES.alreadyEnabled);
  if (!state.secret) throw conflict(SECURITY_MESSAGES.setupFirst);
}

/**
 * Turning it off: only when on, and never by an admin of a workspace that requires it — they would
 * be refused by their own workspace (and might be the only one able to change the setting).
 */
export function authorizeDisable(state: TwoFactorState, adminOfRequiring: string[]): void {
  if (!state.enabledAt) throw conflict(SECURITY_MESSAGES.notEnabled);
  if (adminOfRequiring.length > 0)
    throw conflict(SECURITY_MESSAGES.adminOfRequiringWorkspace(adminOfRequiring));
}
