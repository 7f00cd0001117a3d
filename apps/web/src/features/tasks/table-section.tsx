import { displayName } from '@cohort/shared/names';
import type { Task } from '@cohort/shared/tasks';
import { useQueries } from '@tanstack/react-query';
import { ArrowDown, ArrowUp } from 'lucide-react';
import { useMemo, useState } from 'react';
import { boardQuery } from './boards.queries.ts';
import { sectionHeading } from './section-heading.ts';
import { formatDeadline } from './tasks.queries.ts';

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

const assignedText = (task: Task) => task.assignedTo.map((p) => displayName(p)).join(', ') || 'Unassigned';

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

/** Table: the tasks of one board (or the union of all my boards' lists), sortable by any column. */
export function TableSection({
  boardIds,
  search,
  onOpenTask,
}: {
  boardIds: string[];
  search: string;
  onOpenTask: (id: string) => void;
}) {
  const lists = useQueries({
    queries: boardIds.map((id) => boardQuery(id)),
    combine: (results) => ({
      isPending: results.some((r) => r.isPending),
      isError: results.length > 0 && results.every((r) => r.isError),
      data: results.flatMap((r) => r.data?.lists ?? []),
    }),
  });
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
        <div className="relative mt-4 overflow-x-auto rounded-lg border border-slate-200 bg-white dark:border-slate-700 dark:bg-slate-800">
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
