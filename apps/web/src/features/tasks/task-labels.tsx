import type { TaskDetail } from '@cohort/shared/tasks';
import { X } from 'lucide-react';
import { toast } from '../../lib/toast.ts';
import { AddTextForm } from './add-text-form.tsx';
import { errorText } from './task-error-text.ts';
import { taskApi, useTaskMutation } from './tasks.queries.ts';

export function LabelChips({ task }: { task: TaskDetail }) {
  const remove = useTaskMutation(task._id, (label: string) => taskApi.removeLabel(task._id, label));
  if (task.labels.length === 0) return null;
  return (
    <section aria-label="Labels">
      <h3 className="text-sm font-semibold text-slate-900 dark:text-slate-100">Labels</h3>
      <ul className="mt-2 flex flex-wrap gap-2">
        {task.labels.map((label) => (
          <li
            key={label}
            className="inline-flex items-center gap-1 rounded-full bg-indigo-100 py-0.5 pr-1 pl-2.5 text-sm text-indigo-800"
          >
            {label}
            <button
              type="button"
              aria-label={`Remove label ${label}`}
              className="rounded-full p-0.5 hover:bg-indigo-200"
              onClick={() =>
                remove.mutate(label, {
                  onError: (err) => toast.error(`Failed to remove label: ${errorText(err)}`),
                })
              }
            >
              <X aria-hidden="true" className="size-3.5" />
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function LabelsPanel({ task }: { task: TaskDetail }) {
  const add = useTaskMutation(task._id, (label: string) => taskApi.addLabel(task._id, label));
  return (
    <AddTextForm
      label="New label"
      button="Add label"
      pending={add.isPending}
      onAdd={(label, clear) =>
        add.mutate(label, {
          onSuccess: clear,
          onError: (err) => toast.error(`Failed to add label: ${errorText(err)}`),
        })
      }
    />
  );
}
