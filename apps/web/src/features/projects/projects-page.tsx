import { roleCan } from '@cohort/shared/permissions';
import { PROJECT_MESSAGES, type Project, parseRepositoryUrl } from '@cohort/shared/projects';
import type { WorkspaceDetail } from '@cohort/shared/workspaces';
import { useQuery } from '@tanstack/react-query';
import { FolderGit2 } from 'lucide-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { inputClasses } from '../../components/ui/field.tsx';
import { ApiError } from '../../lib/api.ts';
import { cn } from '../../lib/cn.ts';
import { WorkspaceSubpage } from '../workspaces/workspaces.public.ts';
import { ProjectPane } from './project-pane.tsx';
import { projectsQuery, useAddProject, workspaceUsersQuery } from './projects.queries.ts';

/** Linking repositories and assigning items: editors and admins (the server's policy decides). */
const canEdit = (role: WorkspaceDetail['role']) => roleCan(role, 'assignItem');

/** /workspace/{workspaceId}/projects (SPEC §2 "Project Manager"). */
export default function ProjectsPage() {
  return (
    <WorkspaceSubpage
      heading="Project Manager"
      documentTitle={(w) => (w ? `Projects · ${w.name}` : 'Projects')}
      wide="full"
      allowed={() => true}
      denied={() => null}
    >
      {(workspace) => <ProjectManager workspace={workspace} />}
    </WorkspaceSubpage>
  );
}

function ProjectManager({ workspace }: { workspace: WorkspaceDetail }) {
  const workspaceId = workspace._id;
  const projects = useQuery(projectsQuery(workspaceId));
  const users = useQuery(workspaceUsersQuery(workspaceId));
  const [params, setParams] = useSearchParams();
  const selectedId = params.get('project');
  const selected = projects.data?.find((p) => p._id === selectedId);
  const select = (id: string) => setParams({ project: id }, { replace: true });

  // Spec §8: a failed load of the assignee users is reported on the console only.
  useEffect(() => {
    if (users.isError) console.error('Failed to load workspace users', users.error);
  }, [users.isError, users.error]);

  return (
    <div className="mt-6 space-y-6">
      <p className="text-slate-600">
        Pull requests and issues of the repositories linked to <strong>{workspace.name}</strong>.
      </p>
      {canEdit(workspace.role) ? (
        <AddProjectForm workspaceId={workspaceId} onAdded={select} />
      ) : (
        <p className="rounded-lg bg-slate-100 px-4 py-3 text-sm text-slate-700">
          Viewers follow the projects; editors and admins link repositories and assign items.
        </p>
      )}
      <div className="grid min-h-[28rem] overflow-hidden rounded-2xl border border-slate-200 bg-white md:grid-cols-[16rem_1fr]">
        <ProjectSidebar projects={projects} selectedId={selected?._id} onSelect={select} />
        <section
          aria-label={selected ? `Project ${selected.name}` : 'Project'}
          className="min-w-0 border-t border-slate-200 md:border-t-0 md:border-l"
        >
          {selected ? (
            // Keyed by project: choosing another one resets the tab to pull requests and the filters.
            <ProjectPane
              key={selected._id}
              project={selected}
              workspaceId={workspaceId}
              users={users.data ?? []}
              canEdit={canEdit(workspace.role)}
            />
          ) : (
            <div className="flex h-full flex-col items-center justify-center px-6 py-20 text-center">
              <FolderGit2 aria-hidden="true" className="size-12 text-indigo-300" />
              <h2 className="mt-4 text-xl font-semibold text-slate-900">No Project Selected</h2>
              <p className="mt-2 text-slate-600">
                Choose a project on the left to see its pull requests and issues.
              </p>
            </div>
          )}
        </section>
      </div>
    </div>
  );
}

function AddProjectForm({ workspaceId, onAdded }: { workspaceId: string; onAdded: (id: string) => void }) {
  const id = useId();
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string>();
  const add = useAddProject(workspaceId);

  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = url.trim();
    if (!trimmed) return setError(PROJECT_MESSAGES.urlRequired);
    // The same check the server makes; the server only ever calls GitHub's API, never this URL.
    if (!parseRepositoryUrl(trimmed)) return setError(PROJECT_MESSAGES.urlInvalid);
    setError(undefined);
    add.mutate(trimmed, {
      onSuccess: (project: Project) => {
        setUrl('');
        onAdded(project._id);
      },
      onError: (err) =>
        setError(err instanceof ApiError && err.hasServerMessage ? err.message : PROJECT_MESSAGES.addFailed),
    });
  }

  return (
    <form onSubmit={submit} noValidate className="rounded-2xl border border-slate-200 bg-white p-4">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        Repository URL
      </label>
      <div className="mt-1.5 flex flex-col gap-2 sm:flex-row">
        <input
          id={id}
          type="text"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="github.com/owner/repo"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className={cn(inputClasses, 'sm:flex-1')}
        />
        <Button type="submit" disabled={add.isPending}>
          {add.isPending ? 'Adding...' : 'Add Project'}
        </Button>
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="mt-2 text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </form>
  );
}

function ProjectSidebar({
  projects,
  selectedId,
  onSelect,
}: {
  projects: { data?: Project[]; isPending: boolean; isError: boolean };
  selectedId: string | undefined;
  onSelect: (id: string) => void;
}) {
  return (
    <nav aria-labelledby="projects-heading" className="flex flex-col bg-slate-50/70 p-3">
      <h2
        id="projects-heading"
        className="px-2 pt-1 pb-2 text-xs font-semibold tracking-wide text-slate-600 uppercase"
      >
        Projects
      </h2>
      {projects.isPending ? (
        <p role="status" className="px-2 py-3 text-sm text-slate-600">
          Loading...
        </p>
      ) : projects.isError ? (
        <p role="alert" className="px-2 py-3 text-sm text-slate-700">
          No projects
        </p>
      ) : !projects.data?.length ? (
        <p className="px-2 py-3 text-sm text-slate-600">No projects added yet</p>
      ) : (
        <ul className="space-y-1">
          {projects.data.map((p) => (
            <li key={p._id}>
              <button
                type="button"
                onClick={() => onSelect(p._id)}
                aria-current={p._id === selectedId ? 'true' : undefined}
                className={cn(
                  'w-full rounded-lg px-3 py-2 text-left focus-visible:outline-2 focus-visible:outline-indigo-600',
                  p._id === selectedId
                    ? 'bg-indigo-100 text-indigo-950'
                    : 'text-slate-800 hover:bg-slate-100',
                )}
              >
                <span className="block truncate font-medium" title={p.fullName}>
                  {p.name}
                </span>
                <span className="block text-xs text-slate-600">
                  PRs: {p.pullRequests.length} · Issues: {p.issues.length}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}
