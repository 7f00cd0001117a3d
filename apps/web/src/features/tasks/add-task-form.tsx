import {
  DEFAULT_TASK_PRIORITY,
  TASK_MESSAGES,
  TASK_PRIORITIES,
  type TaskPriority,
} from '@cohort/shared/tasks';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { inputClasses, TextAreaField, TextField } from '../../components/ui/field.tsx';
import { cn } from '../../lib/cn.ts';
import { useCreateTask } from './tasks.queries.ts';

export function AddTaskForm({ taskListId, onDone }: { taskListId: string; onDone: () => void }) {
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [priority, setPriority] = useState<TaskPriority>(DEFAULT_TASK_PRIORITY);
  const [error, setError] = useState('');
  const [titleError, setTitleError] = useState('');
  const create = useCreateTask();
  const priorityId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!title.trim()) {
      setTitleError(TASK_MESSAGES.titleRequired);
      return;
    }
    setError('');
    create.mutate(
      { title: title.trim(), description, priority, taskListId },
      { onSuccess: onDone, onError: () => setError('Failed to add task') },
    );
  }

  return (
    <form
      onSubmit={submit}
      aria-label="Add Task"
      noValidate
      className="space-y-3 rounded-lg bg-white p-3 dark:bg-slate-800"
    >
      <TextField
        label="Title"
        required
        value={title}
        error={titleError}
        onChange={(e) => {
          setTitle(e.target.value);
          setTitleError('');
        }}
      />
      <TextAreaField
        label="Description"
        value={description}
        className="min-h-20"
        onChange={(e) => setDescription(e.target.value)}
      />
      <div className="space-y-1.5">
        <label htmlFor={priorityId} className="block text-sm font-medium text-slate-800 dark:text-slate-200">
          Priority
        </label>
        <select
          id={priorityId}
          value={priority}
          onChange={(e) => setPriority(e.target.value as TaskPriority)}
          className={cn(inputClasses)}
        >
          {TASK_PRIORITIES.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      </div>
      {error && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      )}
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={create.isPending}>
          Add Task
        </Button>
        <Button variant="secondary" size="sm" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
