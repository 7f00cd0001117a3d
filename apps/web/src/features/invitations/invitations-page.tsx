import type { MyInvitation } from '@cohort/shared/invitations';
import { useQuery } from '@tanstack/react-query';
import { Check, LoaderCircle, MailOpen, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button, buttonClasses } from '../../components/ui/button.tsx';
import { ApiError } from '../../lib/api.ts';
import { dateTimeLabel } from '../../lib/chat-time.ts';
import { cn } from '../../lib/cn.ts';
import { toast } from '../../lib/toast.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useMe } from '../accounts/accounts.public.ts';
import { ROLE_LABELS, workspacePath } from '../workspaces/workspaces.public.ts';
import { myInvitationsQuery, useAcceptInvitation, useDeclineInvitation } from './invitations.queries.ts';

const errorText = (err: unknown) =>
  err instanceof ApiError ? err.message : 'Something went wrong. Please try again';

/**
 * /invitations: my pending invitations, each with Accept and Decline. The link in an invitation
 * e-mail lands here (`?focus=<id>` marks that one); signed-out visitors sign in (or up) first.
 */
export default function InvitationsPage() {
  useDocumentTitle('Invitations');
  const me = useMe();
  const [params] = useSearchParams();
  const focus = params.get('focus');
  const invitations = useQuery(myInvitationsQuery);
  const verified = me.data?.emailVerified ?? false;

  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6 lg:py-14">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Invitations</h1>
      <p className="mt-2 text-slate-600">
        Workspaces you were invited to. You join a workspace only when you accept its invitation.
      </p>

      {!verified && me.data && (
        <p role="alert" className="mt-6 rounded-lg bg-amber-50 px-4 py-3 text-sm font-medium text-amber-900">
          Verify your e-mail address ({me.data.email}) to see and accept invitations: open the link we sent
          you.
        </p>
      )}

      <div className="mt-8">
        {invitations.isPending ? (
          <p role="status" className="py-12 text-center text-slate-600">
            Loading invitations...
          </p>
        ) : invitations.isError ? (
          <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 font-medium text-red-800">
            Failed to load your invitations
          </p>
        ) : invitations.data.length === 0 ? (
          <div className="rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-14 text-center">
            <MailOpen aria-hidden="true" className="mx-auto size-8 text-slate-400" />
            <p className="mt-3 text-lg font-semibold text-slate-900">No pending invitations</p>
            <p className="mt-2 text-slate-600">
              {focus
                ? 'This invitation is no longer pending: it was accepted, declined, withdrawn or has expired.'
                : 'When someone invites you to a workspace, it shows up here.'}
            </p>
            <Link to="/dashboard" className={buttonClasses('secondary', 'md', 'mt-6')}>
              Your Workspaces
            </Link>
          </div>
        ) : (
          <ul className="space-y-4">
            {invitations.data.map((invitation) => (
              <InvitationCard
                key={invitation._id}
                invitation={invitation}
                focused={invitation._id === focus}
              />
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

function InvitationCard({ invitation, focused }: { invitation: MyInvitation; focused: boolean }) {
  const navigate = useNavigate();
  const accept = useAcceptInvitation();
  const decline = useDeclineInvitation();
  const [error, setError] = useState<string>();
  const ref = useRef<HTMLLIElement>(null);
  const headingId = `invitation-${invitation._id}`;
  const busy = accept.isPending || decline.isPending;

  // The invitation the e-mail's link named is scrolled to and announced first.
  useEffect(() => {
    if (focused) ref.current?.scrollIntoView({ block: 'center' });
  }, [focused]);

  // mutateAsync: the answer is handled even though the card leaves the list (the list refetches).
  const onAccept = async () => {
    setError(undefined);
    try {
      const { workspace, role } = await accept.mutateAsync(invitation._id);
      toast.success(`You joined ${workspace.name} as ${ROLE_LABELS[role].toLowerCase()}`);
      navigate(workspacePath(workspace.name));
    } catch (err) {
      setError(errorText(err));
    }
  };
  const onDecline = async () => {
    setError(undefined);
    try {
      await decline.mutateAsync(invitation._id);
      toast.success(`You declined the invitation to ${invitation.workspace.name}`);
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <li
      ref={ref}
      aria-labelledby={headingId}
      aria-current={focused ? 'true' : undefined}
      className={cn(
        'rounded-2xl border bg-white p-6 shadow-sm',
        focused ? 'border-indigo-400 ring-2 ring-indigo-200' : 'border-slate-200',
      )}
    >
      <h2 id={headingId} className="text-xl font-semibold break-words text-slate-900">
        {invitation.workspace.name}
      </h2>
      {invitation.workspace.description && (
        <p className="mt-1 line-clamp-2 text-sm text-slate-600">{invitation.workspace.description}</p>
      )}
      <dl className="mt-4 grid gap-2 text-sm sm:grid-cols-3">
        <div>
          <dt className="font-medium text-slate-900">Invited by</dt>
          <dd className="break-all text-slate-700">
            {invitation.invitedBy
              ? `${invitation.invitedBy.name} (${invitation.invitedBy.email})`
              : 'Unknown'}
          </dd>
        </div>
        <div>
          <dt className="font-medium text-slate-900">Role</dt>
          <dd className="text-slate-700">{ROLE_LABELS[invitation.role]}</dd>
        </div>
        <div>
          <dt className="font-medium text-slate-900">Expires</dt>
          <dd className="text-slate-700">
            <time dateTime={invitation.expiresAt}>{dateTimeLabel(new Date(invitation.expiresAt))}</time>
          </dd>
        </div>
      </dl>
      {error && (
        <p role="alert" className="mt-4 rounded-lg bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
          {error}
        </p>
      )}
      <div className="mt-5 flex flex-wrap gap-3">
        <Button onClick={() => void onAccept()} disabled={busy} aria-describedby={headingId}>
          {accept.isPending ? (
            <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
          ) : (
            <Check aria-hidden="true" className="size-4" />
          )}
          Accept
        </Button>
        <Button
          variant="secondary"
          onClick={() => void onDecline()}
          disabled={busy}
          aria-describedby={headingId}
        >
          {decline.isPending ? (
            <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
          ) : (
            <X aria-hidden="true" className="size-4" />
          )}
          Decline
        </Button>
      </div>
    </li>
  );
}
