import type { AdminMailItem } from '@cohort/shared/mail';
import type { mailOutbox } from '../../db/schema.ts';

/** An outbox row for the operator: addresses and outcome, never the bodies. */
export function presentOutboxRow(row: typeof mailOutbox.$inferSelect): AdminMailItem {
  return {
    id: row.id,
    kind: row.kind,
    to: row.toAddress,
    subject: row.subject,
    status: row.status,
    attempts: row.attempts,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
    nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
  };
}
