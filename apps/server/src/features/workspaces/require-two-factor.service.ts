import { and, count, eq, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { users, workspaceMembers, workspaces } from '../../db/schema.ts';
import type { WorkspaceRow } from './workspaces.access.ts';

/** The setting, and how many members it currently keeps out (they have not turned 2FA on). */
export async function twoFactorRequirementOf(ctx: AppContext, workspace: WorkspaceRow) {
  const [without] = await ctx.db
    .select({ n: count() })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(and(eq(workspaceMembers.workspaceId, workspace.id), isNull(users.totpEnabledAt)));
  return { required: workspace.requireTwoFactor, membersWithout: Number(without?.n ?? 0) };
}

/**
 * Turns the requirement on or off. From the next request on, members without 2FA are refused by
 * `loadWorkspaceForUser` / `loadChannelForUser` (every workspace route and socket join).
 */
export async function setTwoFactorRequirement(ctx: AppContext, workspace: WorkspaceRow, required: boolean) {
  const [row] = await ctx.db
    .update(workspaces)
    .set({ requireTwoFactor: required })
    .where(eq(workspaces.id, workspace.id))
    .returning();
  return twoFactorRequirementOf(ctx, row ?? { ...workspace, requireTwoFactor: required });
}
