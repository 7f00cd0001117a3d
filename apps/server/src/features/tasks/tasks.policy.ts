import type { BoardRole } from '@cohort/shared/boards';
import { forbidden } from '../../http/errors.ts';

/**
 * Who may do what with a task (docs/permissions.md, "Tasks" and "Boards"). A task's role is its
 * board's role (BOARD_PERMISSIONS); on a personal board an assignee also reaches the task and may
 * read and work on it, not reorganise it. Anyone else never gets this far: `loadTaskForUser` answers
 * them 404, exactly like a task that does not exist.
 */
export type TaskRole = BoardRole | 'assignee';

export const TASK_PERMISSIONS = {
  read: ['owner', 'admin', 'editor', 'viewer', 'assignee'],
  /** Comments (viewers may comment). */
  comment: ['owner', 'admin', 'editor', 'viewer', 'assignee'],
  /** Description, title, priority, deadline, checklist, labels. */
  work: ['owner', 'admin', 'editor', 'assignee'],
  /** Move, archive, restore, assign, attachments. */
  manage: ['owner', 'admin', 'editor'],
} as const satisfies Record<string, readonly TaskRole[]>;

export type TaskAction = keyof typeof TASK_PERMISSIONS;

export function taskRoleCan(role: TaskRole, action: TaskAction): boolean {
  return (TASK_PERMISSIONS[action] as readonly TaskRole[]).includes(role);
}

/** The authorize step of the route pipeline: a caller who can see the task but not do this gets 403. */
export function authorizeTask(role: TaskRole, action: TaskAction): void {
  if (!taskRoleCan(role, action)) throw forbidden();
}
