import type { TaskNotification } from '@cohort/shared/tasks';
import { useQuery } from '@tanstack/react-query';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../lib/cn.ts';
import { toast } from '../../lib/toast.ts';
import { sectionHeading } from './section-heading.ts';
import { matchesSearch } from './task-search.ts';
import { notificationsQuery, personName, useMarkNotificationsRead } from './tasks.queries.ts';

function notificationText(n: TaskNotification) {
  const actor = n.actor ? personName(n.actor) : 'Someone';
  switch (n.kind) {
    case 'assigned':
      return `${actor} assigned you "${n.task.title}"`;
    case 'comment':
      return `${actor} commented on "${n.task.title}"`;
    case 'due':
      return `"${n.task.title}" is due within 24 hours`;
    case 'mention':
      return `${actor} mentioned you in "${n.task.title}"`;
  }
}

/**
 * Notifications from the server (refreshed by the /tasks push), newest first, unread ones marked;
 * the taskboard's search keeps those about matching tasks ("Mark all as read" still marks all).
 */
export function NotificationsSection({
  search = '',
  onOpenTask,
  listIds,
}: {
  search?: string;
  onOpenTask: (id: string) => void;
  /** One board's scope: only notifications about tasks in these lists (all boards when absent). */
  listIds?: ReadonlySet<string> | undefined;
}) {
  const notifications = useQuery({ ...notificationsQuery, refetchOnMount: 'always' });
  const markRead = useMarkNotificationsRead();
  const all = notifications.data ?? [];
  const unread = all.filter((n) => !n.read).length;
  const items = all.filter(
    (n) => matchesSearch(n.task.title, search) && (!listIds || listIds.has(n.task.taskListId)),
  );
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
        <p className="mt-4 text-slate-600 dark:text-slate-300">
          {all.length === 0 ? 'No notifications' : 'No notifications match your search'}
        </p>
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
