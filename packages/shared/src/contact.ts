import { z } from 'zod';
import { emailSchema } from './accounts.ts';
import { text } from './text.ts';

/** Per client address and hour: enough for a person, not for a script. */
export const CONTACT_PER_HOUR = 5;
export const NEWSLETTER_PER_HOUR = 10;
export const CONTACT_MESSAGES = {
  tooOften: 'Too many submissions from your network. Please try again in an hour.',
} as const;

export const contactBody = z.object({
  name: text().trim().min(1, 'Name is required').max(120, 'Name is too long (120 characters at most)'),
  email: emailSchema,
  message: text()
    .trim()
    .min(1, 'Message is required')
    .max(5000, 'Message is too long (5000 characters at most)'),
});
export type ContactBody = z.infer<typeof contactBody>;

export const newsletterBody = z.object({ email: emailSchema });
export type NewsletterBody = z.infer<typeof newsletterBody>;
