import type { Board } from '@cohort/shared/boards';
import { boardRoleCan } from '@cohort/shared/boards';
import { useQuery } from '@tanstack/react-query';
import { Lock } from 'lucide-react';
import { Link } from 'react-router';
import { cn } from '../../lib/cn.ts';
import { NewBoardForm } from './board-forms.tsx';
import { boardPathOf, boardsQuery } from './boards.queries.ts';

interface Group {
  /** null: the personal board. */
  workspace: string | null;
  boards: Board[];
  canCreate: boolean;
}

function groupsOf(boards: Board[]): Group[] {
  const groups: Group[] = [];
  for (const board of boards) {
    const name = board.workspace?.name ?? null;
    let group = groups.find((g) => g.workspace === name);
    if (!group) {
      group = { workspace: name, boards: [], canCreate: false };
      groups.push(group);
    }
    group.boards.push(board);
    if (name && boardRoleCan(board.role, 'manage')) group.canCreate = true;
  }
  // The personal board first, then the workspaces by name.
  return groups.sort((a, b) =>
    a.workspace === null ? -1 : b.workspace === null ? 1 : a.workspace.localeCompare(b.workspace),
  );
}

const itemClasses =
  'flex w-full items-center gap-2 truncate rounded-lg px-3 py-1.5 text-left text-sm hover:bg-slate-200 dark:hover:bg-slate-800';

/** The sidebar's board list: "Personal board", then each workspace's boards under its name. */
export function BoardSwitcher({ currentId, onPick }: { currentId: string | undefined; onPick?: () => void }) {
  const boards = useQuery(boardsQuery);
  return (
    <nav aria-label="Boards list">
      <h2 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Your boards</h2>
      {boards.isPending && <p className="mt-2 text-sm text-slate-500">Loading boards...</p>}
      {boards.isError && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          Failed to fetch boards
        </p>
      )}
      {groupsOf(boards.data ?? []).map((group) => (
        <section key={group.workspace ?? ''} aria-label={group.workspace ?? 'Personal'} className="mt-2">
          {group.workspace && (
            <h3 className="truncate px-3 pt-1 text-xs font-semibold text-slate-600 dark:text-slate-400">
              {group.workspace}
            </h3>
          )}
          <ul className="space-y-0.5">
            {group.boards.map((board) => (
              <li key={board._id}>
                <Link
                  to={boardPathOf(board._id)}
                  onClick={onPick}
                  aria-current={board._id === currentId ? 'page' : undefined}
                  className={cn(
                    itemClasses,
                    board._id === currentId &&
                      'bg-indigo-100 font-semibold text-indigo-900 hover:bg-indigo-100',
                  )}
                >
                  {!board.workspace && <Lock aria-hidden="true" className="size-3.5 shrink-0" />}
                  <span className="truncate">{board.workspace ? board.title : 'Personal board'}</span>
                </Link>
              </li>
            ))}
          </ul>
          {group.workspace && group.canCreate && <NewBoardForm workspaceName={group.workspace} />}
        </section>
      ))}
    </nav>
  );
}
