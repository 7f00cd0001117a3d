import { useQuery } from '@tanstack/react-query';
import {
  Archive,
  Bell,
  Clock,
  HelpCircle,
  LayoutGrid,
  Search,
  Settings,
  Table2,
  UserCheck,
} from 'lucide-react';
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useParams } from 'react-router';
import NotFoundPage from '../../app/not-found-page.tsx';
import { inputClasses } from '../../components/ui/field.tsx';
import { ApiError } from '../../lib/api.ts';
import { cn } from '../../lib/cn.ts';
import { markContentShown } from '../../lib/first-content.ts';
import { type Theme, useTheme, writeTheme } from '../../lib/theme.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useMe } from '../accounts/accounts.public.ts';
import { ArchivedSection } from './archived-section.tsx';
import { AssignedSection } from './assigned-section.tsx';
import { BoardActivity } from './board-activity.tsx';
import { BoardHeader } from './board-forms.tsx';
import { BoardSwitcher } from './board-switcher.tsx';
import { boardQuery, boardsQuery, defaultBoardId, rememberLastBoard } from './boards.queries.ts';
import { BoardsSection } from './boards-section.tsx';
import { HelpSection } from './help-section.tsx';
import { NotificationsSection } from './notifications-section.tsx';
import { SettingsSection } from './settings-section.tsx';
import { TableSection } from './table-section.tsx';
import { TaskCardModal } from './task-card.tsx';
import { notificationsQuery, type RecentTask, readRecentTasks, rememberRecentTask } from './tasks.queries.ts';
import { useLiveBoard } from './use-live-board.ts';
import { useLiveTasks } from './use-live-tasks.ts';

export type Section =
  | 'default'
  | 'boards'
  | 'assigned'
  | 'table'
  | 'notifications'
  | 'help'
  | 'archived'
  | 'settings';

const NAV: Array<{ id: Section; label: string; Icon: typeof LayoutGrid }> = [
  { id: 'boards', label: 'Boards', Icon: LayoutGrid },
  { id: 'assigned', label: 'Assigned to me', Icon: UserCheck },
  { id: 'table', label: 'Table', Icon: Table2 },
  { id: 'notifications', label: 'Notifications', Icon: Bell },
  { id: 'help', label: 'Help', Icon: HelpCircle },
  { id: 'archived', label: 'Archived', Icon: Archive },
  { id: 'settings', label: 'Settings', Icon: Settings },
];

interface TaskboardProps {
  /** /tasks/:taskId opens the board with that card expanded. */
  initialTaskId?: string;
  /** Called when the card opened from the URL closes. */
  onInitialTaskClosed?: () => void;
  /** The board the URL names (/task/board/:boardId); else the last used one or the personal board. */
  boardId?: string | undefined;
}

/** Table, Notifications and the search work on the open board or across all my boards. */
type Scope = 'board' | 'all';

/** The sections that list tasks, each filtered by the search box. */
const SEARCHED_SECTIONS = new Set<Section>(['boards', 'assigned', 'table', 'notifications', 'archived']);

