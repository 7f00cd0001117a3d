import type { Task, TaskDetail, TaskList } from '@cohort/shared/tasks';
import { useQuery } from '@tanstack/react-query';
import {
  Archive,
  CalendarDays,
  CheckSquare,
  Copy,
  History,
  MoveRight,
  Share2,
  Tag,
  Trash2,
  Users,
  X,
} from 'lucide-react';
import {
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { inputClasses } from '../../components/ui/field.tsx';
import { ApiError } from '../../lib/api.ts';
import { cn } from '../../lib/cn.ts';
import { useMe } from '../accounts/use-me.ts';
import {
  checklistProgress,
  colleaguesQuery,
  deadlineInputValue,
  formatDeadline,
  personName,
  taskApi,
  taskQuery,
  taskSummary,
  useTaskMutation,
} from './tasks.queries.ts';

const priorityClasses: Record<Task['priority'], string> = {
  Low: 'bg-emerald-100 text-emerald-800',
  Medium: 'bg-amber-100 text-amber-900',
  High: 'bg-red-100 text-red-800',
};

function errorText(err: unknown) {
  return err instanceof Error ? err.message : String(err);
}

export function PriorityBadge({ priority }: { priority: Task['priority'] }) {
  return (
    <span className={cn('rounded px-1.5 py-0.5 text-xs font-semibold', priorityClasses[priority])}>
      {priority}
    </span>
  );
}

/** The collapsed card on a board: a button that expands it. */
export function TaskCardSummary({ task, onOpen }: { task: Task; onOpen: () => void }) {
  const { done, total } = checklistProgress(task.checklist);
  return (
    <button
      type="button"
      onClick={onOpen}
      aria-label={task.title}
      className="block w-full rounded-lg border border-slate-200 bg-white p-3 text-left shadow-sm hover:border-indigo-400 focus-visible:outline-2 focus-visible:outline-indigo-600 dark:border-slate-600 dark:bg-slate-800"
    >
      <span className="block font-medium break-words text-slate-900 dark:text-slate-100">{task.title}</span>
      <span className="mt-2 flex flex-wrap items-center gap-1.5 text-xs text-slate-600 dark:text-slate-300">
        <PriorityBadge priority={task.priority} />
        {task.labels.map((label) => (
          <span key={label} className="rounded bg-indigo-100 px-1.5 py-0.5 text-indigo-800">
            {label}
          </span>
        ))}
        {total > 0 && (
          <span className="inline-flex items-center gap-0.5" title="Checklist">
            <CheckSquare aria-hidden="true" className="size-3.5" />
            {done}/{total}
          </span>
        )}
        {task.dates.deadline && (
          <span className="inline-flex items-center gap-0.5" title="Due date">
            <CalendarDays aria-hidden="true" className="size-3.5" />
            {formatDeadline(task.dates.deadline)}
          </span>
        )}
      </span>
    </button>
  );
}

type Panel = 'labels' | 'checklist' | 'dates' | 'move' | 'assignees';
const PANELS: Array<{ id: Panel; label: string; Icon: typeof Tag }> = [
  { id: 'labels', label: 'Labels', Icon: Tag },
  { id: 'checklist', label: 'Checklist', Icon: CheckSquare },
  { id: 'dates', label: 'Dates', Icon: CalendarDays },
  { id: 'move', label: 'Move', Icon: MoveRight },
  { id: 'assignees', label: 'Assignees', Icon: Users },
];

interface TaskCardModalProps {
  taskId: string;
  lists: TaskList[];
  onClose: () => void;
  /** Called once the task has loaded (the Recent list remembers it). */
  onLoaded?: (task: { id: string; title: string }) => void;
  /** The dialog sits outside the board (a portal), so it is told the board's theme. */
  theme?: 'light' | 'dark';
}

/** The expanded card (SPEC §2, §4): loads the task, and every change is written at once. */
export function TaskCardModal({ taskId, lists, onClose, onLoaded, theme = 'light' }: TaskCardModalProps) {
  const query = useQuery(taskQuery(taskId));
  const task = query.data;
  // Remember the task once it has loaded (and again if its title changes), not on every change.
  const onLoadedRef = useRef(onLoaded);
  onLoadedRef.current = onLoaded;
  const loadedId = task?._id;
  const loadedTitle = task?.title;
  useEffect(() => {
    if (loadedId && loadedTitle !== undefined) onLoadedRef.current?.({ id: loadedId, title: loadedTitle });
  }, [loadedId, loadedTitle]);

  let body: ReactNode;
  if (query.isPending) {
    body = <p role="status">Loading task...</p>;
  } else if (query.isError) {
    body = (
      <p role="alert" className="text-red-700">
        Failed to fetch task: {errorText(query.error)}
      </p>
    );
  } else {
    body = <TaskCardBody task={query.data} lists={lists} onClose={onClose} />;
  }

  return (
    <Dialog
      onClose={onClose}
      title={task?.title ?? 'Task'}
      className={cn('md:max-w-3xl', theme === 'dark' && 'dark')}
    >
      {body}
    </Dialog>
  );
}

function TaskCardBody({
  task,
  lists,
  onClose,
}: {
  task: TaskDetail;
  lists: TaskList[];
  onClose: () => void;
}) {
  const [panel, setPanel] = useState<Panel | null>(null);
  const listName = lists.find((l) => l._id === task.taskListId)?.name;
  const id = task._id;

  const archive = useTaskMutation(id, () => taskApi.archive(id));

  async function copy(text: string, message: string) {
    try {
      await navigator.clipboard.writeText(text);
      toast.success(message);
    } catch {
      toast.error('Could not copy to the clipboard');
    }
  }

  return (
    <div className="grid gap-6 md:grid-cols-[1fr_13rem]">
      <div className="min-w-0 space-y-6">
        <p className="flex flex-wrap items-center gap-2 text-sm text-slate-600 dark:text-slate-400">
          {task.assignedTo.length > 0 && (
            <span className="inline-flex items-center gap-1">
              <Users aria-hidden="true" className="size-4" />
              {task.assignedTo.map(personName).join(', ')}
            </span>
          )}
          {listName && (
            <span>
              in list <strong className="text-slate-900 dark:text-slate-100">{listName}</strong>
            </span>
          )}
          <PriorityBadge priority={task.priority} />
          {task.dates.deadline && (
            <span className="inline-flex items-center gap-1">
              <CalendarDays aria-hidden="true" className="size-4" />
              Due {formatDeadline(task.dates.deadline)}
            </span>
          )}
        </p>
        <LabelChips task={task} />
        <DescriptionEditor task={task} />
        <ChecklistView task={task} />
        <Comments task={task} />
        <ActivityLog task={task} lists={lists} />
      </div>

      <div className="space-y-4">
        <div className="flex flex-col gap-2">
          {PANELS.map(({ id: panelId, label, Icon }) => (
            <Button
              key={panelId}
              variant={panel === panelId ? 'primary' : 'secondary'}
              size="sm"
              className="justify-start"
              aria-expanded={panel === panelId}
              aria-controls={`task-panel-${panelId}`}
              onClick={() => setPanel((open) => (open === panelId ? null : panelId))}
            >
              <Icon aria-hidden="true" className="size-4" />
              {label}
            </Button>
          ))}
          <Button
            variant="secondary"
            size="sm"
            className="justify-start"
            onClick={() => copy(taskSummary(task, listName), 'Task copied to clipboard!')}
          >
            <Copy aria-hidden="true" className="size-4" />
            Copy
          </Button>
          <Button
            variant="secondary"
            size="sm"
            className="justify-start"
            onClick={() =>
              copy(
                `${window.location.origin}/tasks/${encodeURIComponent(id)}`,
                'Task link copied to clipboard!',
              )
            }
          >
            <Share2 aria-hidden="true" className="size-4" />
            Share
          </Button>
          <Button
            variant="secondary"
            size="sm"
            className="justify-start"
            disabled={archive.isPending}
            onClick={() =>
              archive.mutate(undefined, {
                onSuccess: () => {
                  toast.success('Task archived');
                  onClose();
                },
                onError: (err) => toast.error(`Failed to archive task: ${errorText(err)}`),
              })
            }
          >
            <Archive aria-hidden="true" className="size-4" />
            Archive
          </Button>
        </div>
        {panel && (
          <section
            id={`task-panel-${panel}`}
            aria-label={`${PANELS.find((p) => p.id === panel)?.label} panel`}
            className="rounded-lg border border-slate-200 bg-slate-50 p-3 dark:border-slate-700 dark:bg-slate-800"
          >
            {panel === 'labels' && <LabelsPanel task={task} />}
            {panel === 'checklist' && <ChecklistPanel task={task} />}
            {panel === 'dates' && <DatesPanel task={task} />}
            {panel === 'move' && <MovePanel task={task} lists={lists} onMoved={onClose} />}
            {panel === 'assignees' && <AssigneesPanel task={task} />}
          </section>
        )}
      </div>
    </div>
  );
}

function LabelChips({ task }: { task: TaskDetail }) {
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

function DescriptionEditor({ task }: { task: TaskDetail }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(task.description);
  const save = useTaskMutation(task._id, (description: string) =>
    taskApi.updateDescription(task._id, description),
  );
  const fieldId = useId();

  return (
    <section aria-label="Description">
      <div className="flex items-center justify-between">
        <h3 className="text-sm font-semibold text-slate-900 dark:text-slate-100">Description</h3>
        {!editing && (
          <Button
            variant="ghost"
            size="sm"
            onClick={() => {
              setDraft(task.description);
              setEditing(true);
            }}
          >
            Edit description
          </Button>
        )}
      </div>
      {editing ? (
        <form
          className="mt-2 space-y-2"
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate(draft, {
              onSuccess: () => setEditing(false),
              onError: (err) => toast.error(`Failed to update description: ${errorText(err)}`),
            });
          }}
        >
          <label htmlFor={fieldId} className="sr-only">
            Description
          </label>
          <textarea
            id={fieldId}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            className={cn(inputClasses, 'min-h-28')}
          />
          <div className="flex gap-2">
            <Button type="submit" size="sm" disabled={save.isPending}>
              Save
            </Button>
            <Button
              variant="secondary"
              size="sm"
              onClick={() => {
                setDraft(task.description);
                setEditing(false);
              }}
            >
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <p className="mt-2 text-sm whitespace-pre-wrap text-slate-700 dark:text-slate-300">
          {task.description || <span className="text-slate-500">No description yet.</span>}
        </p>
      )}
    </section>
  );
}

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

