import type { BoardDetail } from '@cohort/shared/boards';
import type { Task, TaskList } from '@cohort/shared/tasks';
import { useQueryClient } from '@tanstack/react-query';
import { type DragEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { toast } from '../../lib/toast.ts';
import { boardKeys } from './boards.queries.ts';
import { taskApi, taskKeys, taskListApi } from './tasks.queries.ts';

/** What is being moved: a card or a whole list. */
export interface DragItem {
  kind: 'task' | 'list';
  id: string;
  title: string;
}

interface Snapshot {
  lists: TaskList[] | undefined;
}

const clamp = (n: number, min: number, max: number) => Math.max(min, Math.min(max, n));
const PICK_KEYS = new Set([' ', 'Enter', 'Spacebar']);

/**
 * Drag and drop on the board, by mouse (native HTML5) or keyboard (a handle button: Space/Enter
 * picks up, arrows move, Space/Enter drops, Escape cancels). Moves are shown at once in the query
 * cache (the board's GET /api/boards/{id}) and written on drop; a failed write puts everything back.
 */
export function useBoardDnd(boardId: string) {
  const queryClient = useQueryClient();
  const [grabbed, setGrabbed] = useState<DragItem | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const snapshot = useRef<Snapshot | null>(null);
  const mouseDrag = useRef<DragItem | null>(null);
  const [focusRequest, setFocusRequest] = useState<{ id: string } | null>(null);

  // Keep the keyboard focus on the moved item's handle, even when its list re-renders it elsewhere.
  useEffect(() => {
    if (!focusRequest) return;
    const focus = () => {
      const handle = document.querySelector<HTMLElement>(
        `[data-drag-handle="${CSS.escape(focusRequest.id)}"]`,
      );
      if (handle && document.activeElement !== handle) handle.focus();
    };
    focus();
    const timers = [setTimeout(focus, 0), setTimeout(focus, 50)];
    return () => {
      for (const t of timers) clearTimeout(t);
    };
  }, [focusRequest]);

  const key = boardKeys.detail(boardId);
  const lists = () => queryClient.getQueryData<BoardDetail>(key)?.lists ?? [];
  const setLists = (next: TaskList[]) =>
    queryClient.setQueryData<BoardDetail>(key, (old) => (old ? { ...old, lists: next } : old));
  const tasksOf = (listId: string) => lists().find((l) => l._id === listId)?.tasks ?? [];
  const setTasks = (listId: string, tasks: Task[]) =>
    setLists(lists().map((l) => (l._id === listId ? { ...l, tasks } : l)));

  function locate(taskId: string, getLists: () => TaskList[], getTasks: (listId: string) => Task[]) {
    for (const list of getLists()) {
      const tasks = getTasks(list._id);
      const index = tasks.findIndex((t) => t._id === taskId);
      if (index >= 0) return { list, tasks, index, task: tasks[index] as Task };
    }
    return null;
  }

  function takeSnapshot() {
    void queryClient.cancelQueries({ queryKey: key });
    snapshot.current = { lists: queryClient.getQueryData<BoardDetail>(key)?.lists };
  }

  function restore() {
    const s = snapshot.current;
    snapshot.current = null;
    if (s?.lists) setLists(s.lists);
  }

  /** Puts the task at `index` of `toListId` (in the cache only); answers where it ended up. */
  function placeTask(taskId: string, toListId: string, index: number) {
    const from = locate(taskId, lists, tasksOf);
    const target = lists().find((l) => l._id === toListId);
    if (!from || !target) return null;
    const rest = from.tasks.filter((t) => t._id !== taskId);
    setTasks(from.list._id, rest);
    const into = toListId === from.list._id ? rest : tasksOf(toListId).filter((t) => t._id !== taskId);
    const at = clamp(index, 0, into.length);
    const next = [...into.slice(0, at), { ...from.task, taskListId: toListId }, ...into.slice(at)];
    setTasks(toListId, next);
    return { list: target, index: at, count: next.length };
  }

  function placeList(listId: string, index: number) {
    const all = lists();
    const from = all.findIndex((l) => l._id === listId);
    const list = all[from];
    if (!list) return null;
    const rest = all.filter((l) => l._id !== listId);
    const at = clamp(index, 0, rest.length);
    setLists([...rest.slice(0, at), list, ...rest.slice(at)]);
    return { index: at, count: all.length };
  }

  /** Writes the move (if any) the cache now shows; on failure the board goes back. */
  async function commit(item: DragItem) {
    const s = snapshot.current;
    if (!s) return;
    try {
      if (item.kind === 'task') {
        const before = locate(
          item.id,
          () => s.lists ?? [],
          (id) => s.lists?.find((l) => l._id === id)?.tasks ?? [],
        );
        const after = locate(item.id, lists, tasksOf);
        if (!before || !after) return;
        if (before.list._id === after.list._id) {
          if (before.index !== after.index) await taskApi.reorder(item.id, after.index);
        } else {
          await taskApi.move(item.id, after.list._id, after.index);
        }
      } else {
        const before = (s.lists ?? []).findIndex((l) => l._id === item.id);
        const after = lists().findIndex((l) => l._id === item.id);
        if (after >= 0 && before !== after) await taskListApi.reorder(item.id, after);
      }
      snapshot.current = null;
    } catch (err) {
      restore();
      const message = err instanceof Error ? err.message : String(err);
      toast.error(`Failed to move ${item.title}: ${message}`);
      setAnnouncement(`Could not move ${item.title}; it is back where it was.`);
    } finally {
      snapshot.current = null;
      void queryClient.invalidateQueries({ queryKey: taskKeys.all });
    }
  }

  function describe(item: DragItem, verb: string) {
    if (item.kind === 'list') {
      const all = lists();
      const index = all.findIndex((l) => l._id === item.id);
      return `${verb} list ${item.title} to position ${index + 1} of ${all.length}`;
    }
    const where = locate(item.id, lists, tasksOf);
    if (!where) return `${verb} ${item.title}`;
    return `${verb} ${item.title} to ${where.list.name}, position ${where.index + 1} of ${where.tasks.length}`;
  }

  function moveByKey(item: DragItem, key: string) {
    if (item.kind === 'list') {
      const index = lists().findIndex((l) => l._id === item.id);
      const step = key === 'ArrowLeft' || key === 'ArrowUp' ? -1 : 1;
      placeList(item.id, index + step);
    } else {
      const where = locate(item.id, lists, tasksOf);
      if (!where) return;
      if (key === 'ArrowUp' || key === 'ArrowDown') {
        placeTask(item.id, where.list._id, where.index + (key === 'ArrowUp' ? -1 : 1));
      } else {
        const all = lists();
        const at = all.findIndex((l) => l._id === where.list._id);
        const neighbour = all[at + (key === 'ArrowLeft' ? -1 : 1)];
        if (!neighbour) return;
        placeTask(item.id, neighbour._id, where.index);
      }
    }
    setAnnouncement(`${describe(item, 'Moved')}.`);
    setFocusRequest({ id: item.id });
  }

  function onHandleKeyDown(event: KeyboardEvent<HTMLElement>, item: DragItem) {
    const { key } = event;
    if (!grabbed) {
      if (!PICK_KEYS.has(key)) return;
      event.preventDefault();
      takeSnapshot();
      setGrabbed(item);
      setAnnouncement(
        `Picked up ${item.title}. Use the arrow keys to move it, Space or Enter to drop it, Escape to cancel.`,
      );
      return;
    }
    if (grabbed.id !== item.id) return;
    if (PICK_KEYS.has(key)) {
      event.preventDefault();
      setGrabbed(null);
      setAnnouncement(`${describe(item, 'Dropped')}.`.replace(' to ', ' in '));
      setFocusRequest({ id: item.id });
      void commit(item);
    } else if (key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      restore();
      setGrabbed(null);
      setAnnouncement(`Move cancelled. ${item.title} is back where it was.`);
      setFocusRequest({ id: item.id });
    } else if (key.startsWith('Arrow')) {
      event.preventDefault();
      moveByKey(item, key);
    }
  }

  // -- Mouse (native HTML5 drag and drop) ---------------------------------------------------------

  function onDragStart(event: DragEvent<HTMLElement>, item: DragItem) {
    event.stopPropagation();
    if (grabbed) return;
    mouseDrag.current = item;
    takeSnapshot();
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData('text/plain', item.id);
  }

  function onDragEnd() {
    if (mouseDrag.current) {
      // Dropped nowhere: nothing changed.
      mouseDrag.current = null;
      snapshot.current = null;
    }
  }

  /** Cards accept cards; lists accept cards (at their end) and lists. */
  function onDragOver(event: DragEvent<HTMLElement>, target: 'task' | 'list') {
    const dragged = mouseDrag.current;
    if (!dragged || (target === 'task' && dragged.kind !== 'task')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
  }

  function finishMouseDrop(item: DragItem) {
    mouseDrag.current = null;
    setAnnouncement(`${describe(item, 'Moved')}.`);
    void commit(item);
  }

  /** A card dropped on a card goes before it (upper half) or after it (lower half). */
  function onDropOnTask(event: DragEvent<HTMLElement>, listId: string, targetTaskId: string) {
    const dragged = mouseDrag.current;
    if (dragged?.kind !== 'task') return;
    event.preventDefault();
    event.stopPropagation();
    if (dragged.id !== targetTaskId) {
      const rect = event.currentTarget.getBoundingClientRect();
      const after = event.clientY > rect.top + rect.height / 2;
      const rest = tasksOf(listId).filter((t) => t._id !== dragged.id);
      const index = rest.findIndex((t) => t._id === targetTaskId) + (after ? 1 : 0);
      placeTask(dragged.id, listId, index);
    }
    finishMouseDrop(dragged);
  }

  /** A card dropped on a list (not on a card) goes to its end; a list takes this list's place. */
  function onDropOnList(event: DragEvent<HTMLElement>, listId: string) {
    const dragged = mouseDrag.current;
    if (!dragged) return;
    event.preventDefault();
    if (dragged.kind === 'task') {
      const where = locate(dragged.id, lists, tasksOf);
      if (where?.list._id !== listId) placeTask(dragged.id, listId, tasksOf(listId).length);
    } else if (dragged.id !== listId) {
      placeList(
        dragged.id,
        lists().findIndex((l) => l._id === listId),
      );
    }
    finishMouseDrop(dragged);
  }

  return {
    grabbed,
    announcement,
    onHandleKeyDown,
    onDragStart,
    onDragEnd,
    onDragOver,
    onDropOnTask,
    onDropOnList,
  };
}

export type BoardDnd = ReturnType<typeof useBoardDnd>;
