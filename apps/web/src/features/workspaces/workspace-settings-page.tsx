import { emailSchema } from '@cohort/shared/accounts';
import type { StorageUsage } from '@cohort/shared/files';
import { formatBytes } from '@cohort/shared/files.constants';
import { fullName } from '@cohort/shared/names';
import type { MemberListItem, WorkspaceDetail, WorkspaceRole } from '@cohort/shared/workspaces';
import { useQuery } from '@tanstack/react-query';
import { LoaderCircle, UserPlus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { ApiError, api } from '../../lib/api.ts';
import { cn } from '../../lib/cn.ts';
import { toast } from '../../lib/toast.ts';
import { useMe } from '../accounts/accounts.public.ts';
import { PersonButton } from '../people/people.public.ts';
import { PresenceDot, usePresence, useWorkspacePresence } from '../presence/presence.public.ts';
import { PendingInvitations } from './pending-invitations.tsx';
import { RequireTwoFactorSetting } from './require-two-factor-setting.tsx';
import { ROLE_LABELS, RoleSelect } from './role-select.tsx';
import { WorkspaceSubpage } from './workspace-subpage.tsx';
import {
  canManageMembers,
  membersQuery,
  useAddMember,
  useChangeRole,
  useRemoveMember,
} from './workspaces.queries.ts';

const dangerClasses =
  'inline-flex items-center justify-center gap-2 rounded-lg font-semibold transition-colors ' +
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-600 ' +
  'disabled:cursor-not-allowed disabled:opacity-60';

const errorText = (err: unknown) =>
  err instanceof ApiError ? err.message : 'Something went wrong. Please try again';

/** /workspace/{workspaceName}/settings: members, roles and invitations, for the workspace's admins. */
export default function WorkspaceSettingsPage() {
  return (
    <WorkspaceSubpage
      heading="Workspace settings"
      documentTitle={(workspace) => (workspace ? `Settings · ${workspace.name}` : 'Workspace settings')}
      wide
      allowed={canManageMembers}
      denied={(workspace) => `Only admins of ${workspace.name} can manage its members.`}
    >
      {(workspace) => (
        <>
          <p className="mt-2 break-words text-slate-600">{workspace.name}</p>
          <InviteForm workspace={workspace} />
          <MembersTable workspace={workspace} />
          <PendingInvitations workspace={workspace} />
          <RequireTwoFactorSetting workspace={workspace} />
          <StorageUse workspace={workspace} />
        </>
      )}
    </WorkspaceSubpage>
  );
}

function InviteForm({ workspace }: { workspace: WorkspaceDetail }) {
  const add = useAddMember(workspace.name);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<WorkspaceRole>('viewer');
  const [error, setError] = useState<string>();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const parsed = emailSchema.safeParse(email);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Enter a valid e-mail address');
      setTimeout(() => form.querySelector<HTMLInputElement>('input[type="email"]')?.focus(), 0);
      return;
    }
    setError(undefined);
    add.mutate(
      { email: parsed.data, role },
      {
        onSuccess: (member) => {
          // Nobody joins by being added: they get an invitation e-mail and join when they accept.
          toast.success(`Invitation sent to ${member.email}`);
          setEmail('');
          setRole('viewer');
        },
        onError: (err) => setError(errorText(err)),
      },
    );
  }

  return (
    <section
      aria-labelledby="invite-heading"
      className="mt-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id="invite-heading" className="text-lg font-semibold text-slate-900">
        Invite a member
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        We e-mail them an invitation; they join when they accept it, with a verified address (creating an
        account first if they have none).
      </p>
      <form
        noValidate
        onSubmit={onSubmit}
        className="mt-4 grid gap-3 sm:grid-cols-[1fr_10rem_auto] sm:items-start"
      >
        <TextField
          label="E-mail"
          type="email"
          autoComplete="off"
          placeholder="name@example.com"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={error}
        />
        <RoleSelect label="Role" value={role} onChange={setRole} />
        <Button type="submit" className="sm:mt-7" disabled={add.isPending}>
          {add.isPending ? (
            <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
          ) : (
            <UserPlus aria-hidden="true" className="size-4" />
          )}
          Invite
        </Button>
      </form>
    </section>
  );
}

