import type { updateProfileBody } from '@cohort/shared/workspaces';
import { and, asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { users, workspaceMembers, workspaces } from '../../db/schema.ts';
import { unauthorized } from '../../http/errors.ts';
import type { Caller } from './workspaces.access.ts';

/*
 * The profile page lives with workspaces because its only cross-table content is "Workspaces Created
 * by You". It writes just the profile fields of the caller's own row (names, job title, phone);
 * e-mail, password and Google link stay with the accounts feature.
 */

type UpdateProfileData = z.output<typeof updateProfileBody>;

export interface ProfileView {
  user: typeof users.$inferSelect;
  workspaces: Array<{ id: string; name: string; description: string }>;
}

/** The caller's profile and the workspaces they created and still belong to, oldest first. */
export async function getProfile(ctx: AppContext, caller: Caller): Promise<ProfileView> {
  const [user] = await ctx.db.select().from(users).where(eq(users.id, caller.id));
  if (!user) throw unauthorized();
  const created = await ctx.db
    .select({ id: workspaces.id, name: workspaces.name, description: workspaces.description })
    .from(workspaces)
    .innerJoin(
      workspaceMembers,
      and(eq(workspaceMembers.workspaceId, workspaces.id), eq(workspaceMembers.userId, caller.id)),
    )
    .where(eq(workspaces.createdBy, caller.id))
    .orderBy(asc(workspaces.createdAt), asc(workspaces.name));
  return { user, workspaces: created };
}

export async function updateProfile(
  ctx: AppContext,
  caller: Caller,
  patch: UpdateProfileData,
): Promise<ProfileView> {
  const changes = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  if (Object.keys(changes).length > 0) {
    await ctx.db.update(users).set(changes).where(eq(users.id, caller.id));
  }
  return getProfile(ctx, caller);
}
