import { useQuery } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { Link, useNavigate, useParams } from 'react-router';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { CreateChannelForm } from './create-channel-form.tsx';
import { canCreateChannel, channelPath, workspacePath, workspaceQuery } from './workspaces.queries.ts';

/** /workspace/{workspaceName}/create-channel: the create-channel modal's form as a page. */
export default function CreateChannelPage() {
  useDocumentTitle('Create Channel');
  const { workspaceName = '' } = useParams();
  const navigate = useNavigate();
  const workspace = useQuery(workspaceQuery(workspaceName));

  return (
    <div className="mx-auto max-w-2xl px-4 py-10 sm:px-6 lg:py-14">
      <Link
        to={workspacePath(workspace.data?.name ?? workspaceName)}
        className="inline-flex items-center gap-1.5 rounded text-sm font-semibold text-indigo-700 hover:text-indigo-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        Back to the workspace
      </Link>
      <h1 className="mt-4 text-3xl font-bold tracking-tight text-slate-900">Create Channel</h1>
      {workspace.isPending ? (
        <p role="status" className="mt-8 text-slate-600">
          Loading workspace details...
        </p>
      ) : workspace.isError ? (
        <p role="alert" className="mt-8 font-medium text-red-800">
          Failed to load workspace
        </p>
      ) : !canCreateChannel(workspace.data.role) ? (
        <p role="alert" className="mt-8 rounded-lg bg-amber-50 px-4 py-3 text-amber-900">
          Only editors and admins can create channels in {workspace.data.name}.
        </p>
      ) : (
        <>
          <p className="mt-2 text-slate-600">A new channel in {workspace.data.name}.</p>
          <div className="mt-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
            <CreateChannelForm
              workspace={workspace.data}
              onCancel={() => navigate(workspacePath(workspace.data.name))}
              onCreated={(channel) => navigate(channelPath(workspace.data.name, channel._id))}
            />
          </div>
        </>
      )}
    </div>
  );
}
