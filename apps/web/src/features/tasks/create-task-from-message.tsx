import { boardRoleCan } from '@cohort/shared/boards';
import { TASK_TITLE_MAX_LENGTH } from '@cohort/shared/tasks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { inputClasses } from '../../components/ui/field.tsx';
import { toast } from '../../lib/toast.ts';
import { boardApi, boardQuery, boardsQuery } from './boards.queries.ts';
import { errorText } from './task-error-text.ts';
import { taskKeys } from './tasks.queries.ts';

/** A task title from a message: its first line (mentions as @Name), cut to the title's maximum. */
export function titleFromMessage(content: string) {
  const text = content.replace(/@\[([^\]\n]+)\]\([^)\s]+\)/g, '@$1');
  const firstLine = text.trim().split('\n')[0]?.trim() ?? '';
  return firstLine.length > TASK_TITLE_MAX_LENGTH
    ? `${firstLine.slice(0, TASK_TITLE_MAX_LENGTH - 1)}…`
    : firstLine;
}

/**
 * "Create task from message": pick a board (the workspace's first by default) and a list (its
 * first), adjust the title; the task links back to the message (`source`).
 */
export function CreateTaskFromMessageDialog({
  workspaceName,
  channelId,
  message,
  onClose,
}: {
  workspaceName: string;
  channelId: string;
  message: { _id: string; content: string };
  onClose: () => void;
}) {
  const boards = useQuery(boardsQuery);
  const editable = (boards.data ?? []).filter((b) => boardRoleCan(b.role, 'edit'));
  const [boardId, setBoardId] = useState<string | null>(null);
  const chosenBoard =
    boardId ?? (editable.find((b) => b.workspace?.name === workspaceName) ?? editable[0])?._id ?? '';
  const board = useQuery({ ...boardQuery(chosenBoard), enabled: !!chosenBoard });
  const [listId, setListId] = useState<string | null>(null);
  const chosenList = listId ?? board.data?.lists[0]?._id ?? '';
  const [title, setTitle] = useState(() => titleFromMessage(message.content));
  const [pending, setPending] = useState(false);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const ids = { board: useId(), list: useId(), title: useId() };

  async function create() {
    if (!title.trim() || !chosenList) return;
    setPending(true);
    try {
      const task = await boardApi.createTask({
        title: title.trim(),
        description: message.content,
        priority: 'Medium',
        taskListId: chosenList,
        source: { workspaceName, channelId, messageId: message._id },
      });
      void queryClient.invalidateQueries({ queryKey: taskKeys.all });
      onClose();
      toast.success(`Task created: ${task.title}`, {
        action: { label: 'Open task', onClick: () => navigate(`/tasks/${encodeURIComponent(task._id)}`) },
      });
    } catch (err) {
      toast.error(`Failed to create the task: ${errorText(err)}`);
    } finally {
      setPending(false);
    }
  }

  return (
    <Dialog onClose={onClose} title="Create task from message" className="max-w-md">
      <form
        className="mt-3 space-y-3"
        onSubmit={(event) => {
          event.preventDefault();
          void create();
        }}
      >
        <div>
          <label htmlFor={ids.board} className="text-sm font-medium">
            Board
          </label>
          <select
            id={ids.board}
            value={chosenBoard}
            onChange={(e) => {
              setBoardId(e.target.value);
              setListId(null);
            }}
            className={inputClasses}
          >
            {editable.map((b) => (
              <option key={b._id} value={b._id}>
                {b.workspace ? `${b.workspace.name} / ${b.title}` : 'Personal board'}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={ids.list} className="text-sm font-medium">
            List
          </label>
          <select
            id={ids.list}
            value={chosenList}
            onChange={(e) => setListId(e.target.value)}
            className={inputClasses}
          >
            {(board.data?.lists ?? []).map((l) => (
              <option key={l._id} value={l._id}>
                {l.name}
              </option>
            ))}
          </select>
          {board.data && board.data.lists.length === 0 && (
            <p className="mt-1 text-sm text-slate-600">
              This board has no list yet: add one on the board first.
            </p>
          )}
        </div>
        <div>
          <label htmlFor={ids.title} className="text-sm font-medium">
            Title
          </label>
          <input
            id={ids.title}
            value={title}
            maxLength={TASK_TITLE_MAX_LENGTH}
            onChange={(e) => setTitle(e.target.value)}
            className={inputClasses}
          />
        </div>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending || !title.trim() || !chosenList}>
            Create task
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
