import { displayName } from '@cohort/shared/names';
import type { Channel, WorkspaceRole } from '@cohort/shared/workspaces';
import { useQuery } from '@tanstack/react-query';
import { Archive, ArchiveRestore, UserMinus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { inputClasses, TextAreaField, TextField } from '../../components/ui/field.tsx';
import { ApiError } from '../../lib/api.ts';
import { toast } from '../../lib/toast.ts';
import { PresenceDot, usePresence, useWorkspacePresence } from '../presence/presence.public.ts';
import { membersQuery, ROLE_LABELS } from '../workspaces/workspaces.public.ts';
import { channelAbilities, channelMembersQuery, useChannelAction } from './channel-manage.queries.ts';

const failed = (err: unknown, fallback: string) =>
  toast.error(err instanceof ApiError ? err.message : fallback);

/**
 * A channel's details: its name, description and topic (editable by whom the server allows), its
 * members with presence and roles (admins add and remove people of a private channel), archiving.
 */
export function ChannelDetailsDialog({
  workspaceName,
  channel,
  workspaceRole,
  userId,
  onClose,
}: {
  workspaceName: string;
  channel: Channel;
  /** The caller's role in the workspace. */
  workspaceRole: WorkspaceRole;
  userId: string | undefined;
  onClose: () => void;
}) {
  const can = channelAbilities(workspaceRole, channel, userId);
  const action = useChannelAction(workspaceName, channel._id);
  return (
    <Dialog title={`#${channel.name}`} description="Channel details" onClose={onClose} className="max-w-xl">
      <div className="space-y-6">
        {can.rename || can.topic ? (
          <AboutForm workspaceName={workspaceName} channel={channel} canRename={can.rename} />
        ) : (
          <dl className="space-y-2 text-sm">
            <dt className="font-medium text-slate-800">Topic</dt>
            <dd className="text-slate-700">{channel.topic || 'No topic'}</dd>
            <dt className="font-medium text-slate-800">Description</dt>
            <dd className="break-words whitespace-pre-wrap text-slate-700">{channel.description}</dd>
          </dl>
        )}
        <MembersSection
          workspaceName={workspaceName}
          channel={channel}
          userId={userId}
          canManage={can.manageMembers}
        />
        {channel.private && channel.joined && (
          <div className="border-t border-slate-200 pt-4">
            <Button
              variant="secondary"
              size="sm"
              disabled={action.isPending}
              onClick={() =>
                action
                  .mutateAsync({ kind: 'leave' })
                  .then(onClose)
                  .catch((err) => failed(err, 'Could not leave the channel'))
              }
            >
              Leave channel
            </Button>
            <p className="mt-2 text-xs text-slate-600">
              It is private: once you leave, only an admin in it can add you back.
            </p>
          </div>
        )}
        {can.archive && (
          <div className="border-t border-slate-200 pt-4">
            <Button
              variant="secondary"
              size="sm"
              disabled={action.isPending}
              onClick={() =>
                action
                  .mutateAsync({ kind: channel.archived ? 'unarchive' : 'archive' })
                  .then(onClose)
                  .catch((err) => failed(err, 'Could not change the channel'))
              }
            >
              {channel.archived ? (
                <ArchiveRestore aria-hidden="true" className="size-4" />
              ) : (
                <Archive aria-hidden="true" className="size-4" />
              )}
              {channel.archived ? 'Unarchive channel' : 'Archive channel'}
            </Button>
            <p className="mt-2 text-xs text-slate-600">
              {channel.archived
                ? 'Unarchived, it takes messages again and returns to its members’ sidebars.'
                : 'Archived, it is read-only and leaves the sidebar; members can still read and search it.'}
            </p>
          </div>
        )}
      </div>
    </Dialog>
  );
}

/** Name and description (creator or admin) and topic (editors too), each saved only when changed. */
function AboutForm({
  workspaceName,
  channel,
  canRename,
}: {
  workspaceName: string;
  channel: Channel;
  canRename: boolean;
}) {
  const [name, setName] = useState(channel.name);
  const [description, setDescription] = useState(channel.description);
  const [topic, setTopic] = useState(channel.topic);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const action = useChannelAction(workspaceName, channel._id);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = {
      ...(canRename && name.trim() !== channel.name ? { name } : {}),
      ...(canRename && description.trim() !== channel.description ? { description } : {}),
      ...(topic.trim() !== channel.topic ? { topic } : {}),
    };
    // The shared schema first: the same limits and characters the server checks (loaded on first
    // save, so zod stays out of the channel page's first download).
    const { updateChannelBody } = await import('@cohort/shared/workspaces');
    const parsed = updateChannelBody.safeParse(body);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    if (Object.keys(body).length === 0 || action.isPending) return;
    try {
      await action.mutateAsync({ kind: 'update', body });
      toast.success('Channel updated');
    } catch (err) {
      if (err instanceof ApiError && err.field) setErrors({ [err.field]: err.message });
      else failed(err, 'Could not update the channel');
    }
  };

  return (
    <form onSubmit={submit} className="space-y-3" noValidate>
      {canRename && (
        <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} error={errors.name} />
      )}
      <TextField
        label="Topic"
        value={topic}
        placeholder="What is this channel about right now?"
        onChange={(e) => setTopic(e.target.value)}
        error={errors.topic}
      />
      {canRename && (
        <TextAreaField
          label="Description"
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          error={errors.description}
          className="min-h-20"
        />
      )}
      {/* Not disabled while saving: the focused button would drop focus out of the dialog. */}
      <Button type="submit" size="sm">
        Save
      </Button>
    </form>
  );
}

