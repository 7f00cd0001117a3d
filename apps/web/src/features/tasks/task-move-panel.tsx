import type { TaskDetail, TaskList } from '@cohort/shared/tasks';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../lib/toast.ts';
import { errorText } from './task-error-text.ts';
import { taskApi, useTaskMutation } from './tasks.queries.ts';

export function MovePanel({
  task,
  lists,
  onMoved,
}: {
  task: TaskDetail;
  lists: TaskList[];
  onMoved: () => void;
}) {
  const move = useTaskMutation(task._id, (listId: string) => taskApi.move(task._id, listId));
  const others = lists.filter((l) => l._id !== task.taskListId);
  return (
    <div>
      <h3 className="text-sm font-semibold text-slate-900 dark:text-slate-100">Move to list</h3>
      {others.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">No other lists</p>
      ) : (
        <ul className="mt-2 space-y-1">
          {others.map((list) => (
            <li key={list._id}>
              <Button
                variant="ghost"
                size="sm"
                className="w-full justify-start"
                disabled={move.isPending}
                onClick={() =>
                  move.mutate(list._id, {
                    onSuccess: () => {
                      toast.success(`Moved to ${list.name}`);
                      onMoved();
                    },
                    onError: (err) => toast.error(`Failed to move task: ${errorText(err)}`),
                  })
                }
              >
                {list.name}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
