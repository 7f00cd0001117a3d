import type { TaskDetail } from '@cohort/shared/tasks';
import { useId } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { inputClasses } from '../../components/ui/field.tsx';
import { ApiError } from '../../lib/api.ts';
import { toast } from '../../lib/toast.ts';
import { errorText } from './task-error-text.ts';
import { deadlineInputValue, taskApi, useTaskMutation } from './tasks.queries.ts';

export function DatesPanel({ task }: { task: TaskDetail }) {
  const fieldId = useId();
  const set = useTaskMutation(task._id, (deadline: string | null) => taskApi.setDeadline(task._id, deadline));
  const change = (deadline: string | null) =>
    set.mutate(deadline, {
      onError: (err) =>
        toast.error(`Failed to update due date: ${err instanceof ApiError ? err.message : errorText(err)}`),
    });
  return (
    <div className="space-y-2">
      <label htmlFor={fieldId} className="block text-sm font-medium text-slate-800 dark:text-slate-200">
        Due date
      </label>
      <input
        id={fieldId}
        type="date"
        value={deadlineInputValue(task.dates.deadline)}
        onChange={(e) => {
          if (e.target.value) change(e.target.value);
        }}
        className={inputClasses}
      />
      {task.dates.deadline && (
        <Button variant="secondary" size="sm" disabled={set.isPending} onClick={() => change(null)}>
          Remove due date
        </Button>
      )}
    </div>
  );
}