function MembersTable({ workspace }: { workspace: WorkspaceDetail }) {
  const navigate = useNavigate();
  const me = useMe();
  const members = useQuery(membersQuery(workspace.name));
  useWorkspacePresence(workspace.name);
  const changeRole = useChangeRole(workspace.name);
  const remove = useRemoveMember(workspace.name);
  const [error, setError] = useState<string>();
  const [removing, setRemoving] = useState<MemberListItem>();

  function onRoleChange(member: MemberListItem & { _id: string }, role: WorkspaceRole) {
    setError(undefined);
    changeRole.mutate(
      { userId: member._id, role },
      {
        onSuccess: () => toast.success(`${member.email} is now ${ROLE_LABELS[role].toLowerCase()}`),
        onError: (err) => setError(errorText(err)),
      },
    );
  }

  function confirmRemove() {
    const member = removing;
    if (!member) return;
    setError(undefined);
    remove.mutate(member, {
      onSuccess: () => {
        setRemoving(undefined);
        toast.success(`${member.email} was removed from ${workspace.name}`);
        // Leaving the workspace yourself ends your access to it.
        if (member._id && member._id === me.data?._id) navigate('/dashboard');
      },
      onError: (err) => {
        setRemoving(undefined);
        setError(errorText(err));
      },
    });
  }

  return (
    <section
      aria-labelledby="members-heading"
      className="mt-8 rounded-2xl border border-slate-200 bg-white shadow-sm"
    >
      <div className="px-6 pt-6">
        <h2 id="members-heading" className="text-lg font-semibold text-slate-900">
          Members
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Viewers read and chat; editors also create channels and manage projects; admins also manage members
          and roles.
        </p>
        {error && (
          <p role="alert" className="mt-4 rounded-lg bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
            {error}
          </p>
        )}
      </div>
      {members.isPending ? (
        <p role="status" className="px-6 py-8 text-slate-600">
          Loading members...
        </p>
      ) : members.isError ? (
        <p role="alert" className="px-6 py-8 font-medium text-red-800">
          Failed to load the members
        </p>
      ) : (
        // Positioned: the header's screen-reader-only texts (absolute) are then clipped by this scroller
        // instead of widening the page on a phone.
        <div className="relative mt-4 overflow-x-auto">
          <table className="w-full min-w-[40rem] text-left text-sm">
            <caption className="sr-only">Members of {workspace.name}</caption>
            <thead className="border-y border-slate-200 bg-slate-50 text-xs tracking-wide text-slate-600 uppercase">
              <tr>
                <th scope="col" className="px-6 py-3 font-semibold">
                  E-mail
                </th>
                <th scope="col" className="px-3 py-3 font-semibold">
                  Name
                </th>
                <th scope="col" className="px-3 py-3 font-semibold">
                  Role
                </th>
                <th scope="col" className="px-6 py-3 text-right font-semibold">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {members.data
                .filter((member) => member.status === 'active')
                .map((member) => {
                  const name = fullName(member);
                  const isMe = member._id !== null && member._id === me.data?._id;
                  return (
                    <tr key={member._id ?? `invite:${member.email}`}>
                      <th scope="row" className="px-6 py-3 font-medium break-all text-slate-900">
                        {member._id && <MemberPresence userId={member._id} />}
                        {member.email}
                        {isMe && <span className="ml-1.5 font-normal text-slate-600">(you)</span>}
                      </th>
                      <td className="px-3 py-3 text-slate-700">
                        {name && member._id ? <PersonButton email={member.email} name={name} /> : name || '—'}
                      </td>
                      <td className="px-3 py-3">
                        {member._id ? (
                          <RoleSelect
                            label={`Role of ${member.email}`}
                            hideLabel
                            value={member.role}
                            disabled={changeRole.isPending}
                            onChange={(role) => onRoleChange({ ...member, _id: member._id as string }, role)}
                            className="w-32 py-1.5"
                          />
                        ) : (
                          <span className="text-slate-700">{ROLE_LABELS[member.role]}</span>
                        )}
                      </td>
                      <td className="px-6 py-3 text-right">
                        <button
                          type="button"
                          aria-label={`Remove ${member.email}`}
                          onClick={() => setRemoving(member)}
                          className={cn(dangerClasses, 'px-3 py-1.5 text-sm text-red-700 hover:bg-red-50')}
                        >
                          Remove
                        </button>
                      </td>
                    </tr>
                  );
                })}
            </tbody>
          </table>
        </div>
      )}
      <div className="h-4" />

      {removing && (
        <Dialog
          role="alertdialog"
          title="Remove this member?"
          description={`${removing.email} will lose access to ${workspace.name} and its channels.`}
          onClose={() => setRemoving(undefined)}
          className="max-w-md"
        >
          <div className="flex justify-end gap-3">
            <Button variant="secondary" data-autofocus onClick={() => setRemoving(undefined)}>
              Cancel
            </Button>
            <button
              type="button"
              onClick={confirmRemove}
              disabled={remove.isPending}
              className={cn(
                dangerClasses,
                'bg-red-600 px-4 py-2 text-sm text-white shadow-sm hover:bg-red-700',
              )}
            >
              {remove.isPending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
              Remove
            </button>
          </div>
        </Dialog>
      )}
    </section>
  );
}

/** What the workspace's shared files take (admins only, like this page). */
function StorageUse({ workspace }: { workspace: WorkspaceDetail }) {
  const usage = useQuery({
    queryKey: ['workspaces', 'storage', workspace.name.toLowerCase()],
    queryFn: ({ signal }) =>
      api.get<StorageUsage>(`/api/workspaces/${encodeURIComponent(workspace.name)}/storage`, signal),
  });
  return (
    <section aria-labelledby="storage-heading" className="mt-8">
      <h2 id="storage-heading" className="text-lg font-semibold text-slate-900">
        File storage
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        {usage.isPending
          ? 'Loading...'
          : usage.isError
            ? 'Storage use could not be loaded.'
            : `${formatBytes(usage.data.bytes)} of ${formatBytes(usage.data.quotaBytes)} used, in ${usage.data.files} ${usage.data.files === 1 ? 'file' : 'files'} shared in this workspace's channels.`}
      </p>
    </section>
  );
}

function MemberPresence({ userId }: { userId: string }) {
  return <PresenceDot status={usePresence(userId)} className="mr-2 align-middle" />;
}
