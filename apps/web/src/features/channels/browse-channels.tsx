import type { BrowseChannel } from '@cohort/shared/channels';
import { useQuery } from '@tanstack/react-query';
import { Archive, Hash, Lock, Users } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { inputClasses } from '../../components/ui/field.tsx';
import { ApiError } from '../../lib/api.ts';
import { toast } from '../../lib/toast.ts';
import { channelPath } from '../workspaces/workspaces.public.ts';
import { browseChannelsQuery, useChannelAction } from './channel-manage.queries.ts';

/**
 * "Browse channels": every open channel of the workspace (and the private ones the caller is in), with
 * its topic, member count and whether the caller joined; archived ones are marked and cannot be joined.
 */
export function BrowseChannels({ workspaceName }: { workspaceName: string }) {
  const channels = useQuery(browseChannelsQuery(workspaceName));
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const shown = (channels.data ?? []).filter(
    (c) => !needle || c.name.toLowerCase().includes(needle) || c.topic.toLowerCase().includes(needle),
  );
  return (
    <section aria-labelledby="browse-heading" className="flex h-full flex-col px-4 py-4 sm:px-6">
      <h2 id="browse-heading" className="text-xl font-semibold text-slate-900 dark:text-slate-100">
        Browse channels
      </h2>
      <label className="mt-3 block text-sm font-medium text-slate-800">
        <span className="sr-only">Filter channels</span>
        <input
          type="search"
          className={inputClasses}
          placeholder="Filter by name or topic"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
      </label>
      {channels.isPending && (
        <p role="status" className="mt-4 text-sm text-slate-600">
          Loading channels...
        </p>
      )}
      {channels.isError && (
        <p role="alert" className="mt-4 text-sm text-red-700">
          Could not load the channels.
        </p>
      )}
      {channels.data && shown.length === 0 && (
        <p className="mt-4 text-sm text-slate-600">{needle ? 'No channel matches.' : 'No channels yet.'}</p>
      )}
      <ul aria-label="Channels" className="mt-4 min-h-0 flex-1 divide-y divide-slate-200 overflow-y-auto">
        {shown.map((c) => (
          <BrowseRow key={c._id} workspaceName={workspaceName} channel={c} />
        ))}
      </ul>
    </section>
  );
}

function BrowseRow({ workspaceName, channel }: { workspaceName: string; channel: BrowseChannel }) {
  const action = useChannelAction(workspaceName, channel._id);
  const act = (kind: 'join' | 'leave') =>
    action
      .mutateAsync({ kind })
      .catch((err) =>
        toast.error(err instanceof ApiError ? err.message : `Could not ${kind} #${channel.name}`),
      );
  return (
    <li aria-label={channel.name} className="flex items-start gap-3 py-3">
      <div className="min-w-0 flex-1">
        <Link
          to={channelPath(workspaceName, channel._id)}
          className="flex items-center gap-1.5 font-semibold text-slate-900 hover:underline dark:text-slate-100"
        >
          {channel.private ? (
            <Lock aria-hidden="true" className="size-3.5 shrink-0" />
          ) : (
            <Hash aria-hidden="true" className="size-3.5 shrink-0" />
          )}
          <span className="truncate">{channel.name}</span>
        </Link>
        <p className="mt-0.5 flex flex-wrap items-center gap-x-2 text-xs text-slate-600">
          {channel.joined && <span className="font-medium text-emerald-700">Joined</span>}
          {channel.archived && (
            <span className="inline-flex items-center gap-1 rounded bg-slate-200 px-1.5 py-0.5 font-medium text-slate-800">
              <Archive aria-hidden="true" className="size-3" />
              Archived
            </span>
          )}
          <span className="inline-flex items-center gap-1">
            <Users aria-hidden="true" className="size-3" />
            {channel.memberCount} {channel.memberCount === 1 ? 'member' : 'members'}
          </span>
        </p>
        {channel.topic && <p className="mt-1 truncate text-sm text-slate-700">{channel.topic}</p>}
      </div>
      {channel.joined
        ? !channel.private && (
            <Button variant="secondary" size="sm" disabled={action.isPending} onClick={() => act('leave')}>
              Leave<span className="sr-only"> {channel.name}</span>
            </Button>
          )
        : !channel.archived && (
            <Button size="sm" disabled={action.isPending} onClick={() => act('join')}>
              Join<span className="sr-only"> {channel.name}</span>
            </Button>
          )}
    </li>
  );
}
