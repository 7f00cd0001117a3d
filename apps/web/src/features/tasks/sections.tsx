import type { Task, TaskNotification } from '@cohort/shared/tasks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowDown, ArrowUp, BookOpen, HelpCircle, LifeBuoy } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button.tsx';
import { inputClasses } from '../../components/ui/field.tsx';
import { cn } from '../../lib/cn.ts';
import {
  archivedTasksQuery,
  assignedTasksQuery,
  formatDeadline,
  notificationsQuery,
  personName,
  taskApi,
  taskKeys,
  taskListsQuery,
  useMarkNotificationsRead,
} from './tasks.queries.ts';

const sectionHeading = 'text-xl font-bold tracking-tight text-slate-900 dark:text-slate-100';

type Column = 'title' | 'status' | 'priority' | 'deadline' | 'assigned';
const COLUMNS: Array<{ id: Column; label: string }> = [
  { id: 'title', label: 'Task Name' },
  { id: 'status', label: 'Status' },
  { id: 'priority', label: 'Priority' },
  { id: 'deadline', label: 'Due Date' },
  { id: 'assigned', label: 'Assigned To' },
];
const PRIORITY_RANK = { Low: 0, Medium: 1, High: 2 } as const;

interface Row {
  task: Task;
  status: string;
  assigned: string;
}

const assignedText = (task: Task) =>
  task.assignedTo.map((p) => `${p.firstName} ${p.lastName}`.trim() || p.email).join(', ') || 'Unassigned';

function compareRows(a: Row, b: Row, column: Column) {
  switch (column) {
    case 'title':
      return a.task.title.localeCompare(b.task.title);
    case 'status':
      return a.status.localeCompare(b.status);
    case 'priority':
      return PRIORITY_RANK[a.task.priority] - PRIORITY_RANK[b.task.priority];
    case 'deadline':
      // Tasks without a due date go last.
      return (a.task.dates.deadline ?? '9999').localeCompare(b.task.dates.deadline ?? '9999');
    case 'assigned':
      return a.assigned.localeCompare(b.assigned);
  }
}

