import type { WorkspaceDetail } from '@cohort/shared/workspaces';
import { DoorOpen, LoaderCircle } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { ApiError } from '../../lib/api.ts';
import { toast } from '../../lib/toast.ts';
import { useLeaveWorkspace } from './workspaces.queries.ts';

/**
 * "Leave workspace", for every member, after a confirmation. The last admin is refused by the server
 * (409, with what to do instead), shown in the dialog.
 */
export function LeaveWorkspaceButton({ workspace }: { workspace: WorkspaceDetail }) {
  const navigate = useNavigate();
  const leave = useLeaveWorkspace(workspace.name);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string>();

  const close = () => {
    setConfirming(false);
    setError(undefined);
  };
  const confirm = async () => {
    setError(undefined);
    try {
      await leave.mutateAsync();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Something went wrong. Please try again');
      return;
    }
    toast.success(`You left ${workspace.name}`);
    navigate('/dashboard');
  };

  return (
    <>
      <Button variant="ghost" size="sm" onClick={() => setConfirming(true)}>
        <DoorOpen aria-hidden="true" className="size-4" />
        <span className="max-md:sr-only">Leave workspace</span>
      </Button>
      {confirming && (
        <Dialog
          role="alertdialog"
          title={`Leave ${workspace.name}?`}
          description="You will lose access to its channels and conversations. To come back, an admin has to invite you again."
          onClose={close}
          className="max-w-md"
        >
          {error && (
            <p role="alert" className="mb-4 rounded-lg bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
              {error}
            </p>
          )}
          <div className="flex justify-end gap-3">
            <Button variant="secondary" data-autofocus onClick={close}>
              Cancel
            </Button>
            <button
              type="button"
              onClick={() => void confirm()}
              disabled={leave.isPending}
              className="inline-flex items-center justify-center gap-2 rounded-lg bg-red-600 px-4 py-2 text-sm font-semibold text-white shadow-sm transition-colors hover:bg-red-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-600 disabled:cursor-not-allowed disabled:opacity-60"
            >
              {leave.isPending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
              Leave
            </button>
          </div>
        </Dialog>
      )}
    </>
  );
}
