import type { Task, TaskDetail } from '@cohort/shared/tasks';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { cn } from '../../lib/cn.ts';
import { toast } from '../../lib/toast.ts';
import { AddTextForm } from './add-text-form.tsx';
import { errorText } from './task-error-text.ts';
import { checklistProgress, taskApi, useTaskMutation } from './tasks.queries.ts';

export function ChecklistView({ task }: { task: Task }) {
  // A tick shows at once; the server's answer then replaces it.
  const [ticking, setTicking] = useState<Record<string, boolean>>({});
  const items = task.checklist.map((item) =>
    item._id in ticking ? { ...item, status: ticking[item._id] ?? item.status } : item,
  );
  const { done, total, percent } = checklistProgress(items);
  const toggle = useTaskMutation(task._id, (item: { id: string; status: boolean }) =>
    taskApi.setChecklistItem(task._id, item.id, item.status),
  );
  const remove = useTaskMutation(task._id, (itemId: string) => taskApi.deleteChecklistItem(task._id, itemId));
  if (total === 0) return null;
  return (
    <section aria-label="Checklist">
      <div className="flex items-center justify-between text-sm">
        <h3 className="font-semibold text-slate-900 dark:text-slate-100">Checklist</h3>
        <span data-testid="checklist-count" className="text-slate-600 dark:text-slate-400">
          {done}/{total}
        </span>
      </div>
      <div className="mt-2 flex items-center gap-2">
        <span data-testid="checklist-percent" className="w-10 text-xs text-slate-600 dark:text-slate-400">
          {percent}%
        </span>
        <div
          role="progressbar"
          aria-label="Checklist progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="h-2 flex-1 overflow-hidden rounded-full bg-slate-200"
        >
          <div className="h-full bg-emerald-500 transition-all" style={{ width: `${percent}%` }} />
        </div>
      </div>
      <ul className="mt-3 space-y-1">
        {items.map((item) => (
          <li key={item._id} className="flex items-center gap-2 text-sm">
            <input
              id={`check-${item._id}`}
              type="checkbox"
              checked={item.status}
              className="size-4 accent-indigo-600"
              onChange={(e) => {
                const status = e.target.checked;
                setTicking((t) => ({ ...t, [item._id]: status }));
                toggle.mutate(
                  { id: item._id, status },
                  {
                    onError: (err) => toast.error(`Failed to update checklist: ${errorText(err)}`),
                    onSettled: () => setTicking(({ [item._id]: _settled, ...rest }) => rest),
                  },
                );
              }}
            />
            <label htmlFor={`check-${item._id}`} className={cn('flex-1', item.status && 'line-through')}>
              {item.title}
            </label>
            <button
              type="button"
              aria-label={`Delete ${item.title}`}
              className="rounded p-1 text-slate-500 hover:bg-slate-100 hover:text-red-700 dark:hover:bg-slate-700"
              onClick={() =>
                remove.mutate(item._id, {
                  onError: (err) => toast.error(`Failed to delete checklist item: ${errorText(err)}`),
                })
              }
            >
              <Trash2 aria-hidden="true" className="size-4" />
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function ChecklistPanel({ task }: { task: TaskDetail }) {
  const add = useTaskMutation(task._id, (title: string) => taskApi.addChecklistItem(task._id, title));
  return (
    <AddTextForm
      label="New checklist item"
      button="Add item"
      pending={add.isPending}
      onAdd={(title, clear) =>
        add.mutate(title, {
          onSuccess: clear,
          onError: (err) => toast.error(`Failed to add checklist item: ${errorText(err)}`),
        })
      }
    />
  );
}
