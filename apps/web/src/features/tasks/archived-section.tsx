import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../lib/toast.ts';
import { sectionHeading } from './section-heading.ts';
import { matchesSearch } from './task-search.ts';
import { archivedTasksQuery, taskApi, taskKeys } from './tasks.queries.ts';

/** Archived tasks, each with Restore; the taskboard's search filters them by title. */
export function ArchivedSection({ search = '' }: { search?: string }) {
  const archived = useQuery({ ...archivedTasksQuery, refetchOnMount: 'always' });
  const shown = (archived.data ?? []).filter((task) => matchesSearch(task.title, search));
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
      ) : shown.length === 0 ? (
        <p className="mt-4 text-slate-600">
          {archived.data.length === 0 ? 'No archived tasks' : 'No archived tasks match your search'}
        </p>
      ) : (
        <ul className="mt-4 space-y-2">
          {shown.map((task) => (
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
