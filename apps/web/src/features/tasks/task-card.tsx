import type { TaskDetail, TaskList } from '@cohort/shared/tasks';
import { useQuery } from '@tanstack/react-query';
import {
  Archive,
  CalendarDays,
  CheckSquare,
  Copy,
  MessageSquareQuote,
  MoveRight,
  Share2,
  Tag,
  Users,
} from 'lucide-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { cn } from '../../lib/cn.ts';
import { toast } from '../../lib/toast.ts';
import { useBoardAccess } from './board-access.ts';
import { MemberAvatars } from './member-avatars.tsx';
import { ActivityLog } from './task-activity.tsx';
import { AssigneesPanel } from './task-assignees-panel.tsx';
import { TaskAttachments } from './task-attachments.tsx';
import { PriorityBadge } from './task-card-summary.tsx';
import { ChecklistPanel, ChecklistView } from './task-checklist.tsx';
import { Comments } from './task-comments.tsx';
import { DatesPanel } from './task-dates-panel.tsx';
import { DescriptionEditor } from './task-description-editor.tsx';
import { errorText } from './task-error-text.ts';
import { LabelChips, LabelsPanel } from './task-labels.tsx';
import { MovePanel } from './task-move-panel.tsx';
import {
  formatDeadline,
  personName,
  taskApi,
  taskQuery,
  taskSummary,
  useTaskMutation,
} from './tasks.queries.ts';

type Panel = 'labels' | 'checklist' | 'dates' | 'move' | 'assignees';

const PANELS: Array<{ id: Panel; label: string; Icon: typeof Tag }> = [
  { id: 'labels', label: 'Labels', Icon: Tag },
  { id: 'checklist', label: 'Checklist', Icon: CheckSquare },
  { id: 'dates', label: 'Dates', Icon: CalendarDays },
  { id: 'move', label: 'Move', Icon: MoveRight },
  { id: 'assignees', label: 'Assignees', Icon: Users },
];

interface TaskCardModalProps {
  taskId: string;
  lists: TaskList[];
  onClose: () => void;
  /** Called once the task has loaded (the Recent list remembers it). */
  onLoaded?: (task: { id: string; title: string }) => void;
  /** The dialog sits outside the board (a portal), so it is told the board's theme. */
  theme?: 'light' | 'dark';
}

/** The expanded card (SPEC §2, §4): loads the task, and every change is written at once. */
export function TaskCardModal({ taskId, lists, onClose, onLoaded, theme = 'light' }: TaskCardModalProps) {
  const query = useQuery(taskQuery(taskId));
  const task = query.data;
  // Remember the task once it has loaded (and again if its title changes), not on every change.
  const onLoadedRef = useRef(onLoaded);
  onLoadedRef.current = onLoaded;
  const loadedId = task?._id;
  const loadedTitle = task?.title;
  useEffect(() => {
    if (loadedId && loadedTitle !== undefined) onLoadedRef.current?.({ id: loadedId, title: loadedTitle });
  }, [loadedId, loadedTitle]);

  let body: ReactNode;
  if (query.isPending) {
    body = <p role="status">Loading task...</p>;
  } else if (query.isError) {
    body = (
      <p role="alert" className="text-red-700">
        Failed to fetch task: {errorText(query.error)}
      </p>
    );
  } else {
    body = <TaskCardBody task={query.data} lists={lists} onClose={onClose} />;
  }

  return (
    <Dialog
      onClose={onClose}
      title={task?.title ?? 'Task'}
      className={cn('md:max-w-3xl', theme === 'dark' && 'dark')}
    >
      {body}
    </Dialog>
  );
}

