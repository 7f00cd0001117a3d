import type { TaskPreview } from '@cohort/shared/boards';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ListTodo } from 'lucide-react';
import { Link } from 'react-router';
import { api } from '../../lib/api.ts';

/** GET /api/tasks/preview/{id} (404 for a task the reader cannot see: no card then). */
const taskPreviewQuery = (taskId: string) =>
  queryOptions({
    queryKey: ['task-preview', taskId] as const,
    queryFn: ({ signal }) => api.get<TaskPreview>(`/api/tasks/preview/${encodeURIComponent(taskId)}`, signal),
    retry: false,
    staleTime: 60_000,
  });

/** One linked task, for those who can see it (nothing while loading or when it is not visible). */
export default function TaskPreviewCard({ taskId }: { taskId: string }) {
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
          <span className="rounded bg-slate-100 px-1.5 py-0.5 font-semibold">{task.priority}</span>
        </span>
      </span>
    </Link>
  );
}
