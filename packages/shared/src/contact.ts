import { z } from 'zod';
import { emailSchema } from './accounts.ts';

export const contactBody = z.object({
  name: z.string().trim().min(1, 'Name is required').max(120, 'Name is too long (120 characters at most)'),
  email: emailSchema,
  message: z
    .string()
    .trim()
    .min(1, 'Message is required')
    .max(5000, 'Message is too long (5000 characters at most)'),
});
export type ContactBody = z.infer<typeof contactBody>;

export const newsletterBody = z.object({ email: emailSchema });
export type NewsletterBody = z.infer<typeof newsletterBody>;