function TaskCardBody({
  task,
  lists,
  onClose,
}: {
  task: TaskDetail;
  lists: TaskList[];
  onClose: () => void;
}) {
  const [panel, setPanel] = useState<Panel | null>(null);
  const access = useBoardAccess(task.boardId);
  const { canEdit } = access;
  // A team board's cards go to its members; a personal board's owner picks among colleagues.
  const assignable = access.board?.workspace ? access.members : undefined;
  // The card's own board knows every list (the open board may be another one).
  const boardLists = access.board?.lists ?? lists;
  const listName = boardLists.find((l) => l._id === task.taskListId)?.name;
  const source = task.source;
  const id = task._id;

  const archive = useTaskMutation(id, () => taskApi.archive(id));

  async function copy(text: string, message: string) {
    try {
      await navigator.clipboard.writeText(text);
      toast.success(message);
    } catch {
      toast.error('Could not copy to the clipboard');
    }
  }

  return (
    <div className="grid gap-6 md:grid-cols-[1fr_13rem]">
      <div className="min-w-0 space-y-6">
        <p className="flex flex-wrap items-center gap-2 text-sm text-slate-600 dark:text-slate-400">
          {task.assignedTo.length > 0 && (
            <span className="inline-flex items-center gap-1">
              <MemberAvatars people={task.assignedTo} />
              {task.assignedTo.map(personName).join(', ')}
            </span>
          )}
          {listName && (
            <span>
              in list <strong className="text-slate-900 dark:text-slate-100">{listName}</strong>
            </span>
          )}
          <PriorityBadge priority={task.priority} />
          {task.dates.deadline && (
            <span className="inline-flex items-center gap-1">
              <CalendarDays aria-hidden="true" className="size-4" />
              Due {formatDeadline(task.dates.deadline)}
            </span>
          )}
        </p>
        {source && (
          <p className="text-sm">
            <Link
              to={`/workspace/${encodeURIComponent(source.workspaceName)}/channel/${encodeURIComponent(source.channelId)}?${new URLSearchParams({ message: source.messageId })}`}
              className="inline-flex items-center gap-1 font-medium text-indigo-700 hover:underline dark:text-indigo-300"
            >
              <MessageSquareQuote aria-hidden="true" className="size-4" />
              Open the message this task came from
            </Link>
          </p>
        )}
        <LabelChips task={task} />
        <DescriptionEditor task={task} canEdit={canEdit} candidates={access.candidates} />
        <ChecklistView task={task} />
        <TaskAttachments task={task} canEdit={canEdit} />
        <Comments task={task} candidates={access.candidates} />
        <ActivityLog task={task} lists={boardLists} />
      </div>

      <div className="space-y-4">
        <div className="flex flex-col gap-2">
          {PANELS.filter((p) => canEdit || p.id === 'assignees').map(({ id: panelId, label, Icon }) => (
            <Button
              key={panelId}
              variant={panel === panelId ? 'primary' : 'secondary'}
              size="sm"
              className="justify-start"
              aria-expanded={panel === panelId}
              aria-controls={`task-panel-${panelId}`}
              onClick={() => setPanel((open) => (open === panelId ? null : panelId))}
            >
              <Icon aria-hidden="true" className="size-4" />
              {label}
            </Button>
          ))}
          <Button
            variant="secondary"
            size="sm"
            className="justify-start"
            onClick={() => copy(taskSummary(task, listName), 'Task copied to clipboard!')}
          >
            <Copy aria-hidden="true" className="size-4" />
            Copy
          </Button>
          <Button
            variant="secondary"
            size="sm"
            className="justify-start"
            onClick={() =>
              copy(
                `${window.location.origin}/tasks/${encodeURIComponent(id)}`,
                'Task link copied to clipboard!',
              )
            }
          >
            <Share2 aria-hidden="true" className="size-4" />
            Share
          </Button>
          {canEdit && (
            <Button
              variant="secondary"
              size="sm"
              className="justify-start"
              disabled={archive.isPending}
              onClick={() =>
                archive.mutate(undefined, {
                  onSuccess: () => {
                    toast.success('Task archived');
                    onClose();
                  },
                  onError: (err) => toast.error(`Failed to archive task: ${errorText(err)}`),
                })
              }
            >
              <Archive aria-hidden="true" className="size-4" />
              Archive
            </Button>
          )}
        </div>
        {panel && (
          <section
            id={`task-panel-${panel}`}
            aria-label={`${PANELS.find((p) => p.id === panel)?.label} panel`}
            className="rounded-lg border border-slate-200 bg-slate-50 p-3 dark:border-slate-700 dark:bg-slate-800"
          >
            {panel === 'labels' && <LabelsPanel task={task} />}
            {panel === 'checklist' && <ChecklistPanel task={task} />}
            {panel === 'dates' && <DatesPanel task={task} />}
            {panel === 'move' && <MovePanel task={task} lists={boardLists} onMoved={onClose} />}
            {panel === 'assignees' && <AssigneesPanel task={task} members={assignable} canEdit={canEdit} />}
          </section>
        )}
      </div>
    </div>
  );
}