/** One text input whose Enter (or Add) sends its trimmed value; blank sends nothing. */
function AddTextForm({
  label,
  button,
  onAdd,
  pending,
}: {
  label: string;
  button: string;
  onAdd: (text: string, clear: () => void) => void;
  pending: boolean;
}) {
  const [text, setText] = useState('');
  const fieldId = useId();
  function submit(event: FormEvent) {
    event.preventDefault();
    const value = text.trim();
    if (!value) return;
    onAdd(value, () => setText(''));
  }
  return (
    <form onSubmit={submit} className="space-y-2">
      <label htmlFor={fieldId} className="block text-sm font-medium text-slate-800 dark:text-slate-200">
        {label}
      </label>
      <input
        id={fieldId}
        value={text}
        onChange={(e) => setText(e.target.value)}
        className={inputClasses}
        autoComplete="off"
      />
      <Button type="submit" size="sm" disabled={pending}>
        {button}
      </Button>
    </form>
  );
}

function LabelsPanel({ task }: { task: TaskDetail }) {
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

function ChecklistPanel({ task }: { task: TaskDetail }) {
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

function DatesPanel({ task }: { task: TaskDetail }) {
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

function MovePanel({ task, lists, onMoved }: { task: TaskDetail; lists: TaskList[]; onMoved: () => void }) {
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

function Comments({ task }: { task: TaskDetail }) {
  const add = useTaskMutation(task._id, (text: string) => taskApi.addComment(task._id, text));
  const [text, setText] = useState('');
  const fieldId = useId();
  function send() {
    const value = text.trim();
    if (!value) return;
    add.mutate(value, {
      onSuccess: () => setText(''),
      onError: (err) => toast.error(`Failed to add comment: ${errorText(err)}`),
    });
  }
  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      send();
    }
  }
  return (
    <section aria-label="Comments">
      <h3 className="text-sm font-semibold text-slate-900 dark:text-slate-100">Comments</h3>
      <form
        className="mt-2 flex items-start gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          send();
        }}
      >
        <label htmlFor={fieldId} className="sr-only">
          Write a comment
        </label>
        <textarea
          id={fieldId}
          rows={1}
          placeholder="Write a comment..."
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          className={inputClasses}
        />
        <Button type="submit" size="sm" className="mt-1" disabled={add.isPending}>
          Send
        </Button>
      </form>
      <ul className="mt-3 space-y-3">
        {[...task.comments].reverse().map((comment) => (
          <li key={comment._id} className="rounded-lg bg-slate-50 p-2 text-sm dark:bg-slate-800">
            <p className="text-xs text-slate-600 dark:text-slate-400">
              <strong className="text-slate-900 dark:text-slate-100">
                {`${comment.user.firstName} ${comment.user.lastName}`.trim() || comment.user.email}
              </strong>{' '}
              <time dateTime={comment.time}>{new Date(comment.time).toLocaleString()}</time>
            </p>
            <p className="mt-1 whitespace-pre-wrap break-words text-slate-800 dark:text-slate-200">
              {comment.text}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}

function AssigneesPanel({ task }: { task: TaskDetail }) {
  const me = useMe();
  const isOwner = !!me.data && me.data.email === task.createdBy;
  const colleagues = useQuery({ ...colleaguesQuery(me.data?._id), enabled: isOwner });
  const save = useTaskMutation(task._id, (userIds: string[]) => taskApi.setAssignees(task._id, userIds));
  const assigned = new Set(task.assignedTo.map((a) => a._id));

  function toggle(userId: string, on: boolean) {
    const next = new Set(assigned);
    if (on) next.add(userId);
    else next.delete(userId);
    save.mutate([...next], {
      onError: (err) => toast.error(`Failed to update assignees: ${errorText(err)}`),
    });
  }

  if (!isOwner) {
    return (
      <div>
        <h3 className="text-sm font-semibold text-slate-900 dark:text-slate-100">Assignees</h3>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          {task.assignedTo.length ? task.assignedTo.map(personName).join(', ') : 'Nobody yet'}
        </p>
        <p className="mt-1 text-xs text-slate-500">Only the task owner can change assignees.</p>
      </div>
    );
  }
  // Current assignees stay listed even if they no longer share a workspace (so they can be removed).
  const people = [
    ...(colleagues.data ?? []),
    ...task.assignedTo.filter((a) => !(colleagues.data ?? []).some((c) => c._id === a._id)),
  ];
  return (
    <fieldset>
      <legend className="text-sm font-semibold text-slate-900 dark:text-slate-100">Assign to</legend>
      {colleagues.isPending ? (
        <p role="status" className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          Loading people...
        </p>
      ) : colleagues.isError ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          Failed to fetch people
        </p>
      ) : people.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          Nobody shares a workspace with you yet
        </p>
      ) : (
        <ul className="mt-2 space-y-1">
          {people.map((person) => (
            <li key={person._id} className="flex items-center gap-2 text-sm">
              <input
                id={`assignee-${person._id}`}
                type="checkbox"
                className="size-4 accent-indigo-600"
                checked={assigned.has(person._id)}
                disabled={save.isPending}
                onChange={(e) => toggle(person._id, e.target.checked)}
              />
              <label htmlFor={`assignee-${person._id}`} className="min-w-0 flex-1 break-words">
                {personName(person)}
              </label>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}

const fieldNames = (detail: Record<string, unknown>) =>
  Array.isArray(detail.fields) ? detail.fields.filter((f) => typeof f === 'string').join(', ') : '';
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** One activity entry in words ("added label urgent"). */
export function describeActivity(item: TaskDetail['activity'][number], lists: TaskList[]) {
  const d = item.detail;
  const listName = (id: unknown) => lists.find((l) => l._id === id)?.name ?? 'another list';
  switch (item.action) {
    case 'created':
      return 'created the task';
    case 'updated':
      return fieldNames(d) ? `updated the ${fieldNames(d)}` : 'updated the task';
    case 'moved':
      return `moved the task to ${listName(d.to)}`;
    case 'reordered':
      return 'reordered the task';
    case 'deadline':
      return d.deadline ? `set the due date to ${formatDeadline(str(d.deadline))}` : 'removed the due date';
    case 'commented':
      return 'commented';
    case 'checklist.added':
      return `added checklist item ${str(d.title)}`.trim();
    case 'checklist.updated':
      return `updated checklist item ${str(d.title)}`.trim();
    case 'checklist.removed':
      return `removed checklist item ${str(d.title)}`.trim();
    case 'label.added':
      return `added label ${str(d.label)}`;
    case 'label.removed':
      return `removed label ${str(d.label)}`;
    case 'archived':
      return 'archived the task';
    case 'restored':
      return 'restored the task';
    case 'assigned':
      return 'changed the assignees';
    default:
      return item.action;
  }
}

function ActivityLog({ task, lists }: { task: TaskDetail; lists: TaskList[] }) {
  if (task.activity.length === 0) return null;
  return (
    <section aria-label="Activity">
      <h3 className="flex items-center gap-1.5 text-sm font-semibold text-slate-900 dark:text-slate-100">
        <History aria-hidden="true" className="size-4" />
        Activity
      </h3>
      <ol className="mt-2 space-y-1.5 text-sm">
        {[...task.activity].reverse().map((item) => (
          <li key={item._id} className="text-slate-700 dark:text-slate-300">
            <strong className="text-slate-900 dark:text-slate-100">
              {item.user ? personName(item.user) : 'Someone'}
            </strong>{' '}
            {describeActivity(item, lists)}{' '}
            <time dateTime={item.time} className="text-xs text-slate-500 dark:text-slate-400">
              {new Date(item.time).toLocaleString()}
            </time>
          </li>
        ))}
      </ol>
    </section>
  );
}
