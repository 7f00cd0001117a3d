import { GripVertical } from 'lucide-react';
import { cn } from '../../lib/cn.ts';
import type { BoardDnd, DragItem } from './use-board-dnd.ts';

/**
 * "Move <title>": Space or Enter picks the item up, the arrow keys move it, Space or Enter drops it
 * and Escape cancels. A list's handle is also what the mouse drags (a card drags as a whole).
 */
export function DragHandle({ item, dnd, draggable }: { item: DragItem; dnd: BoardDnd; draggable?: boolean }) {
  const grabbed = dnd.grabbed?.id === item.id;
  return (
    <button
      type="button"
      aria-label={`Move ${item.title}`}
      aria-pressed={grabbed}
      aria-describedby="board-dnd-help"
      data-drag-handle={item.id}
      draggable={draggable}
      onDragStart={draggable ? (e) => dnd.onDragStart(e, item) : undefined}
      onDragEnd={draggable ? dnd.onDragEnd : undefined}
      onKeyDown={(e) => dnd.onHandleKeyDown(e, item)}
      className={cn(
        'shrink-0 cursor-grab rounded px-0.5 text-slate-400 hover:bg-slate-200 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-indigo-600 dark:hover:bg-slate-800 dark:hover:text-slate-200',
        grabbed && 'bg-indigo-100 text-indigo-700 dark:bg-indigo-900 dark:text-indigo-200',
      )}
    >
      <GripVertical aria-hidden="true" className="size-4" />
    </button>
  );
}