/** Table: the user's real tasks, one row each, sortable by any column. */
export function TableSection({ search, onOpenTask }: { search: string; onOpenTask: (id: string) => void }) {
  const lists = useQuery(taskListsQuery);
  const [sort, setSort] = useState<{ column: Column; ascending: boolean }>({
    column: 'title',
    ascending: true,
  });
  const needle = search.trim().toLowerCase();

  const rows = useMemo(() => {
    const all: Row[] = (lists.data ?? []).flatMap((list) =>
      list.tasks.map((task) => ({ task, status: list.name, assigned: assignedText(task) })),
    );
    const filtered = all.filter((r) => !needle || r.task.title.toLowerCase().includes(needle));
    filtered.sort((a, b) => compareRows(a, b, sort.column) * (sort.ascending ? 1 : -1));
    return filtered;
  }, [lists.data, needle, sort]);

  return (
    <section aria-labelledby="table-heading">
      <h2 id="table-heading" className={sectionHeading}>
        Table
      </h2>
      {lists.isPending ? (
        <p role="status" className="mt-4 text-slate-600">
          Loading tasks...
        </p>
      ) : lists.isError ? (
        <p role="alert" className="mt-4 text-red-700">
          Failed to fetch tasks
        </p>
      ) : (
        <div className="mt-4 overflow-x-auto rounded-lg border border-slate-200 bg-white dark:border-slate-700 dark:bg-slate-800">
          <table className="w-full text-left text-sm">
            <thead className="bg-slate-50 text-slate-700 dark:bg-slate-900 dark:text-slate-200">
              <tr>
                {COLUMNS.map(({ id, label }) => {
                  const active = sort.column === id;
                  return (
                    <th
                      key={id}
                      scope="col"
                      aria-sort={active ? (sort.ascending ? 'ascending' : 'descending') : 'none'}
                      className="px-3 py-2"
                    >
                      <button
                        type="button"
                        className="inline-flex items-center gap-1 font-semibold"
                        onClick={() =>
                          setSort((s) => ({ column: id, ascending: s.column === id ? !s.ascending : true }))
                        }
                      >
                        {label}
                        {active &&
                          (sort.ascending ? (
                            <ArrowUp aria-hidden="true" className="size-3.5" />
                          ) : (
                            <ArrowDown aria-hidden="true" className="size-3.5" />
                          ))}
                      </button>
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 ? (
                <tr>
                  <td colSpan={5} className="px-3 py-4 text-slate-600">
                    No tasks available
                  </td>
                </tr>
              ) : (
                rows.map(({ task, status, assigned }) => (
                  <tr key={task._id} className="border-t border-slate-200 dark:border-slate-700">
                    <td className="px-3 py-2">
                      <button
                        type="button"
                        className="font-medium text-indigo-700 hover:underline dark:text-indigo-300"
                        onClick={() => onOpenTask(task._id)}
                      >
                        {task.title}
                      </button>
                    </td>
                    <td className="px-3 py-2">{status}</td>
                    <td className="px-3 py-2">{task.priority}</td>
                    <td className="px-3 py-2">{formatDeadline(task.dates.deadline) || '—'}</td>
                    <td className="px-3 py-2">{assigned}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function notificationText(n: TaskNotification) {
  const actor = n.actor ? personName(n.actor) : 'Someone';
  switch (n.kind) {
    case 'assigned':
      return `${actor} assigned you "${n.task.title}"`;
    case 'comment':
      return `${actor} commented on "${n.task.title}"`;
    case 'due':
      return `"${n.task.title}" is due within 24 hours`;
  }
}

/** Notifications from the server (refreshed by the /tasks push), newest first, unread ones marked. */
export function NotificationsSection({ onOpenTask }: { onOpenTask: (id: string) => void }) {
  const notifications = useQuery({ ...notificationsQuery, refetchOnMount: 'always' });
  const markRead = useMarkNotificationsRead();
  const items = notifications.data ?? [];
  const unread = items.filter((n) => !n.read).length;
  const onError = (err: Error) => toast.error(`Failed to mark as read: ${err.message}`);

  return (
    <section aria-labelledby="notifications-heading">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="notifications-heading" className={sectionHeading}>
          Notifications
        </h2>
        {unread > 0 && (
          <Button
            variant="secondary"
            size="sm"
            disabled={markRead.isPending}
            onClick={() => markRead.mutate(null, { onError })}
          >
            Mark all as read
          </Button>
        )}
      </div>
      {notifications.isPending ? (
        <p role="status" className="mt-4 text-slate-600 dark:text-slate-300">
          Loading notifications...
        </p>
      ) : notifications.isError ? (
        <p role="alert" className="mt-4 text-red-700">
          Failed to fetch notifications
        </p>
      ) : items.length === 0 ? (
        <p className="mt-4 text-slate-600 dark:text-slate-300">No notifications</p>
      ) : (
        <ul className="mt-4 space-y-2" aria-label="Notifications">
          {items.map((n) => (
            <li
              key={n._id}
              data-unread={!n.read || undefined}
              className={cn(
                'flex flex-wrap items-center justify-between gap-2 rounded-lg border p-3 text-sm',
                n.read
                  ? 'border-slate-200 bg-white text-slate-600 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-300'
                  : 'border-l-4 border-indigo-500 bg-indigo-50 font-semibold text-slate-900 dark:bg-indigo-950 dark:text-slate-100',
              )}
            >
              <div className="min-w-0">
                {!n.read && <span className="sr-only">Unread: </span>}
                <button
                  type="button"
                  className="text-left hover:underline"
                  onClick={() => onOpenTask(n.task._id)}
                >
                  {notificationText(n)}
                </button>
                <time
                  dateTime={n.createdAt}
                  className="ml-2 text-xs font-normal text-slate-500 dark:text-slate-400"
                >
                  {new Date(n.createdAt).toLocaleString()}
                </time>
              </div>
              {!n.read && (
                <Button
                  variant="ghost"
                  size="sm"
                  disabled={markRead.isPending}
                  onClick={() => markRead.mutate(n._id, { onError })}
                >
                  Mark as read
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

const HELP_CARDS = [
  { title: 'Documentation', text: 'Guides for boards, lists and task cards.', Icon: BookOpen },
  { title: 'FAQs', text: 'Answers to the questions people ask most.', Icon: HelpCircle },
  { title: 'Contact Support', text: 'Write to us and we will get back to you.', Icon: LifeBuoy },
];

export function HelpSection() {
  const [query, setQuery] = useState('');
  const fieldId = useId();
  const needle = query.trim().toLowerCase();
  const cards = HELP_CARDS.filter(
    (c) => !needle || c.title.toLowerCase().includes(needle) || c.text.toLowerCase().includes(needle),
  );
  return (
    <section aria-labelledby="help-heading">
      <h2 id="help-heading" className={sectionHeading}>
        Help
      </h2>
      <label htmlFor={fieldId} className="sr-only">
        Search help
      </label>
      <input
        id={fieldId}
        type="search"
        placeholder="Search help..."
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        className={`${inputClasses} mt-4 max-w-md`}
      />
      <ul className="mt-4 grid gap-4 sm:grid-cols-3">
        {cards.map(({ title, text, Icon }) => (
          <li
            key={title}
            className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-800"
          >
            <Icon aria-hidden="true" className="size-6 text-indigo-600" />
            <h3 className="mt-2 font-semibold">{title}</h3>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
              {title === 'Contact Support' ? (
                <Link to="/contact" className="text-indigo-700 hover:underline dark:text-indigo-300">
                  {text}
                </Link>
              ) : (
                text
              )}
            </p>
          </li>
        ))}
        {cards.length === 0 && <li className="text-slate-600">No help topics match your search</li>}
      </ul>
    </section>
  );
}

export type Theme = 'light' | 'dark';

export function SettingsSection({
  theme,
  onThemeChange,
}: {
  theme: Theme;
  onThemeChange: (t: Theme) => void;
}) {
  return (
    <section aria-labelledby="settings-heading" className="space-y-4">
      <h2 id="settings-heading" className={sectionHeading}>
        Settings
      </h2>
      <div className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-800">
        <h3 className="font-semibold">Profile Information</h3>
        <Link
          to="/profile"
          className="mt-1 inline-block text-sm text-indigo-700 hover:underline dark:text-indigo-300"
        >
          View and edit your profile
        </Link>
      </div>
      <fieldset className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-800">
        <legend className="px-1 font-semibold">Theme</legend>
        <div className="flex gap-4">
          {(['light', 'dark'] as const).map((t) => (
            <label key={t} className="inline-flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="taskboard-theme"
                value={t}
                checked={theme === t}
                onChange={() => onThemeChange(t)}
                className="accent-indigo-600"
              />
              {t === 'light' ? 'Light' : 'Dark'}
            </label>
          ))}
        </div>
      </fieldset>
    </section>
  );
}

/** Tasks other people assigned to the caller (GET /api/tasks/assigned). */
export function AssignedSection({
  search,
  onOpenTask,
}: {
  search: string;
  onOpenTask: (id: string) => void;
}) {
  const assigned = useQuery({ ...assignedTasksQuery, refetchOnMount: 'always' });
  const needle = search.trim().toLowerCase();
  const tasks = (assigned.data ?? []).filter((t) => !needle || t.title.toLowerCase().includes(needle));
  return (
    <section aria-labelledby="assigned-heading">
      <h2 id="assigned-heading" className={sectionHeading}>
        Assigned to me
      </h2>
      {assigned.isPending ? (
        <p role="status" className="mt-4 text-slate-600 dark:text-slate-300">
          Loading tasks...
        </p>
      ) : assigned.isError ? (
        <p role="alert" className="mt-4 text-red-700">
          Failed to fetch tasks
        </p>
      ) : tasks.length === 0 ? (
        <p className="mt-4 text-slate-600 dark:text-slate-300">No tasks are assigned to you</p>
      ) : (
        <ul className="mt-4 space-y-2">
          {tasks.map((task) => (
            <li
              key={task._id}
              className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-slate-200 bg-white p-3 text-sm dark:border-slate-700 dark:bg-slate-800"
            >
              <button
                type="button"
                className="font-medium text-indigo-700 hover:underline dark:text-indigo-300"
                onClick={() => onOpenTask(task._id)}
              >
                {task.title}
              </button>
              <span className="text-slate-600 dark:text-slate-300">
                {task.priority}
                {task.dates.deadline ? ` · Due ${formatDeadline(task.dates.deadline)}` : ''} · from{' '}
                {task.createdBy}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Archived tasks, each with Restore. */
export function ArchivedSection() {
  const archived = useQuery({ ...archivedTasksQuery, refetchOnMount: 'always' });
  const queryClient = useQueryClient();
  const restore = useMutation({
    mutationFn: (id: string) => taskApi.restore(id),
    onSuccess: () => {
      toast.success('Task restored');
      return queryClient.invalidateQueries({ queryKey: taskKeys.all });
    },
    onError: (err) => toast.error(`Failed to restore task: ${err.message}`),
  });
  return (
    <section aria-labelledby="archived-heading">
      <h2 id="archived-heading" className={sectionHeading}>
        Archived
      </h2>
      {archived.isPending ? (
        <p role="status" className="mt-4 text-slate-600">
          Loading tasks...
        </p>
      ) : archived.isError ? (
        <p role="alert" className="mt-4 text-red-700">
          Failed to fetch tasks
        </p>
      ) : archived.data.length === 0 ? (
        <p className="mt-4 text-slate-600">No archived tasks</p>
      ) : (
        <ul className="mt-4 space-y-2">
          {archived.data.map((task) => (
            <li
              key={task._id}
              className="flex items-center justify-between gap-3 rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-700 dark:bg-slate-800"
            >
              <span className="font-medium break-words">{task.title}</span>
              <Button
                variant="secondary"
                size="sm"
                aria-label={`Restore ${task.title}`}
                disabled={restore.isPending}
                onClick={() => restore.mutate(task._id)}
              >
                Restore
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
