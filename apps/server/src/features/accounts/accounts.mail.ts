import {
  CHANGE_EMAIL_TTL_HOURS,
  RESET_PASSWORD_TTL_MINUTES,
  VERIFY_EMAIL_TTL_HOURS,
} from '@cohort/shared/accounts';
import type { AppContext } from '../../context.ts';
import { appLink, composeMail } from '../mail/mail.compose.ts';
import type { OutgoingMail } from '../mail/mail.outbox.ts';

/** The mails of the accounts feature. Links carry the token only; no mail holds a password. */

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
