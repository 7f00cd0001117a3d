import { useQuery } from '@tanstack/react-query';
import { sectionHeading } from './section-heading.ts';
import { assignedTasksQuery, formatDeadline } from './tasks.queries.ts';

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
