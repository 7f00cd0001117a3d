import type { BoardMember } from '@cohort/shared/boards';
import type { TaskDetail } from '@cohort/shared/tasks';
import { useQuery } from '@tanstack/react-query';
import { toast } from '../../lib/toast.ts';
import { useMe } from '../accounts/accounts.public.ts';
import { errorText } from './task-error-text.ts';
import { colleaguesQuery, personName, taskApi, useTaskMutation } from './tasks.queries.ts';

/**
 * A card's members: on a board, editors choose among the board's members (BoardDetail.members);
 * without the board (still loading, or unknown) the task owner chooses among their colleagues.
 */
export function AssigneesPanel({
  task,
  members,
  canEdit,
}: {
  task: TaskDetail;
  members?: BoardMember[] | undefined;
  canEdit?: boolean | undefined;
}) {
  const me = useMe();
  const isOwner = members ? !!canEdit : !!me.data && me.data.email === task.createdBy;
  const colleagues = useQuery({ ...colleaguesQuery(me.data?._id), enabled: isOwner && !members });
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
        <p className="mt-1 text-xs text-slate-500">
          {members ? 'Viewers cannot change the members.' : 'Only the task owner can change assignees.'}
        </p>
      </div>
    );
  }
  // Current assignees stay listed even if they no longer share a workspace (so they can be removed).
  const pool = members ?? colleagues.data ?? [];
  const people = [...pool, ...task.assignedTo.filter((a) => !pool.some((c) => c._id === a._id))];
  return (
    <fieldset>
      <legend className="text-sm font-semibold text-slate-900 dark:text-slate-100">Assign to</legend>
      {!members && colleagues.isPending ? (
        <p role="status" className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          Loading people...
        </p>
      ) : !members && colleagues.isError ? (
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
