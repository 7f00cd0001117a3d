import type { TaskList } from '@cohort/shared/tasks';
import { Plus } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../lib/cn.ts';
import { AddTaskForm } from './add-task-form.tsx';
import { DragHandle } from './drag-handle.tsx';
import { ListHeader } from './list-header.tsx';
import { TaskCardSummary } from './task-card-summary.tsx';
import type { BoardDnd, DragItem } from './use-board-dnd.ts';

/** One list: its name, its tasks as cards, and the Add Task form. */
export function TaskListView({
  list,
  search,
  onOpenTask,
  dnd,
  canEdit = true,
}: {
  /** The list with its tasks, as the board's GET /api/boards/{id} has them. */
  list: TaskList;
  search: string;
  onOpenTask: (taskId: string) => void;
  /** Drag and drop; absent while a search filters the board or for viewers. */
  dnd?: BoardDnd | undefined;
  /** Viewers get no add, rename, delete or move controls. */
  canEdit?: boolean;
}) {
  const [adding, setAdding] = useState(false);
  const needle = search.trim().toLowerCase();
  const shown = list.tasks.filter((t) => !needle || t.title.toLowerCase().includes(needle));

  let content: ReactNode;
  if (shown.length === 0) content = <p className="text-sm text-slate-600">No tasks available</p>;
  else
    content = (
      <ul className="space-y-2">
        {shown.map((task) => {
          const item: DragItem = { kind: 'task', id: task._id, title: task.title };
          return (
            <li
              key={task._id}
              draggable={!!dnd}
              onDragStart={dnd && ((e) => dnd.onDragStart(e, item))}
              onDragEnd={dnd?.onDragEnd}
              onDragOver={dnd && ((e) => dnd.onDragOver(e, 'task'))}
              onDrop={dnd && ((e) => dnd.onDropOnTask(e, list._id, task._id))}
              data-task-id={task._id}
              className={cn(
                'flex items-stretch gap-1 rounded-lg',
                dnd?.grabbed?.id === task._id && 'ring-2 ring-indigo-500 ring-offset-2',
              )}
            >
              {dnd && <DragHandle item={item} dnd={dnd} />}
              <div className="min-w-0 flex-1">
                <TaskCardSummary task={task} onOpen={() => onOpenTask(task._id)} />
              </div>
            </li>
          );
        })}
      </ul>
    );

  return (
    <section
      aria-label={list.name}
      data-list-id={list._id}
      onDragOver={dnd && ((e) => dnd.onDragOver(e, 'list'))}
      onDrop={dnd && ((e) => dnd.onDropOnList(e, list._id))}
      className={cn(
        'w-72 shrink-0 rounded-xl border border-slate-200 bg-slate-100 p-3 dark:border-slate-700 dark:bg-slate-900',
        dnd?.grabbed?.id === list._id && 'ring-2 ring-indigo-500 ring-offset-2',
      )}
    >
      <ListHeader
        list={list}
        taskCount={list.tasks.length}
        canEdit={canEdit}
        handle={
          dnd && <DragHandle item={{ kind: 'list', id: list._id, title: list.name }} dnd={dnd} draggable />
        }
      />
      {content}
      {canEdit && (
        <div className="mt-3">
          {adding ? (
            <AddTaskForm taskListId={list._id} onDone={() => setAdding(false)} />
          ) : (
            <Button
              variant="ghost"
              size="sm"
              className="w-full justify-start"
              onClick={() => setAdding(true)}
            >
              <Plus aria-hidden="true" className="size-4" />
              Add Task
            </Button>
          )}
        </div>
      )}
    </section>
  );
}
