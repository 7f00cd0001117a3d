import { useNavigate } from 'react-router';
import { CreateChannelForm } from './create-channel-form.tsx';
import { WorkspaceSubpage } from './workspace-subpage.tsx';
import { canCreateChannel, channelPath, workspacePath } from './workspaces.queries.ts';

/** /workspace/{workspaceName}/create-channel: the create-channel modal's form as a page. */
export default function CreateChannelPage() {
  const navigate = useNavigate();
  return (
    <WorkspaceSubpage
      heading="Create Channel"
      documentTitle={() => 'Create Channel'}
      allowed={canCreateChannel}
      denied={(workspace) => `Only editors and admins can create channels in ${workspace.name}.`}
    >
      {(workspace) => (
        <>
          <p className="mt-2 text-slate-600">A new channel in {workspace.name}.</p>
          <div className="mt-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
            <CreateChannelForm
              workspace={workspace}
              onCancel={() => navigate(workspacePath(workspace.name))}
              onCreated={(channel) => navigate(channelPath(workspace.name, channel._id))}
            />
          </div>
        </>
      )}
    </WorkspaceSubpage>
  );
}
