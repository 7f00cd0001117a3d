import { useQuery } from '@tanstack/react-query';
import { ListTodo } from 'lucide-react';
import { Link } from 'react-router';
import { taskPreviewQuery } from './boards.queries.ts';
import { PriorityBadge } from './task-card-summary.tsx';

const TASK_LINK =
  /(?:https?:\/\/([^\s/]+))?\/tasks\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/gi;
const PREVIEWS_MAX = 3;

/** The task ids a message links to (relative links, or absolute ones to this app), first three. */
export function taskLinkIds(text: string, host = typeof window === 'undefined' ? '' : window.location.host) {
  const ids: string[] = [];
  for (const match of text.matchAll(TASK_LINK)) {
    const [, linkHost, id] = match;
    if (linkHost && linkHost !== host) continue;
    const lower = (id as string).toLowerCase();
    if (!ids.includes(lower)) ids.push(lower);
  }
  return ids.slice(0, PREVIEWS_MAX);
}

/** One linked task, for those who can see it (nothing while loading or when it is not visible). */
function TaskPreviewCard({ taskId }: { taskId: string }) {
  const preview = useQuery(taskPreviewQuery(taskId));
  if (!preview.data) return null;
  const task = preview.data;
  return (
    <Link
      to={`/tasks/${encodeURIComponent(task._id)}`}
      aria-label={`Task ${task.title}`}
      className="mt-1 flex max-w-sm items-start gap-2 rounded-lg border border-slate-200 bg-white p-2 text-sm shadow-sm hover:border-indigo-400"
    >
      <ListTodo aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-indigo-600" />
      <span className="min-w-0">
        <span className="block font-semibold break-words text-slate-900">
          {task.title}
          {task.archived && <span className="ml-1 font-normal text-slate-500">(archived)</span>}
        </span>
        <span className="mt-0.5 flex flex-wrap items-center gap-1.5 text-xs text-slate-600">
          <span>
            {task.board.title} · {task.listTitle}
          </span>
          <PriorityBadge priority={task.priority} />
        </span>
      </span>
    </Link>
  );
}

/** Preview cards under a chat message for the task links in its text. */
export function TaskLinkPreviews({ text }: { text: string }) {
  const ids = taskLinkIds(text);
  if (ids.length === 0) return null;
  return (
    <div className="px-1">
      {ids.map((id) => (
        <TaskPreviewCard key={id} taskId={id} />
      ))}
    </div>
  );
}
