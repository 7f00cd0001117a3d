import type { Task } from '@cohort/shared/tasks';
import { CalendarDays, CheckSquare, Paperclip } from 'lucide-react';
import { cn } from '../../lib/cn.ts';
import { MemberAvatars } from './member-avatars.tsx';
import { checklistProgress, formatDeadline } from './tasks.queries.ts';

const priorityClasses: Record<Task['priority'], string> = {
  Low: 'bg-emerald-100 text-emerald-800',
  Medium: 'bg-amber-100 text-amber-900',
  High: 'bg-red-100 text-red-800',
};

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
  const cover = task.attachments.find((a) => a.thumbnailUrl || a.type.startsWith('image/'));
  return (
    <button
      type="button"
      onClick={onOpen}
      aria-label={task.title}
      className="block w-full rounded-lg border border-slate-200 bg-white p-3 text-left shadow-sm hover:border-indigo-400 focus-visible:outline-2 focus-visible:outline-indigo-600 dark:border-slate-600 dark:bg-slate-800"
    >
      {cover && (
        <img
          src={cover.thumbnailUrl ?? cover.url}
          alt=""
          loading="lazy"
          className="mb-2 max-h-32 w-full rounded object-cover"
        />
      )}
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
        {task.attachments.length > 0 && (
          <span className="inline-flex items-center gap-0.5" title="Attachments">
            <Paperclip aria-hidden="true" className="size-3.5" />
            {task.attachments.length}
            <span className="sr-only"> {task.attachments.length === 1 ? 'attachment' : 'attachments'}</span>
          </span>
        )}
        <span className="ml-auto">
          <MemberAvatars people={task.assignedTo} />
        </span>
      </span>
    </button>
  );
}
