import { TASK_MESSAGES, type TaskList } from '@cohort/shared/tasks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Pencil, Trash2 } from 'lucide-react';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { inputClasses } from '../../components/ui/field.tsx';
import { DeleteListDialog } from './delete-list-dialog.tsx';
import { taskKeys, taskListApi } from './tasks.queries.ts';

/** The list's name with Rename (inline) and Delete (confirmed; a non-empty list is confirmed twice). */
export function ListHeader({
  list,
  taskCount,
  handle,
  canEdit = true,
}: {
  list: TaskList;
  taskCount: number;
  handle?: ReactNode;
  /** Viewers see the name only. */
  canEdit?: boolean;
}) {
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  return (
    <div className="mb-3">
      {editing ? (
        <RenameListForm list={list} onDone={() => setEditing(false)} />
      ) : (
        <div className="flex items-start gap-1">
          {handle}
          <h2 className="min-w-0 flex-1 py-1 font-semibold break-words text-slate-900 dark:text-slate-100">
            {list.name}
          </h2>
          {canEdit && (
            <>
              <button
                type="button"
                aria-label={`Rename list ${list.name}`}
                title="Rename list"
                onClick={() => setEditing(true)}
                className="rounded p-1.5 text-slate-500 hover:bg-slate-200 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white"
              >
                <Pencil aria-hidden="true" className="size-4" />
              </button>
              <button
                type="button"
                aria-label={`Delete list ${list.name}`}
                title="Delete list"
                onClick={() => setDeleting(true)}
                className="rounded p-1.5 text-slate-500 hover:bg-slate-200 hover:text-red-700 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-red-400"
              >
                <Trash2 aria-hidden="true" className="size-4" />
              </button>
            </>
          )}
        </div>
      )}
      {deleting && <DeleteListDialog list={list} taskCount={taskCount} onClose={() => setDeleting(false)} />}
    </div>
  );
}

function RenameListForm({ list, onDone }: { list: TaskList; onDone: () => void }) {
  const [name, setName] = useState(list.name);
  const [error, setError] = useState('');
  const fieldId = useId();
  const queryClient = useQueryClient();
  const rename = useMutation({
    mutationFn: (title: string) => taskListApi.rename(list._id, title),
    onSuccess: (updated) => {
      queryClient.setQueryData(taskKeys.lists(), (old: TaskList[] | undefined) =>
        old?.map((l) => (l._id === updated._id ? { ...l, name: updated.name, title: updated.title } : l)),
      );
      return queryClient.invalidateQueries({ queryKey: taskKeys.all });
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const title = name.trim();
    if (!title) {
      setError(TASK_MESSAGES.listNameEmpty);
      return;
    }
    if (title === list.name) {
      onDone();
      return;
    }
    rename.mutate(title, {
      onSuccess: onDone,
      onError: (err) => setError(err.message || 'Failed to rename the list'),
    });
  }

  return (
    <form onSubmit={submit} aria-label={`Rename list ${list.name}`} className="space-y-2">
      <label htmlFor={fieldId} className="sr-only">
        New list name
      </label>
      <input
        id={fieldId}
        // biome-ignore lint/a11y/noAutofocus: the user just asked to rename; typing starts here.
        autoFocus
        value={name}
        onChange={(e) => {
          setName(e.target.value);
          setError('');
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            onDone();
          }
        }}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${fieldId}-error` : undefined}
        className={inputClasses}
      />
      {error && (
        <p id={`${fieldId}-error`} role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      )}
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={rename.isPending}>
          Save
        </Button>
        <Button variant="secondary" size="sm" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
