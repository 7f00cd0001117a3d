import type { BoardChangedEvent, BoardDetail } from '@cohort/shared/boards';
import type { Task, TaskList } from '@cohort/shared/tasks';

/**
 * Applies one `boardChanged` to a board's cached detail. `stale`: already applied (rev not newer).
 * `refetch`: a change is missing (rev gap) or the event names a card this copy does not have; the
 * caller refetches GET /api/boards/{id} instead of guessing.
 */
export function applyBoardChanged(
  board: BoardDetail,
  event: BoardChangedEvent,
): BoardDetail | 'stale' | 'refetch' {
  if (event.rev <= board.rev) return 'stale';
  if (event.rev !== board.rev + 1) return 'refetch';
  let lists = board.lists;
  let title = board.title;
  if (event.board) title = event.board.title;

  if (event.taskListId !== undefined) {
    const list = event.list;
    if (list === null) lists = lists.filter((l) => l._id !== event.taskListId);
    else if (list) {
      const known = lists.some((l) => l._id === list._id);
      lists = known
        ? lists.map((l) =>
            l._id === list._id ? { ...l, name: list.title, title: list.title, position: list.position } : l,
          )
        : [...lists, newList(board, list)];
      lists = [...lists].sort((a, b) => a.position - b.position);
    }
  }

  const taskId = event.taskId ?? event.task?._id;
  if (taskId !== undefined) {
    const task = event.task;
    if (!task || task.archived || task.boardId !== board._id) lists = withoutTask(lists, taskId);
    else {
      const result = placeTask(lists, task);
      if (!result) return 'refetch';
      lists = result;
    }
  }

  if (event.order) {
    const byId = new Map<string, Task>();
    for (const list of lists) for (const t of list.tasks) byId.set(t._id, t);
    for (const entry of event.order) {
      if (!lists.some((l) => l._id === entry.taskListId)) return 'refetch';
      const tasks: Task[] = [];
      for (const [index, id] of entry.taskIds.entries()) {
        const t = byId.get(id);
        if (!t) return 'refetch';
        tasks.push({ ...t, taskListId: entry.taskListId, position: index });
      }
      lists = lists.map((l) => (l._id === entry.taskListId ? { ...l, tasks } : l));
    }
    // A card the order put somewhere else is not also left where it was.
    const placed = new Map(event.order.map((o) => [o.taskListId, new Set(o.taskIds)]));
    lists = lists.map((l) =>
      placed.has(l._id)
        ? l
        : { ...l, tasks: l.tasks.filter((t) => ![...placed.values()].some((ids) => ids.has(t._id))) },
    );
  }
  return { ...board, title, rev: event.rev, lists };
}

function newList(board: BoardDetail, list: { _id: string; title: string; position: number }): TaskList {
  return {
    _id: list._id,
    name: list.title,
    title: list.title,
    createdBy: '',
    boardId: board._id,
    position: list.position,
    cards: [],
    tasks: [],
  };
}

function withoutTask(lists: TaskList[], taskId: string) {
  return lists.map((l) =>
    l.tasks.some((t) => t._id === taskId) ? { ...l, tasks: l.tasks.filter((t) => t._id !== taskId) } : l,
  );
}

/** The card's new front: in place when it stays in its list, else into its list by position. */
function placeTask(lists: TaskList[], task: Task): TaskList[] | null {
  if (!lists.some((l) => l._id === task.taskListId)) return null;
  return lists.map((l) => {
    const index = l.tasks.findIndex((t) => t._id === task._id);
    if (l._id !== task.taskListId)
      return index < 0 ? l : { ...l, tasks: l.tasks.filter((t) => t._id !== task._id) };
    if (index >= 0) return { ...l, tasks: l.tasks.map((t) => (t._id === task._id ? task : t)) };
    const at = l.tasks.findIndex((t) => t.position > task.position);
    const tasks = [...l.tasks];
    tasks.splice(at < 0 ? tasks.length : at, 0, task);
    return { ...l, tasks };
  });
}
