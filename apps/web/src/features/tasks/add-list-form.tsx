import { TASK_MESSAGES } from '@cohort/shared/tasks';
import { Plus } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { inputClasses } from '../../components/ui/field.tsx';
import { useCreateTaskList } from './tasks.queries.ts';

/** "Add another list": an inline form; a blank name is refused without a request. */
export function AddListForm({ boardId }: { boardId?: string }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState('');
  const create = useCreateTaskList(boardId);
  const fieldId = useId();

  function close() {
    setOpen(false);
    setName('');
    setError('');
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const title = name.trim();
    if (!title) {
      setError(TASK_MESSAGES.listNameEmpty);
      return;
    }
    create.mutate(title, {
      onSuccess: close,
      onError: (err) => {
        console.error('Failed to add a new task list', err);
        setError(err.message || 'Failed to add a new task list');
      },
    });
  }

  if (!open) {
    return (
      <Button variant="secondary" className="w-72 shrink-0 justify-start" onClick={() => setOpen(true)}>
        <Plus aria-hidden="true" className="size-4" />
        Add another list
      </Button>
    );
  }
  return (
    <form
      onSubmit={submit}
      aria-label="Add another list"
      className="w-72 shrink-0 space-y-2 rounded-xl border border-slate-200 bg-white p-3 shadow-sm dark:border-slate-600 dark:bg-slate-800"
    >
      <label htmlFor={fieldId} className="sr-only">
        List name
      </label>
      <input
        id={fieldId}
        // biome-ignore lint/a11y/noAutofocus: the user just asked for this form; typing starts here.
        autoFocus
        placeholder="Enter list name..."
        value={name}
        onChange={(e) => {
          setName(e.target.value);
          setError('');
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
        <Button type="submit" size="sm" disabled={create.isPending}>
          Add List
        </Button>
        <Button variant="secondary" size="sm" onClick={close}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
