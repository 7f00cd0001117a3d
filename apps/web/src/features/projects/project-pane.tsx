import type { Project, ProjectItem, ProjectItemKind, WorkspaceUser } from '@cohort/shared/projects';
import {
  CircleCheck,
  CircleDot,
  ExternalLink,
  GitFork,
  GitMerge,
  GitPullRequest,
  GitPullRequestClosed,
  RefreshCw,
  Star,
} from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { inputClasses } from '../../components/ui/field.tsx';
import { ApiError } from '../../lib/api.ts';
import { cn } from '../../lib/cn.ts';
import { toast } from '../../lib/toast.ts';
import { filterItems, fullName, type ItemFilters, NO_FILTERS, stateTone } from './item-filters.ts';
import { useAssignItem, useSyncProject } from './projects.queries.ts';

const TABS: { kind: ProjectItemKind; label: string; empty: string }[] = [
  { kind: 'pullrequest', label: 'Pull Requests', empty: 'No pull requests found' },
  { kind: 'issue', label: 'Issues', empty: 'No issues found' },
];

const formatDate = (iso: string) => new Date(iso).toLocaleDateString();

/** The selected project: its numbers, Refresh, and the Pull Requests / Issues tabs. */
export function ProjectPane(props: {
  project: Project;
  workspaceId: string;
  users: WorkspaceUser[];
  canEdit: boolean;
}) {
  const { project } = props;
  const id = useId();
  // The tab defaults to pull requests; the parent keys this pane by project, so it resets too.
  const [tab, setTab] = useState<ProjectItemKind>('pullrequest');
  const [filters, setFilters] = useState<ItemFilters>(NO_FILTERS);
  const sync = useSyncProject(props.workspaceId);
  const items = tab === 'pullrequest' ? project.pullRequests : project.issues;
  const shown = filterItems(items, filters);
  const current = TABS.find((t) => t.kind === tab) ?? TABS[0];

  function refresh() {
    sync.mutate(project._id, {
      onError: (err) => toast.error(err instanceof ApiError ? err.message : 'Failed to refresh the project'),
    });
  }

  return (
    <div className="p-5">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h2 className="truncate text-2xl font-semibold text-slate-900" title={project.fullName}>
            {project.name}
          </h2>
          <a
            href={project.repositoryUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex items-center gap-1 text-sm text-indigo-700 hover:underline"
          >
            {project.fullName}
            <ExternalLink aria-hidden="true" className="size-3.5" />
            <span className="sr-only">(opens in a new tab)</span>
          </a>
          <dl className="mt-3 flex flex-wrap gap-x-5 gap-y-1 text-sm text-slate-700">
            <div className="flex items-center gap-1.5">
              <Star aria-hidden="true" className="size-4 text-amber-500" />
              <dt>Stars</dt>
              <dd className="font-semibold">{project.stars}</dd>
            </div>
            <div className="flex items-center gap-1.5">
              <GitFork aria-hidden="true" className="size-4 text-slate-500" />
              <dt>Forks</dt>
              <dd className="font-semibold">{project.forks}</dd>
            </div>
            <div className="flex items-center gap-1.5">
              <dt>Last synced</dt>
              <dd className="font-semibold">
                {project.lastSynced ? new Date(project.lastSynced).toLocaleString() : 'Never'}
              </dd>
            </div>
          </dl>
        </div>
        <Button variant="secondary" size="sm" onClick={refresh} disabled={sync.isPending || !props.canEdit}>
          <RefreshCw aria-hidden="true" className={cn('size-4', sync.isPending && 'animate-spin')} />
          {sync.isPending ? 'Refreshing...' : 'Refresh'}
        </Button>
      </div>

      {project.lastSyncError && (
        <p role="alert" className="mt-4 rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900">
          The last sync failed: {project.lastSyncError}. Showing the data synced{' '}
          {project.lastSynced ? new Date(project.lastSynced).toLocaleString() : 'before'}.
        </p>
      )}

      <div role="tablist" aria-label="Items" className="mt-6 flex gap-1 border-b border-slate-200">
        {TABS.map((t) => (
          <button
            key={t.kind}
            type="button"
            role="tab"
            id={`${id}-tab-${t.kind}`}
            aria-selected={tab === t.kind}
            aria-controls={`${id}-panel`}
            onClick={() => {
              setTab(t.kind);
              setFilters(NO_FILTERS);
            }}
            className={cn(
              '-mb-px border-b-2 px-4 py-2 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-indigo-600',
              tab === t.kind
                ? 'border-indigo-600 text-indigo-800'
                : 'border-transparent text-slate-600 hover:text-slate-900',
            )}
          >
            {t.label} ({t.kind === 'pullrequest' ? project.pullRequests.length : project.issues.length})
          </button>
        ))}
      </div>

      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${tab}`} className="pt-4">
        <Filters kind={tab} filters={filters} onChange={setFilters} users={props.users} />
        {shown.length === 0 ? (
          <p className="py-10 text-center text-slate-600">{current?.empty}</p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-100">
            {shown.map((item) => (
              <ItemRow
                key={item.id}
                item={item}
                kind={tab}
                project={project}
                workspaceId={props.workspaceId}
                users={props.users}
                canEdit={props.canEdit}
              />
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

function Filters(props: {
  kind: ProjectItemKind;
  filters: ItemFilters;
  onChange: (filters: ItemFilters) => void;
  users: WorkspaceUser[];
}) {
  const id = useId();
  const { filters } = props;
  const set = (change: Partial<ItemFilters>) => props.onChange({ ...filters, ...change });
  const labelClass = 'block text-xs font-medium text-slate-700';
  return (
    <div className="grid gap-3 sm:grid-cols-[1fr_10rem_12rem]">
      <div>
        <label htmlFor={`${id}-search`} className={labelClass}>
          Search by title
        </label>
        <input
          id={`${id}-search`}
          type="search"
          value={filters.search}
          onChange={(e) => set({ search: e.target.value })}
          className={cn(inputClasses, 'mt-1 py-1.5 text-sm')}
        />
      </div>
      <div>
        <label htmlFor={`${id}-state`} className={labelClass}>
          State
        </label>
        <select
          id={`${id}-state`}
          value={filters.state}
          onChange={(e) => set({ state: e.target.value as ItemFilters['state'] })}
          className={cn(inputClasses, 'mt-1 py-1.5 text-sm')}
        >
          <option value="all">All states</option>
          <option value="open">Open</option>
          {props.kind === 'pullrequest' && <option value="merged">Merged</option>}
          <option value="closed">Closed</option>
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-assignee`} className={labelClass}>
          Assignee
        </label>
        <select
          id={`${id}-assignee`}
          value={filters.assignee}
          onChange={(e) => set({ assignee: e.target.value })}
          className={cn(inputClasses, 'mt-1 py-1.5 text-sm')}
        >
          <option value="all">Anyone</option>
          <option value="unassigned">Unassigned</option>
          {props.users.map((u) => (
            <option key={u._id} value={u._id}>
              {fullName(u)}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

function StateIcon({ kind, state }: { kind: ProjectItemKind; state: ProjectItem['state'] }) {
  const Icon =
    kind === 'pullrequest'
      ? state === 'open'
        ? GitPullRequest
        : state === 'merged'
          ? GitMerge
          : GitPullRequestClosed
      : state === 'open'
        ? CircleDot
        : CircleCheck;
  return (
    <span className={cn('mt-0.5 shrink-0', stateTone(state))} data-state={state}>
      <Icon aria-hidden="true" className="size-5" />
      <span className="sr-only">{state}</span>
    </span>
  );
}

function ItemRow(props: {
  item: ProjectItem;
  kind: ProjectItemKind;
  project: Project;
  workspaceId: string;
  users: WorkspaceUser[];
  canEdit: boolean;
}) {
  const { item } = props;
  const id = useId();
  const assign = useAssignItem(props.workspaceId);
  const known = item.assignee === null || props.users.some((u) => u._id === item.assignee);

  return (
    <li className="flex flex-wrap items-start gap-3 py-3 sm:flex-nowrap">
      <StateIcon kind={props.kind} state={item.state} />
      <div className="min-w-0 flex-1">
        {/* The server stores only https: links on the GitHub host; anything else is shown as text. */}
        {item.url.startsWith('https://') ? (
          <a
            href={item.url}
            target="_blank"
            rel="noopener noreferrer"
            className="font-medium break-words text-slate-900 hover:text-indigo-700 hover:underline"
          >
            {item.title}
          </a>
        ) : (
          <span className="font-medium break-words text-slate-900">{item.title}</span>
        )}
        <p className="text-xs text-slate-600">
          #{item.number} opened on {formatDate(item.createdAt)}
          {item.author ? ` by ${item.author}` : ''}
        </p>
      </div>
      <div className="w-full sm:w-48">
        <label htmlFor={id} className="sr-only">
          Assignee for {item.title}
        </label>
        <select
          id={id}
          // The value is the server's: it changes only once the server accepted the assignment.
          value={item.assignee ?? ''}
          disabled={!props.canEdit || assign.isPending}
          onChange={(e) =>
            assign.mutate(
              {
                projectId: props.project._id,
                kind: props.kind,
                itemId: item.id,
                userId: e.target.value || null,
              },
              { onError: () => toast.error('Failed to assign item') },
            )
          }
          className={cn(inputClasses, 'py-1.5 text-sm')}
        >
          <option value="">Unassigned</option>
          {props.users.map((u) => (
            <option key={u._id} value={u._id}>
              {fullName(u)}
            </option>
          ))}
          {!known && <option value={item.assignee ?? ''}>Former member</option>}
        </select>
      </div>
    </li>
  );
}
