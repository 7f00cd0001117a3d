import { z } from 'zod';

/** GET /api/admin/mail: the operator's view of the outbox (never the bodies: they hold single-use links). */
export const adminMailQuery = z.object({
  status: z.enum(['pending', 'sent', 'failed']).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type AdminMailQuery = z.infer<typeof adminMailQuery>;

export const adminMailItem = z.object({
  id: z.string(),
  kind: z.string(),
  to: z.string(),
  subject: z.string(),
  status: z.enum(['pending', 'sent', 'failed']),
  attempts: z.number(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
});
export type AdminMailItem = z.infer<typeof adminMailItem>;

export const adminMailResponse = z.object({ mail: z.array(adminMailItem) });
export type AdminMailResponse = z.infer<typeof adminMailResponse>;
