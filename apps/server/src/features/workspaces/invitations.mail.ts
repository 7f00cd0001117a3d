import { displayName } from '@cohort/shared/names';
import type { WorkspaceRole } from '@cohort/shared/workspaces';
import type { AppContext } from '../../context.ts';
import { appLink, composeMail } from '../mail/mail.compose.ts';
import type { OutgoingMail } from '../mail/mail.outbox.ts';

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
