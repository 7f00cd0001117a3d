import { PROJECT_MESSAGES } from '@cohort/shared/projects';
import type { WorkspaceRole } from '@cohort/shared/workspaces';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { projects } from '../../db/schema.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { type Caller, isUuid, loadWorkspaceForUser } from '../workspaces/workspaces.access.ts';

export type ProjectRow = typeof projects.$inferSelect;

export interface ProjectAccess {
  project: ProjectRow;
  role: WorkspaceRole;
}

export const projectNotFound = () => notFound(PROJECT_MESSAGES.projectNotFound);

/**
 * The project with the caller's role in its workspace, or 404 "Project not found" when it does not
 * exist or the caller is not a member of its workspace (the same answer for both).
 */
export async function loadProjectForUser(
  ctx: AppContext,
  caller: Caller,
  projectId: string,
): Promise<ProjectAccess> {
  if (!isUuid(projectId)) throw projectNotFound();
  const [project] = await ctx.db.select().from(projects).where(eq(projects.id, projectId));
  if (!project) throw projectNotFound();
  try {
    const { role } = await loadWorkspaceForUser(ctx, caller, project.workspaceId);
    return { project, role };
  } catch (err) {
    if (err instanceof HttpError && err.statusCode === 404) throw projectNotFound();
    throw err;
  }
}
