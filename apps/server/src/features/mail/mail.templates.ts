import {
  CHANGE_EMAIL_TTL_HOURS,
  RESET_PASSWORD_TTL_MINUTES,
  VERIFY_EMAIL_TTL_HOURS,
} from '@cohort/shared/accounts';
import { displayName } from '@cohort/shared/names';
import type { WorkspaceRole } from '@cohort/shared/workspaces';
import type { AppContext } from '../../context.ts';
import { appLink, composeMail } from './mail.compose.ts';
import type { OutgoingMail } from './mail.outbox.ts';

/** Every mail Cohort sends. Links carry the token only; no mail holds a password. */

const link = (ctx: AppContext, path: string, token: string) =>
  appLink(ctx, `${path}?token=${encodeURIComponent(token)}`);

const IGNORE = 'If you did not ask for this, you can ignore this e-mail.';

export function verificationMail(
  ctx: AppContext,
  to: string,
  firstName: string,
  token: string,
): OutgoingMail {
  return composeMail({
    kind: 'verify_email',
    to,
    subject: 'Verify your e-mail address for Cohort',
    paragraphs: [
      `Hi ${firstName},`,
      `Please confirm that ${to} is your address by opening the link below. It works once, for ${VERIFY_EMAIL_TTL_HOURS} hours.`,
    ],
    action: { label: 'Verify e-mail address', url: link(ctx, '/verify-email', token) },
    footer: `${IGNORE} Nobody can use this address in Cohort without the link.`,
  });
}

export function resetPasswordMail(
  ctx: AppContext,
  to: string,
  firstName: string,
  token: string,
): OutgoingMail {
  return composeMail({
    kind: 'reset_password',
    to,
    subject: 'Reset your Cohort password',
    paragraphs: [
      `Hi ${firstName},`,
      `Someone asked to reset the password of the Cohort account for ${to}. Open the link below to choose a new one. It works once, for ${RESET_PASSWORD_TTL_MINUTES} minutes, and signs out every session of the account.`,
    ],
    action: { label: 'Choose a new password', url: link(ctx, '/reset-password', token) },
    footer: `${IGNORE} Your password stays as it is.`,
  });
}

export function confirmEmailChangeMail(
  ctx: AppContext,
  to: string,
  input: { firstName: string; oldEmail: string; token: string },
): OutgoingMail {
  return composeMail({
    kind: 'change_email',
    to,
    subject: 'Confirm your new e-mail address for Cohort',
    paragraphs: [
      `Hi ${input.firstName},`,
      `You asked to change the e-mail address of your Cohort account from ${input.oldEmail} to ${to}. Open the link below to confirm; until then nothing changes. It works once, for ${CHANGE_EMAIL_TTL_HOURS} hours.`,
    ],
    action: { label: 'Confirm new address', url: link(ctx, '/confirm-email', input.token) },
    footer: IGNORE,
  });
}

export function emailChangedNotice(
  ctx: AppContext,
  to: string,
  input: { firstName: string; newEmail: string },
): OutgoingMail {
  return composeMail({
    kind: 'email_changed',
    to,
    subject: 'Your Cohort e-mail address was changed',
    paragraphs: [
      `Hi ${input.firstName},`,
      `The e-mail address of your Cohort account was changed from ${to} to ${input.newEmail}. Mail about the account now goes there.`,
      'If you did not do this, someone who knows your password did: contact the people who run this Cohort server.',
    ],
    action: { label: 'Open Cohort', url: appLink(ctx, '/login') },
  });
}

const ROLE_PHRASES: Record<WorkspaceRole, string> = {
  viewer: 'a viewer',
  editor: 'an editor',
  admin: 'an admin',
};

/** The web page where the invitee accepts; signed-out visitors sign in (or up) first and come back. */
export const invitationPath = (invitationId: string) =>
  `/invitations?${new URLSearchParams({ focus: invitationId })}`;

/**
 * The invitation e-mail. It carries no secret: the link only opens the invitations page, and
 * accepting needs a session whose verified address is the invited one.
 */
export function invitationMail(
  ctx: AppContext,
  input: {
    invitationId: string;
    to: string;
    workspaceName: string;
    role: WorkspaceRole;
    inviter: { email: string; firstName: string; lastName: string };
    expiresAt: Date;
  },
): OutgoingMail {
  const name = displayName(input.inviter);
  return composeMail({
    kind: 'invitation',
    to: input.to,
    subject: `${name} invited you to ${input.workspaceName} on Cohort`,
    paragraphs: [
      `${name} (${input.inviter.email}) invited you to join the workspace "${input.workspaceName}" on Cohort as ${ROLE_PHRASES[input.role]}.`,
      `To accept, sign in with this address (${input.to}) — or create an account with it and verify it — and press Accept. The invitation expires on ${input.expiresAt.toUTCString()}.`,
    ],
    action: { label: 'View the invitation', url: appLink(ctx, invitationPath(input.invitationId)) },
    footer:
      'If you did not expect this invitation, ignore this e-mail or decline it: nobody joins without accepting.',
  });
}
