import type { WorkspaceSummary } from '@cohort/shared/workspaces';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, ArrowRight, Plus, Users } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from '../../components/ui/button.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { workspacePath, workspacesQuery } from './workspaces.queries.ts';

/** SPEC §2: member e-mails joined by commas; invitations not accepted yet are marked. */
export function memberLine(members: WorkspaceSummary['members']) {
  if (members.length === 0) return 'No members';
  return members.map((m) => (m.status === 'invited' ? `${m.email} (invited)` : m.email)).join(', ');
}

/** /dashboard: the signed-in user's workspaces (SPEC §2 "Your Workspaces"). */
export default function DashboardPage() {
  useDocumentTitle('Your Workspaces');
  const workspaces = useQuery(workspacesQuery);

  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6 lg:py-14">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div className="flex items-center gap-3">
          <Link
            to="/"
            aria-label="Back to home"
            title="Back to home"
            className="rounded-lg p-2 text-slate-700 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
          >
            <ArrowLeft aria-hidden="true" className="size-5" />
          </Link>
          <h1 className="text-3xl font-bold tracking-tight text-slate-900">Your Workspaces</h1>
        </div>
        <Link to="/workspace/create" className={buttonClasses('primary', 'md')}>
          <Plus aria-hidden="true" className="size-4" />
          Create Workspace
        </Link>
      </div>

      <div className="mt-8">
        {workspaces.isPending ? (
          <p role="status" className="py-16 text-center text-slate-600">
            Loading...
          </p>
        ) : workspaces.isError ? (
          <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 font-medium text-red-800">
            Failed to fetch workspaces
          </p>
        ) : workspaces.data.length === 0 ? (
          <div className="rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-16 text-center">
            <p className="text-lg font-semibold text-slate-900">No workspaces found</p>
            <p className="mt-2 text-slate-600">
              Create one and invite your team, or ask an admin to add you.
            </p>
          </div>
        ) : (
          <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {workspaces.data.map((workspace) => (
              <WorkspaceCard key={workspace._id} workspace={workspace} />
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

function WorkspaceCard({ workspace }: { workspace: WorkspaceSummary }) {
  const headingId = `workspace-${workspace._id}`;
  return (
    <li
      aria-labelledby={headingId}
      className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id={headingId} className="text-xl font-semibold break-words text-slate-900">
        {workspace.name}
      </h2>
      {workspace.description && (
        <p className="mt-1 line-clamp-2 text-sm text-slate-600">{workspace.description}</p>
      )}
      <dl className="mt-4 space-y-3 text-sm">
        <div>
          <dt className="font-medium text-slate-900">Created By</dt>
          <dd className="break-all text-slate-700">{workspace.createdBy ?? 'Unknown'}</dd>
        </div>
        <div>
          <dt className="flex items-center gap-1.5 font-medium text-slate-900">
            <Users aria-hidden="true" className="size-4 text-slate-500" />
            Members
          </dt>
          <dd className="break-all text-slate-700">{memberLine(workspace.members)}</dd>
        </div>
      </dl>
      <div className="mt-auto pt-6">
        <Link
          to={workspacePath(workspace.name)}
          aria-describedby={headingId}
          className={buttonClasses('secondary', 'md', 'w-full')}
        >
          Enter Workspace
          <ArrowRight aria-hidden="true" className="size-4" />
        </Link>
      </div>
    </li>
  );
}
