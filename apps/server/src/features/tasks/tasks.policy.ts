import { forbidden } from '../../http/errors.ts';

/**
 * Who may do what with a task (docs/permissions.md, "Tasks"). Tasks are personal: the owner of the
 * list owns its tasks. Assignees may read a task and work on it, not reorganise it. Anyone else
 * never gets this far: `loadTaskForUser` answers them 404, exactly like a task that does not exist.
 */
export type TaskRole = 'owner' | 'assignee';

export const TASK_PERMISSIONS = {
  read: ['owner', 'assignee'],
  /** Description, title, priority, deadline, comments, checklist, labels. */
  work: ['owner', 'assignee'],
  /** Move, archive, restore, assign. */
  manage: ['owner'],
} as const satisfies Record<string, readonly TaskRole[]>;

export type TaskAction = keyof typeof TASK_PERMISSIONS;

export function taskRoleCan(role: TaskRole, action: TaskAction): boolean {
  return (TASK_PERMISSIONS[action] as readonly TaskRole[]).includes(role);
}

/** The authorize step of the route pipeline: a caller who can see the task but not do this gets 403. */
export function authorizeTask(role: TaskRole, action: TaskAction): void {
  if (!taskRoleCan(role, action)) throw forbidden();
}

/** The role of a caller on a task, or null when the task is none of their business. */
export function taskRoleOf(
  callerId: string,
  listOwnerId: string,
  assigneeIds: readonly string[],
): TaskRole | null {
  if (callerId === listOwnerId) return 'owner';
  if (assigneeIds.includes(callerId)) return 'assignee';
  return null;
}
