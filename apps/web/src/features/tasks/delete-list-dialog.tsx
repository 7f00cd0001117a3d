import type { TaskList } from '@cohort/shared/tasks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { ApiError } from '../../lib/api.ts';
import { toast } from '../../lib/toast.ts';
import { taskKeys, taskListApi } from './tasks.queries.ts';

export function DeleteListDialog({
  list,
  taskCount,
  onClose,
}: {
  list: TaskList;
  taskCount: number;
  onClose: () => void;
}) {
  const [force, setForce] = useState(false);
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (withTasks: boolean) => taskListApi.remove(list._id, withTasks),
    onSuccess: () => {
      queryClient.setQueryData(taskKeys.lists(), (old: TaskList[] | undefined) =>
        old?.filter((l) => l._id !== list._id),
      );
      return queryClient.invalidateQueries({ queryKey: taskKeys.all });
    },
  });

  function send(withTasks: boolean) {
    remove.mutate(withTasks, {
      onSuccess: () => {
        toast.success(`List "${list.name}" deleted`);
        onClose();
      },
      onError: (err) => {
        if (err instanceof ApiError && err.status === 409) setForce(true);
        else toast.error(`Failed to delete the list: ${err.message}`);
      },
    });
  }

  return (
    <Dialog
      role="alertdialog"
      onClose={onClose}
      title={`Delete list "${list.name}"?`}
      description={
        force
          ? `This list still has ${taskCount === 1 ? '1 task' : taskCount > 1 ? `${taskCount} tasks` : 'tasks'}. Deleting the list deletes its tasks too.`
          : 'This cannot be undone.'
      }
    >
      <div className="flex justify-end gap-2">
        <Button variant="secondary" size="sm" onClick={onClose}>
          Cancel
        </Button>
        {force ? (
          <Button size="sm" disabled={remove.isPending} onClick={() => send(true)}>
            Delete list and tasks
          </Button>
        ) : (
          <Button
            size="sm"
            disabled={remove.isPending}
            onClick={() => (taskCount > 0 ? setForce(true) : send(false))}
          >
            Delete
          </Button>
        )}
      </div>
    </Dialog>
  );
}