export function Taskboard({ initialTaskId, onInitialTaskClosed, boardId: named }: TaskboardProps) {
  useLiveTasks();
  const me = useMe();
  const email = me.data?.email;
  const boards = useQuery(boardsQuery);
  const boardId = named ?? defaultBoardId(boards.data);
  useLiveBoard(boardId);
  const board = useQuery({ ...boardQuery(boardId ?? ''), enabled: !!boardId });
  useEffect(() => {
    if (named) rememberLastBoard(named);
  }, [named]);
  // The board is on screen (or what says why not): the page's extras may load (lib/first-content.ts).
  const rendered = boards.isError || (boards.isSuccess && (!boardId || !board.isPending));
  useEffect(() => {
    if (rendered) markContentShown();
  }, [rendered]);
  const [section, setSection] = useState<Section>(initialTaskId || named ? 'boards' : 'default');
  // /task is the whole taskboard (every board); a board's own URL narrows the views to it.
  const [scope, setScope] = useState<Scope>(named ? 'board' : 'all');
  const [mineOnly, setMineOnly] = useState(false);
  const [showActivity, setShowActivity] = useState(false);
  const scopeId = useId();
  const listIds = useMemo(
    () => (scope === 'board' && board.data ? new Set(board.data.lists.map((l) => l._id)) : undefined),
    [scope, board.data],
  );
  const tableBoards = scope === 'all' ? (boards.data ?? []).map((b) => b._id) : boardId ? [boardId] : [];
  const [search, setSearch] = useState('');
  const [openTaskId, setOpenTaskId] = useState<string | null>(initialTaskId ?? null);
  const [recent, setRecent] = useState<RecentTask[]>(readRecentTasks);
  // The theme is the whole app's (the layout applies it); it is chosen here, in Settings.
  const theme = useTheme(email);
  const notifications = useQuery(notificationsQuery);
  // The badge counts what the Notifications section shows (the scope's notifications).
  const unread = (notifications.data ?? []).filter(
    (n) => !n.read && (!listIds || listIds.has(n.task.taskListId)),
  ).length;
  const searchId = useId();

  const changeTheme = (next: Theme) => writeTheme(email, next);

  const onLoaded = useCallback((task: RecentTask) => {
    setRecent(rememberRecentTask(task));
  }, []);

  function closeCard() {
    const wasInitial = openTaskId === initialTaskId;
    setOpenTaskId(null);
    if (wasInitial) onInitialTaskClosed?.();
  }

  function openSection(next: Section) {
    setSection(next);
  }

  return (
    <div
      data-theme={theme}
      data-testid="taskboard"
      className={cn(
        'flex min-h-[calc(100vh-4rem)] flex-col md:flex-row',
        theme === 'dark' ? 'dark bg-slate-950 text-slate-100' : 'bg-slate-50 text-slate-900',
      )}
    >
      <aside
        aria-label="Taskboard"
        className="w-full shrink-0 space-y-6 border-slate-200 p-4 md:w-60 md:border-r dark:border-slate-800"
      >
        <div className="relative">
          <label htmlFor={searchId} className="sr-only">
            Search tasks
          </label>
          <Search
            aria-hidden="true"
            className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-slate-500"
          />
          <input
            id={searchId}
            type="search"
            placeholder="Search tasks..."
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              // A search from a page without tasks (welcome, help, settings) shows the matching board.
              if (e.target.value.trim() && !SEARCHED_SECTIONS.has(section)) setSection('boards');
            }}
            className={cn(inputClasses, 'pl-8')}
          />
        </div>
        <div>
          <label htmlFor={scopeId} className="text-xs font-semibold text-slate-500">
            Table, notifications and search in
          </label>
          <select
            id={scopeId}
            value={scope}
            onChange={(e) => setScope(e.target.value as Scope)}
            className={cn(inputClasses, 'mt-1')}
          >
            <option value="board">This board</option>
            <option value="all">All my boards</option>
          </select>
        </div>
        <nav aria-label="Taskboard sections">
          <ul className="space-y-1">
            {NAV.map(({ id, label, Icon }) => (
              <li key={id}>
                <button
                  type="button"
                  aria-current={section === id ? 'page' : undefined}
                  onClick={() => openSection(id)}
                  className={cn(
                    'flex w-full items-center gap-2 rounded-lg px-3 py-2 text-left text-sm font-medium',
                    section === id
                      ? 'bg-indigo-600 text-white'
                      : 'text-slate-700 hover:bg-slate-200 dark:text-slate-200 dark:hover:bg-slate-800',
                  )}
                >
                  <Icon aria-hidden="true" className="size-4" />
                  {label}
                  {id === 'notifications' && unread > 0 && (
                    <span
                      data-testid="unread-badge"
                      className="ml-auto rounded-full bg-red-600 px-1.5 py-0.5 text-xs leading-none font-bold text-white"
                    >
                      {unread}
                      <span className="sr-only"> unread</span>
                    </span>
                  )}
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <BoardSwitcher currentId={boardId} onPick={() => setSection('boards')} />
        <section aria-labelledby="recent-heading">
          <h2
            id="recent-heading"
            className="flex items-center gap-1.5 text-xs font-semibold tracking-wide text-slate-500 uppercase"
          >
            <Clock aria-hidden="true" className="size-3.5" />
            Recent
          </h2>
          {recent.length === 0 ? (
            <p className="mt-2 text-sm text-slate-500">No recent tasks</p>
          ) : (
            <ul className="mt-2 space-y-1">
              {recent.map((r) => (
                <li key={r.id}>
                  <button
                    type="button"
                    className="w-full truncate rounded px-2 py-1 text-left text-sm hover:bg-slate-200 dark:hover:bg-slate-800"
                    onClick={() => setOpenTaskId(r.id)}
                  >
                    {r.title}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
      </aside>

      <div className="min-w-0 flex-1 p-4 md:p-6">
        {section === 'default' && (
          <div className="mx-auto max-w-xl py-16 text-center">
            <h1 className="text-2xl font-bold tracking-tight">Welcome to your Taskboard</h1>
            <p className="mt-2 text-slate-600 dark:text-slate-300">
              Pick a section from the sidebar to get started.
            </p>
          </div>
        )}
        {section === 'boards' && (
          <>
            <h1 className="mb-4 text-2xl font-bold tracking-tight">Boards</h1>
            {board.data && <BoardHeader board={board.data} />}
            <div className="mb-3 flex flex-wrap items-center gap-4 text-sm">
              <label className="inline-flex items-center gap-2">
                <input
                  type="checkbox"
                  className="size-4 accent-indigo-600"
                  checked={mineOnly}
                  onChange={(e) => setMineOnly(e.target.checked)}
                />
                Only cards assigned to me
              </label>
              <button
                type="button"
                aria-expanded={showActivity}
                className="font-medium text-indigo-700 hover:underline dark:text-indigo-300"
                onClick={() => setShowActivity((v) => !v)}
              >
                {showActivity ? 'Hide recent activity' : 'Show recent activity'}
              </button>
            </div>
            {boardId ? (
              <BoardsSection
                boardId={boardId}
                search={search}
                onOpenTask={setOpenTaskId}
                assignedTo={mineOnly ? me.data?._id : undefined}
              />
            ) : boards.isError ? (
              <p role="alert" className="text-red-700">
                Failed to fetch boards
              </p>
            ) : (
              <p role="status" className="text-slate-600">
                Loading task lists...
              </p>
            )}
            {showActivity && board.data && <BoardActivity board={board.data} onOpenTask={setOpenTaskId} />}
          </>
        )}
        {section === 'assigned' && <AssignedSection search={search} onOpenTask={setOpenTaskId} />}
        {section === 'table' && (
          <TableSection boardIds={tableBoards} search={search} onOpenTask={setOpenTaskId} />
        )}
        {section === 'notifications' && (
          <NotificationsSection search={search} onOpenTask={setOpenTaskId} listIds={listIds} />
        )}
        {section === 'help' && <HelpSection />}
        {section === 'archived' && <ArchivedSection search={search} />}
        {section === 'settings' && <SettingsSection theme={theme} onThemeChange={changeTheme} />}
      </div>

      {openTaskId && (
        <TaskCardModal
          key={openTaskId}
          taskId={openTaskId}
          lists={board.data?.lists ?? []}
          theme={theme}
          onClose={closeCard}
          onLoaded={onLoaded}
        />
      )}
    </div>
  );
}

/** /task and /task/board/:boardId; a board the user may not see is the 404 page. */
export default function TaskboardPage() {
  const { boardId } = useParams();
  useDocumentTitle('Taskboard');
  const board = useQuery({ ...boardQuery(boardId ?? ''), enabled: !!boardId });
  if (board.isError && board.error instanceof ApiError && board.error.status === 404) {
    return <NotFoundPage />;
  }
  return <Taskboard key={boardId ?? ''} boardId={boardId} />;
}
