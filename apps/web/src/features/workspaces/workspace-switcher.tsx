import type { WorkspaceSummary } from '@cohort/shared/workspaces';
import { useQuery } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { Link } from 'react-router';
import { cn } from '../../lib/cn.ts';
import { mentionsQuery } from '../notifications/notifications.public.ts';
import { channelUnreadQuery, unreadLabel } from '../reads/reads.public.ts';
import { initialsOf, workspaceBadge } from './sidebar-groups.ts';
import { workspacePath, workspaceQuery, workspacesQuery } from './workspaces.queries.ts';

/** Other workspaces' counts are not pushed to this page: they are refreshed this often. */
const OTHER_WORKSPACES_REFRESH_MS = 30_000;

/**
 * The workspace switcher (issue 22): every workspace of the caller as its initials, the current one
 * marked, each with its unread count (and mentions) over the channels its sidebar lists. It stays in
 * view beside the sidebar (in the drawer on a phone).
 */
export function WorkspaceSwitcher({
  currentId,
  horizontal = false,
}: {
  currentId: string;
  /** A row (the phone's drawer) instead of a column (the rail beside the sidebar). */
  horizontal?: boolean;
}) {
  const workspaces = useQuery(workspacesQuery);
  const direction = horizontal ? 'flex-row flex-wrap' : 'flex-col';
  return (
    <nav aria-label="Workspaces" className={cn('flex items-center gap-2', direction)}>
      <ul className={cn('flex items-center gap-2', direction)}>
        {(workspaces.data ?? []).map((w) => (
          <li key={w._id}>
            <SwitcherItem workspace={w} current={w._id === currentId} />
          </li>
        ))}
      </ul>
      <Link
        to="/workspace/create"
        aria-label="Create workspace"
        title="Create workspace"
        className="flex size-10 items-center justify-center rounded-xl border border-dashed border-slate-400 text-slate-600 hover:bg-white focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        <Plus aria-hidden="true" className="size-4" />
      </Link>
    </nav>
  );
}

function SwitcherItem({ workspace, current }: { workspace: WorkspaceSummary; current: boolean }) {
  const refetchInterval = current ? false : OTHER_WORKSPACES_REFRESH_MS;
  const detail = useQuery({ ...workspaceQuery(workspace.name), refetchInterval, retry: false });
  const unread = useQuery({ ...channelUnreadQuery(workspace.name), refetchInterval, retry: false });
  const mentions = useQuery({ ...mentionsQuery(workspace.name), refetchInterval, retry: false });
  const badge = workspaceBadge(detail.data?.chat.channels ?? [], unread.data ?? [], mentions.data ?? []);
  const label = [
    workspace.name,
    badge.unread > 0 ? `${unreadLabel(badge.unread)} unread` : '',
    badge.mentions > 0 ? `${badge.mentions} ${badge.mentions === 1 ? 'mention' : 'mentions'}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return (
    <Link
      to={workspacePath(workspace.name)}
      aria-label={label}
      aria-current={current ? 'page' : undefined}
      title={workspace.name}
      className={cn(
        'relative flex size-10 items-center justify-center rounded-xl text-sm font-bold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
        current
          ? 'bg-indigo-600 text-white ring-2 ring-indigo-300'
          : 'bg-slate-200 text-slate-800 hover:bg-slate-300 dark:bg-slate-700 dark:text-slate-100',
      )}
    >
      <span aria-hidden="true">{initialsOf(workspace.name)}</span>
      {(badge.unread > 0 || badge.mentions > 0) && (
        <span
          aria-hidden="true"
          data-testid="workspace-badge"
          className={cn(
            'absolute -top-1.5 -right-1.5 rounded-full px-1.5 py-0.5 text-[10px] leading-none font-semibold text-white tabular-nums',
            badge.mentions > 0 ? 'bg-amber-500' : 'bg-red-600',
          )}
        >
          {badge.mentions > 0 ? `@${badge.mentions}` : unreadLabel(badge.unread)}
        </span>
      )}
    </Link>
  );
}
