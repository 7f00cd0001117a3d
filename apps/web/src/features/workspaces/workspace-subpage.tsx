import type { WorkspaceDetail, WorkspaceRole } from '@cohort/shared/workspaces';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { cn } from '../../lib/cn.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { isTwoFactorRequired, TwoFactorRequired } from './two-factor-required.tsx';
import { workspacePath, workspaceQuery } from './workspaces.queries.ts';

/**
 * The frame of a page under /workspace/{workspaceName}/…: back link, heading, and the loading,
 * failure and not-allowed states, so each such page only renders its own content. The server
 * enforces the role too; hiding the content only spares the user a form they cannot submit.
 */
export function WorkspaceSubpage(props: {
  heading: string;
  documentTitle: (workspace?: WorkspaceDetail) => string;
  wide?: boolean | 'full';
  allowed: (role: WorkspaceRole) => boolean;
  denied: (workspace: WorkspaceDetail) => ReactNode;
  children: (workspace: WorkspaceDetail) => ReactNode;
}) {
  // The projects route names the segment workspaceId (spec §2); the API takes a name or an id.
  const { workspaceName: byName, workspaceId } = useParams();
  const workspaceName = byName ?? workspaceId ?? '';
  const workspace = useQuery(workspaceQuery(workspaceName));
  useDocumentTitle(props.documentTitle(workspace.data));

  return (
    <div
      className={cn(
        'mx-auto px-4 py-10 sm:px-6 lg:py-14',
        props.wide === 'full' ? 'max-w-7xl' : props.wide ? 'max-w-5xl' : 'max-w-2xl',
      )}
    >
      <Link
        to={workspacePath(workspace.data?.name ?? workspaceName)}
        className="inline-flex items-center gap-1.5 rounded text-sm font-semibold text-indigo-700 hover:text-indigo-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        Back to the workspace
      </Link>
      <h1 className="mt-4 text-3xl font-bold tracking-tight text-slate-900">{props.heading}</h1>
      {workspace.isPending ? (
        <p role="status" className="mt-8 text-slate-600">
          Loading workspace details...
        </p>
      ) : workspace.isError && isTwoFactorRequired(workspace.error) ? (
        <TwoFactorRequired compact />
      ) : workspace.isError ? (
        <p role="alert" className="mt-8 font-medium text-red-800">
          Failed to load workspace
        </p>
      ) : !props.allowed(workspace.data.role) ? (
        <p role="alert" className="mt-8 rounded-lg bg-amber-50 px-4 py-3 text-amber-900">
          {props.denied(workspace.data)}
        </p>
      ) : (
        props.children(workspace.data)
      )}
    </div>
  );
}
