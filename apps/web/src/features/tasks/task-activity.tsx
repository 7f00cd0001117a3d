import type { TaskDetail, TaskList } from '@cohort/shared/tasks';
import { History } from 'lucide-react';
import { formatDeadline, personName } from './tasks.queries.ts';

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
    case 'attachment.added':
      return `attached ${str(d.name)}`.trim();
    case 'attachment.removed':
      return `removed attachment ${str(d.name)}`.trim();
    default:
      return item.action;
  }
}

export function ActivityLog({ task, lists }: { task: TaskDetail; lists: TaskList[] }) {
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