function MembersSection({
  workspaceName,
  channel,
  userId,
  canManage,
}: {
  workspaceName: string;
  channel: Channel;
  userId: string | undefined;
  canManage: boolean;
}) {
  const members = useQuery(channelMembersQuery(workspaceName, channel._id));
  useWorkspacePresence(workspaceName);
  const action = useChannelAction(workspaceName, channel._id);
  const list = members.data ?? [];
  return (
    <section aria-labelledby="channel-members-heading">
      <h3 id="channel-members-heading" className="text-sm font-semibold text-slate-900">
        Members{members.data ? ` (${list.length})` : ''}
      </h3>
      {members.isPending && <p className="mt-2 text-sm text-slate-600">Loading members...</p>}
      <ul className="mt-2 max-h-64 space-y-1 overflow-y-auto">
        {list.map((m) => (
          <li key={m._id} className="flex items-center gap-2 text-sm text-slate-800">
            <MemberDot userId={m._id} />
            <span className="min-w-0 flex-1 truncate">
              {displayName(m)}
              {m._id === userId && <span className="text-slate-600"> (you)</span>}
            </span>
            <span className="shrink-0 text-xs text-slate-600">
              {ROLE_LABELS[m.role]}
              {m.isCreator ? ' · creator' : ''}
            </span>
            {canManage && m._id !== userId && (
              <Button
                variant="ghost"
                size="sm"
                aria-label={`Remove ${displayName(m)}`}
                disabled={action.isPending}
                onClick={() =>
                  action
                    .mutateAsync({ kind: 'removeMember', userId: m._id })
                    .catch((err) => failed(err, 'Could not remove them'))
                }
              >
                <UserMinus aria-hidden="true" className="size-4" />
              </Button>
            )}
          </li>
        ))}
      </ul>
      {canManage && (
        <AddPeople workspaceName={workspaceName} channelId={channel._id} present={list.map((m) => m._id)} />
      )}
    </section>
  );
}

function MemberDot({ userId }: { userId: string }) {
  return <PresenceDot status={usePresence(userId)} />;
}

/** Admins add workspace members who are not in the private channel yet. */
function AddPeople({
  workspaceName,
  channelId,
  present,
}: {
  workspaceName: string;
  channelId: string;
  present: string[];
}) {
  const workspaceMembers = useQuery(membersQuery(workspaceName));
  const action = useChannelAction(workspaceName, channelId);
  const [chosen, setChosen] = useState('');
  const candidates = (workspaceMembers.data ?? []).filter(
    (m): m is typeof m & { _id: string } =>
      m._id !== null && m.status === 'active' && !present.includes(m._id),
  );
  if (candidates.length === 0) return null;
  return (
    <form
      className="mt-3 flex items-end gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (!chosen) return;
        action
          .mutateAsync({ kind: 'addMembers', userIds: [chosen] })
          .then(() => setChosen(''))
          .catch((err) => failed(err, 'Could not add them'));
      }}
    >
      <label className="min-w-0 flex-1 text-sm font-medium text-slate-800">
        Add people
        <select className={`${inputClasses} mt-1`} value={chosen} onChange={(e) => setChosen(e.target.value)}>
          <option value="">Choose someone…</option>
          {candidates.map((m) => (
            <option key={m._id} value={m._id}>
              {displayName(m)} ({m.email})
            </option>
          ))}
        </select>
      </label>
      <Button type="submit" size="sm" disabled={!chosen || action.isPending}>
        Add
      </Button>
    </form>
  );
}
