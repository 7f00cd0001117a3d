import type { WorkspaceInvitation } from '@cohort/shared/invitations';
import type { WorkspaceDetail } from '@cohort/shared/workspaces';
import { useQuery } from '@tanstack/react-query';
import { LoaderCircle, Send, X } from 'lucide-react';
import { useState } from 'react';
import { ApiError } from '../../lib/api.ts';
import { dateFormat } from '../../lib/chat-time.ts';
import { cn } from '../../lib/cn.ts';
import { toast } from '../../lib/toast.ts';
import { ROLE_LABELS } from './role-select.tsx';
import { useResendInvitation, useRevokeInvitation, workspaceInvitationsQuery } from './workspaces.queries.ts';

const errorText = (err: unknown) =>
  err instanceof ApiError ? err.message : 'Something went wrong. Please try again';

const actionClasses =
  'inline-flex items-center gap-1.5 rounded-lg px-3 py-1.5 text-sm font-semibold transition-colors ' +
  'focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-60';

/**
 * The workspace settings' pending invitations (admins only, as the API): who was invited, with which
 * role, by whom and until when; Resend (a new expiry and e-mail) and Revoke.
 */
export function PendingInvitations({ workspace }: { workspace: WorkspaceDetail }) {
  const invitations = useQuery(workspaceInvitationsQuery(workspace.name));
  const resend = useResendInvitation(workspace.name);
  const revoke = useRevokeInvitation(workspace.name);
  const [error, setError] = useState<string>();
  const busy = (email: string) =>
    (resend.isPending && resend.variables === email) || (revoke.isPending && revoke.variables === email);

  const onResend = (invitation: WorkspaceInvitation) => {
    setError(undefined);
    resend.mutate(invitation.email, {
      onSuccess: () => toast.success(`Invitation sent again to ${invitation.email}`),
      onError: (err) => setError(errorText(err)),
    });
  };
  const onRevoke = (invitation: WorkspaceInvitation) => {
    setError(undefined);
    revoke.mutate(invitation.email, {
      onSuccess: () => toast.success(`The invitation to ${invitation.email} was revoked`),
      onError: (err) => setError(errorText(err)),
    });
  };

  return (
    <section
      aria-labelledby="invitations-heading"
      className="mt-8 rounded-2xl border border-slate-200 bg-white shadow-sm"
    >
      <div className="px-6 pt-6">
        <h2 id="invitations-heading" className="text-lg font-semibold text-slate-900">
          Pending invitations
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Invited people join when they accept. An invitation lasts 7 days; resending it starts again.
        </p>
        {error && (
          <p role="alert" className="mt-4 rounded-lg bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
            {error}
          </p>
        )}
      </div>
      {invitations.isPending ? (
        <p role="status" className="px-6 py-6 text-slate-600">
          Loading invitations...
        </p>
      ) : invitations.isError ? (
        <p role="alert" className="px-6 py-6 font-medium text-red-800">
          Failed to load the invitations
        </p>
      ) : invitations.data.length === 0 ? (
        <p className="px-6 py-6 text-sm text-slate-600">No pending invitations.</p>
      ) : (
        <div className="relative mt-4 overflow-x-auto">
          <table className="w-full min-w-[40rem] text-left text-sm">
            <caption className="sr-only">Pending invitations to {workspace.name}</caption>
            <thead className="border-y border-slate-200 bg-slate-50 text-xs tracking-wide text-slate-600 uppercase">
              <tr>
                <th scope="col" className="px-6 py-3 font-semibold">
                  E-mail
                </th>
                <th scope="col" className="px-3 py-3 font-semibold">
                  Role
                </th>
                <th scope="col" className="px-3 py-3 font-semibold">
                  Invited by
                </th>
                <th scope="col" className="px-3 py-3 font-semibold">
                  Expires
                </th>
                <th scope="col" className="px-6 py-3 text-right font-semibold">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {invitations.data.map((invitation) => (
                <tr key={invitation._id}>
                  <th scope="row" className="px-6 py-3 font-medium break-all text-slate-900">
                    {invitation.email}
                  </th>
                  <td className="px-3 py-3 text-slate-700">{ROLE_LABELS[invitation.role]}</td>
                  <td className="px-3 py-3 break-all text-slate-700">{invitation.invitedBy?.name ?? '—'}</td>
                  <td className="px-3 py-3">
                    {invitation.expired ? (
                      <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-medium text-red-900">
                        Expired
                      </span>
                    ) : (
                      <time dateTime={invitation.expiresAt} className="text-slate-700">
                        {dateFormat({ dateStyle: 'medium' }).format(new Date(invitation.expiresAt))}
                      </time>
                    )}
                  </td>
                  <td className="px-6 py-3 text-right whitespace-nowrap">
                    <button
                      type="button"
                      aria-label={`Resend the invitation to ${invitation.email}`}
                      onClick={() => onResend(invitation)}
                      disabled={busy(invitation.email)}
                      className={cn(
                        actionClasses,
                        'text-indigo-700 hover:bg-indigo-50 focus-visible:outline-indigo-600',
                      )}
                    >
                      {resend.isPending && resend.variables === invitation.email ? (
                        <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
                      ) : (
                        <Send aria-hidden="true" className="size-4" />
                      )}
                      Resend
                    </button>
                    <button
                      type="button"
                      aria-label={`Revoke the invitation to ${invitation.email}`}
                      onClick={() => onRevoke(invitation)}
                      disabled={busy(invitation.email)}
                      className={cn(
                        actionClasses,
                        'text-red-700 hover:bg-red-50 focus-visible:outline-red-600',
                      )}
                    >
                      <X aria-hidden="true" className="size-4" />
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="h-4" />
    </section>
  );
}
