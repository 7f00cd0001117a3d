import type { AppContext } from '../../context.ts';
import { queueMail } from './mail.outbox.ts';
import {
  confirmEmailChangeMail,
  emailChangedNotice,
  invitationMail,
  resetPasswordMail,
  verificationMail,
} from './mail.templates.ts';

/** The bus events that send mail; each is published inside the transaction of its change. */
export const MAIL_EVENTS = [
  'verificationIssued',
  'passwordResetIssued',
  'emailChangeRequested',
  'emailChanged',
  'invitationsSent',
] as const;

/**
 * Mail is a subscriber of the app bus: other features publish what happened (a link issued,
 * invitations sent) inside their transaction, and this queues the mail in mail_outbox in that same
 * transaction (a failure rolls the change back). No other feature imports the mail feature.
 * Returns what unsubscribes.
 */
export function subscribeMail(ctx: AppContext): () => void {
  const { bus } = ctx;
  const offs = [
    bus.on('verificationIssued', (e) => queueMail(e.db, verificationMail(ctx, e.to, e.firstName, e.token))),
    bus.on('passwordResetIssued', (e) => queueMail(e.db, resetPasswordMail(ctx, e.to, e.firstName, e.token))),
    bus.on('emailChangeRequested', (e) =>
      queueMail(
        e.db,
        confirmEmailChangeMail(ctx, e.to, { firstName: e.firstName, oldEmail: e.oldEmail, token: e.token }),
      ),
    ),
    bus.on('emailChanged', (e) =>
      queueMail(e.db, emailChangedNotice(ctx, e.oldEmail, { firstName: e.firstName, newEmail: e.newEmail })),
    ),
    bus.on('invitationsSent', async (e) => {
      for (const invitation of e.invitations) {
        await queueMail(
          e.db,
          invitationMail(ctx, {
            invitationId: invitation.id,
            to: invitation.email,
            workspaceName: e.workspaceName,
            role: invitation.role,
            inviter: e.inviter,
            expiresAt: invitation.expiresAt,
          }),
        );
      }
    }),
  ];
  return () => {
    for (const off of offs) off();
  };
}
