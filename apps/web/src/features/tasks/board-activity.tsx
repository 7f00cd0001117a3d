import type { BoardDetail } from '@cohort/shared/boards';
import { useQuery } from '@tanstack/react-query';
import { History } from 'lucide-react';
import { boardActivityQuery } from './boards.queries.ts';
import { describeActivity } from './task-activity.tsx';
import { personName } from './tasks.queries.ts';

/** A board's "Recent activity": who did what to which card, newest first. */
export function BoardActivity({
  board,
  onOpenTask,
}: {
  board: BoardDetail;
  onOpenTask: (id: string) => void;
}) {
  const activity = useQuery(boardActivityQuery(board._id));
  return (
    <section aria-labelledby="board-activity-heading" className="mt-6 max-w-2xl">
      <h2 id="board-activity-heading" className="flex items-center gap-1.5 text-sm font-semibold">
        <History aria-hidden="true" className="size-4" />
        Recent activity
      </h2>
      {activity.isPending ? (
        <p role="status" className="mt-2 text-sm text-slate-600">
          Loading activity...
        </p>
      ) : activity.isError ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          Failed to fetch the board's activity
        </p>
      ) : activity.data.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">Nothing has happened on this board yet</p>
      ) : (
        <ol className="mt-2 space-y-1.5 text-sm">
          {activity.data.map((item) => (
            <li key={item._id} className="text-slate-700 dark:text-slate-300">
              <strong className="text-slate-900 dark:text-slate-100">
                {item.user ? personName(item.user) : 'Someone'}
              </strong>{' '}
              {describeActivity({ ...item, user: item.user }, board.lists)} on{' '}
              <button
                type="button"
                className="font-medium text-indigo-700 hover:underline dark:text-indigo-300"
                onClick={() => onOpenTask(item.task._id)}
              >
                {item.task.title}
              </button>{' '}
              <time dateTime={item.time} className="text-xs text-slate-500 dark:text-slate-400">
                {new Date(item.time).toLocaleString()}
              </time>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
