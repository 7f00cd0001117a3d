import type { AppContext } from '../../context.ts';
import { HttpError } from '../../http/errors.ts';
import type { BoardFiles } from '../files/files.access.ts';
import { loadBoardForUser, loadTaskForUser } from './tasks.access.ts';
import { authorizeTask } from './tasks.policy.ts';

/**
 * The file service's view of boards (it cannot import this feature: this feature imports it). A
 * card's upload needs permission to work on the task; its download, permission to read the board.
 */
export function boardFiles(ctx: AppContext): BoardFiles {
  return {
    async uploadTarget(user, taskId) {
      const access = await loadTaskForUser(ctx, user, taskId);
      authorizeTask(access.role, 'work');
      return { boardId: access.board.board.id, workspaceId: access.board.board.workspaceId };
    },
    async canRead(user, boardId) {
      try {
        await loadBoardForUser(ctx, user, boardId);
        return true;
      } catch (err) {
        if (err instanceof HttpError && err.statusCode === 404) return false;
        throw err;
      }
    },
  };
}
