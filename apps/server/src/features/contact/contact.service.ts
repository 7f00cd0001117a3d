import type { ContactBody } from '@cohort/shared/contact';
import type { AppContext } from '../../context.ts';
import { contactMessages, newsletterSubscribers } from '../../db/schema.ts';

export async function storeContactMessage(ctx: AppContext, body: ContactBody, userId: string | null) {
  await ctx.db.insert(contactMessages).values({ ...body, userId, createdAt: ctx.now() });
}

/** Idempotent: subscribing twice is the same as once (and does not reveal who subscribed). */
export async function subscribeToNewsletter(ctx: AppContext, email: string) {
  await ctx.db.insert(newsletterSubscribers).values({ email }).onConflictDoNothing();
}
