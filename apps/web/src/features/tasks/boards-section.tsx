import { useQuery } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { AddListForm } from './add-list-form.tsx';
import { TaskListView } from './task-list-view.tsx';
import { taskListsQuery } from './tasks.queries.ts';
import { useBoardDnd } from './use-board-dnd.ts';

interface BoardsSectionProps {
  /** Only tasks whose title contains this (case-insensitive) are shown. */
  search: string;
  onOpenTask: (taskId: string) => void;
}

/** Boards: the user's lists side by side, reloaded each time the section becomes active. */
export function BoardsSection({ search, onOpenTask }: BoardsSectionProps) {
  const lists = useQuery({ ...taskListsQuery, refetchOnMount: 'always' });
  const dnd = useBoardDnd();
  // Positions are among all of a list's tasks, so moving is offered while nothing is filtered out.
  const movable = !search.trim();

  if (lists.isPending) {
    return (
      <div role="status" className="flex items-center gap-2 py-12 text-slate-600">
        <Loader2 aria-hidden="true" className="size-5 animate-spin" />
        <span>Loading task lists...</span>
      </div>
    );
  }
  if (lists.isError) {
    // The spec logs this one to the console only; the board still offers Add another list.
    console.error('Failed to fetch task lists', lists.error);
  }
  const data = lists.data ?? [];

  return (
    // The lists scroll sideways; the padding keeps the last one ("Add another list") whole at the end,
    // its shadow and focus ring included (a scroller clips what sticks out of it).
    <div className="relative -mx-2 flex items-start gap-4 overflow-x-auto px-2 pt-2 pb-4 after:w-px after:shrink-0 after:content-['']">
      {data.map((list) => (
        <TaskListView
          key={list._id}
          list={list}
          search={search}
          onOpenTask={onOpenTask}
          dnd={movable ? dnd : undefined}
        />
      ))}
      <AddListForm />
      <p id="board-dnd-help" hidden>
        Press Space or Enter to pick up, the arrow keys to move, Space or Enter to drop, Escape to cancel.
      </p>
      <p data-testid="dnd-announcer" aria-live="assertive" aria-atomic="true" className="sr-only">
        {dnd.announcement}
      </p>
    </div>
  );
}
