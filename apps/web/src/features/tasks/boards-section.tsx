import { boardRoleCan } from '@cohort/shared/boards';
import { useQuery } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { AddListForm } from './add-list-form.tsx';
import { boardQuery } from './boards.queries.ts';
import { TaskListView } from './task-list-view.tsx';
import { useBoardDnd } from './use-board-dnd.ts';

interface BoardsSectionProps {
  /** The board shown (GET /api/boards/{id}: its lists with their tasks). */
  boardId: string;
  /** Only tasks whose title contains this (case-insensitive) are shown. */
  search: string;
  onOpenTask: (taskId: string) => void;
  /** Only tasks assigned to this user (the "Assigned to me" filter). */
  assignedTo?: string | undefined;
}

/** Boards: the board's lists side by side, reloaded each time the section becomes active. */
export function BoardsSection({ boardId, search, onOpenTask, assignedTo }: BoardsSectionProps) {
  const board = useQuery({ ...boardQuery(boardId), refetchOnMount: 'always' });
  const dnd = useBoardDnd(boardId);
  const canEdit = board.data ? boardRoleCan(board.data.role, 'edit') : false;
  // Positions are among all of a list's tasks, so moving is offered while nothing is filtered out.
  const movable = canEdit && !search.trim() && !assignedTo;

  if (board.isPending) {
    return (
      <div role="status" className="flex items-center gap-2 py-12 text-slate-600">
        <Loader2 aria-hidden="true" className="size-5 animate-spin" />
        <span>Loading task lists...</span>
      </div>
    );
  }
  if (board.isError) {
    // The spec logs this one to the console only.
    console.error('Failed to fetch task lists', board.error);
  }
  const lists = (board.data?.lists ?? []).map((list) =>
    assignedTo
      ? { ...list, tasks: list.tasks.filter((t) => t.assignedTo.some((a) => a._id === assignedTo)) }
      : list,
  );

  return (
    // The lists scroll sideways; the padding keeps the last one ("Add another list") whole at the end,
    // its shadow and focus ring included (a scroller clips what sticks out of it).
    <div className="relative -mx-2 flex items-start gap-4 overflow-x-auto px-2 pt-2 pb-4 after:w-px after:shrink-0 after:content-['']">
      {lists.map((list) => (
        <TaskListView
          key={list._id}
          list={list}
          search={search}
          onOpenTask={onOpenTask}
          dnd={movable ? dnd : undefined}
          canEdit={canEdit}
        />
      ))}
      {lists.length === 0 && board.data && !canEdit && (
        // Editors get "Add another list" here; without this a viewer of a new board saw a blank page.
        <p className="py-2 text-sm text-slate-600 dark:text-slate-300">
          This board has no lists yet. Editors and admins of {board.data.workspace?.name ?? 'the workspace'}{' '}
          can add them.
        </p>
      )}
      {canEdit && <AddListForm boardId={boardId} />}
      <p id="board-dnd-help" hidden>
        Press Space or Enter to pick up, the arrow keys to move, Space or Enter to drop, Escape to cancel.
      </p>
      <p data-testid="dnd-announcer" aria-live="assertive" aria-atomic="true" className="sr-only">
        {dnd.announcement}
      </p>
    </div>
  );
}
