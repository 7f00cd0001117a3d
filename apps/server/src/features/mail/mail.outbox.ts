import { desc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { mailOutbox } from '../../db/schema.ts';

export interface OutgoingMail {
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * Inserts into mail_outbox using `db` (the transaction of the change that causes the mail, handed to
 * the subscribers in mail.subscriptions.ts), so the mail exists exactly when the change does. Sending
 * happens later, in mail.sender.ts; the writer calls `ctx.mail.wake()` after its commit to send at
 * once instead of at the next poll.
 */
export async function queueMail(db: Db | Tx, mail: OutgoingMail): Promise<void> {
  await db.insert(mailOutbox).values({
    kind: mail.kind,
    toAddress: mail.to,
    subject: mail.subject,
    textBody: mail.text,
    htmlBody: mail.html,
  });
}

/** The newest outbox rows (with `status`, only those), for the operators' view. */
export function recentMail(
  db: Db,
  query: { status?: 'pending' | 'sent' | 'failed' | undefined; limit: number },
) {
  return db
    .select()
    .from(mailOutbox)
    .where(query.status ? eq(mailOutbox.status, query.status) : undefined)
    .orderBy(desc(mailOutbox.createdAt))
    .limit(query.limit);
}
