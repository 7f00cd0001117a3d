import {
  DEFAULT_TASK_PRIORITY,
  TASK_MESSAGES,
  TASK_PRIORITIES,
  type TaskList,
  type TaskPriority,
} from '@cohort/shared/tasks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { GripVertical, Loader2, Pencil, Plus, Trash2 } from 'lucide-react';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { inputClasses, TextAreaField, TextField } from '../../components/ui/field.tsx';
import { ApiError } from '../../lib/api.ts';
import { cn } from '../../lib/cn.ts';
import { TaskCardSummary } from './task-card.tsx';
import {
  taskKeys,
  taskListApi,
  taskListsQuery,
  tasksOfListQuery,
  useCreateTask,
  useCreateTaskList,
} from './tasks.queries.ts';
import { type BoardDnd, type DragItem, useBoardDnd } from './use-board-dnd.ts';

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
    <div className="flex items-start gap-4 overflow-x-auto pb-4">
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

/** "Add another list": an inline form; a blank name is refused without a request. */
export function AddListForm() {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState('');
  const create = useCreateTaskList();
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

/** One list: its name, its tasks as cards, and the Add Task form. */
export function TaskListView({
  list,
  search,
  onOpenTask,
  dnd,
}: {
  list: TaskList;
  search: string;
  onOpenTask: (taskId: string) => void;
  /** Drag and drop; absent while a search filters the board. */
  dnd?: BoardDnd;
}) {
  const tasks = useQuery(tasksOfListQuery(list._id));
  const [adding, setAdding] = useState(false);
  const needle = search.trim().toLowerCase();
  const shown = (tasks.data ?? []).filter((t) => !needle || t.title.toLowerCase().includes(needle));

  let content: ReactNode;
  if (tasks.isPending) content = <p className="text-sm text-slate-600">Loading tasks...</p>;
  else if (tasks.isError)
    content = (
      <p role="alert" className="text-sm text-red-700">
        Failed to fetch tasks
      </p>
    );
  else if (shown.length === 0) content = <p className="text-sm text-slate-600">No tasks available</p>;
  else
    content = (
      <ul className="space-y-2">
        {shown.map((task) => {
          const item: DragItem = { kind: 'task', id: task._id, title: task.title };
          return (
            <li
              key={task._id}
              draggable={!!dnd}
              onDragStart={dnd && ((e) => dnd.onDragStart(e, item))}
              onDragEnd={dnd?.onDragEnd}
              onDragOver={dnd && ((e) => dnd.onDragOver(e, 'task'))}
              onDrop={dnd && ((e) => dnd.onDropOnTask(e, list._id, task._id))}
              data-task-id={task._id}
              className={cn(
                'flex items-stretch gap-1 rounded-lg',
                dnd?.grabbed?.id === task._id && 'ring-2 ring-indigo-500 ring-offset-2',
              )}
            >
              {dnd && <DragHandle item={item} dnd={dnd} />}
              <div className="min-w-0 flex-1">
                <TaskCardSummary task={task} onOpen={() => onOpenTask(task._id)} />
              </div>
            </li>
          );
        })}
      </ul>
    );

  return (
    <section
      aria-label={list.name}
      data-list-id={list._id}
      onDragOver={dnd && ((e) => dnd.onDragOver(e, 'list'))}
      onDrop={dnd && ((e) => dnd.onDropOnList(e, list._id))}
      className={cn(
        'w-72 shrink-0 rounded-xl border border-slate-200 bg-slate-100 p-3 dark:border-slate-700 dark:bg-slate-900',
        dnd?.grabbed?.id === list._id && 'ring-2 ring-indigo-500 ring-offset-2',
      )}
    >
      <ListHeader
        list={list}
        taskCount={tasks.data?.length ?? list.tasks.length}
        handle={
          dnd && <DragHandle item={{ kind: 'list', id: list._id, title: list.name }} dnd={dnd} draggable />
        }
      />
      {content}
      <div className="mt-3">
        {adding ? (
          <AddTaskForm taskListId={list._id} onDone={() => setAdding(false)} />
        ) : (
          <Button variant="ghost" size="sm" className="w-full justify-start" onClick={() => setAdding(true)}>
            <Plus aria-hidden="true" className="size-4" />
            Add Task
          </Button>
        )}
      </div>
    </section>
  );
}

function AddTaskForm({ taskListId, onDone }: { taskListId: string; onDone: () => void }) {
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

/** The list's name with Rename (inline) and Delete (confirmed; a non-empty list is confirmed twice). */
export function ListHeader({
  list,
  taskCount,
  handle,
}: {
  list: TaskList;
  taskCount: number;
  handle?: ReactNode;
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

function DeleteListDialog({
  list,
  taskCount,
  onClose,
}: {
  list: TaskList;
  taskCount: number;
  onClose: () => void;
}) {
  const [force, setForce] = useState(false);
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (withTasks: boolean) => taskListApi.remove(list._id, withTasks),
    onSuccess: () => {
      queryClient.setQueryData(taskKeys.lists(), (old: TaskList[] | undefined) =>
        old?.filter((l) => l._id !== list._id),
      );
      return queryClient.invalidateQueries({ queryKey: taskKeys.all });
    },
  });

  function send(withTasks: boolean) {
    remove.mutate(withTasks, {
      onSuccess: () => {
        toast.success(`List "${list.name}" deleted`);
        onClose();
      },
      onError: (err) => {
        if (err instanceof ApiError && err.status === 409) setForce(true);
        else toast.error(`Failed to delete the list: ${err.message}`);
      },
    });
  }

  return (
    <Dialog
      role="alertdialog"
      onClose={onClose}
      title={`Delete list "${list.name}"?`}
      description={
        force
          ? `This list still has ${taskCount === 1 ? '1 task' : taskCount > 1 ? `${taskCount} tasks` : 'tasks'}. Deleting the list deletes its tasks too.`
          : 'This cannot be undone.'
      }
    >
      <div className="flex justify-end gap-2">
        <Button variant="secondary" size="sm" onClick={onClose}>
          Cancel
        </Button>
        {force ? (
          <Button size="sm" disabled={remove.isPending} onClick={() => send(true)}>
            Delete list and tasks
          </Button>
        ) : (
          <Button
            size="sm"
            disabled={remove.isPending}
            onClick={() => (taskCount > 0 ? setForce(true) : send(false))}
          >
            Delete
          </Button>
        )}
      </div>
    </Dialog>
  );
}

/**
 * "Move <title>": Space or Enter picks the item up, the arrow keys move it, Space or Enter drops it
 * and Escape cancels. A list's handle is also what the mouse drags (a card drags as a whole).
 */
function DragHandle({ item, dnd, draggable }: { item: DragItem; dnd: BoardDnd; draggable?: boolean }) {
  const grabbed = dnd.grabbed?.id === item.id;
  return (
    <button
      type="button"
      aria-label={`Move ${item.title}`}
      aria-pressed={grabbed}
      aria-describedby="board-dnd-help"
      data-drag-handle={item.id}
      draggable={draggable}
      onDragStart={draggable ? (e) => dnd.onDragStart(e, item) : undefined}
      onDragEnd={draggable ? dnd.onDragEnd : undefined}
      onKeyDown={(e) => dnd.onHandleKeyDown(e, item)}
      className={cn(
        'shrink-0 cursor-grab rounded px-0.5 text-slate-400 hover:bg-slate-200 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-indigo-600 dark:hover:bg-slate-800 dark:hover:text-slate-200',
        grabbed && 'bg-indigo-100 text-indigo-700 dark:bg-indigo-900 dark:text-indigo-200',
      )}
    >
      <GripVertical aria-hidden="true" className="size-4" />
    </button>
  );
}
