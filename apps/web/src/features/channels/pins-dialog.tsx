import type { ChannelPin } from '@cohort/shared/pins';
import type { Channel } from '@cohort/shared/workspaces';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { PinOff } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { MarkdownExcerpt } from '../../components/markdown/markdown-excerpt.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast.ts';
import { channelPinsQuery, refreshPins } from './pins.queries.ts';

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Longer texts are cut in the list; the link opens the whole message. */

/** Where a pin opens: the channel loaded around the message, which it scrolls to and highlights. */
const pinLink = (workspaceName: string, channelId: string, pin: ChannelPin) =>
  `/workspace/${encodeURIComponent(workspaceName)}/channel/${encodeURIComponent(channelId)}?${new URLSearchParams(
    { message: pin.message._id, seq: String(pin.message.seq) },
  )}`;

/**
 * The channel's Pins panel (issue 22): its pinned messages, newest pin first, each with its sender,
 * time and text, a link to it in the channel, and Unpin for those who may pin. Loaded lazily when the
 * header's Pins button opens it; the list refetches when pins change (use-channel-chat.ts).
 */
export default function PinsDialog({
  workspaceName,
  channel,
  mayPin,
  onClose,
}: {
  workspaceName: string;
  channel: Channel;
  mayPin: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const pins = useQuery(channelPinsQuery(workspaceName, channel._id));
  const [busy, setBusy] = useState<string | null>(null);

  const unpin = async (pin: ChannelPin) => {
    setBusy(pin.message._id);
    try {
      await api.delete<unknown>(
        `/api/workspaces/${encodeURIComponent(workspaceName)}/channels/${encodeURIComponent(
          channel._id,
        )}/messages/${encodeURIComponent(pin.message._id)}/pin`,
      );
      await refreshPins(queryClient, workspaceName, channel._id);
    } catch (err) {
      toast.error(`Could not unpin the message: ${err instanceof Error ? err.message : 'try again'}`);
    } finally {
      setBusy(null);
    }
  };

  return (
    <Dialog onClose={onClose} title={`Pinned in ${channel.name}`} className="max-w-lg">
      <div className="mt-3 max-h-[60vh] overflow-y-auto">
        {pins.isPending && <p className="text-sm text-slate-600">Loading…</p>}
        {pins.isError && (
          <p role="alert" className="text-sm text-red-800">
            Could not load the pins: {pins.error.message}
          </p>
        )}
        {pins.data && pins.data.length === 0 && (
          <p className="text-sm text-slate-700 dark:text-slate-300">
            Nothing is pinned yet.
            {mayPin ? ' Choose “Pin to channel” on a message to keep it here.' : ''}
          </p>
        )}
        {pins.data && pins.data.length > 0 && (
          <ul aria-label="Pinned messages" className="divide-y divide-slate-200 dark:divide-slate-800">
            {pins.data.map((pin) => {
              const sender = pin.message.sender.name || pin.message.sender.email;
              return (
                <li key={pin.message._id} className="flex items-start gap-2 py-2">
                  <Link
                    to={pinLink(workspaceName, channel._id, pin)}
                    onClick={onClose}
                    className="block min-w-0 flex-1 rounded-md px-2 py-1 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600 dark:hover:bg-slate-800"
                  >
                    <span className="flex flex-wrap items-center gap-x-2 text-xs text-slate-600 dark:text-slate-400">
                      <span className="font-semibold text-slate-800 dark:text-slate-200">{sender}</span>
                      <time dateTime={pin.message.timestamp}>{when(pin.message.timestamp)}</time>
                    </span>
                    <span className="mt-0.5 block text-sm break-words whitespace-pre-wrap text-slate-900 dark:text-slate-100">
                      {pin.message.content ? (
                        <MarkdownExcerpt source={pin.message.content} />
                      ) : (
                        '(attachment)'
                      )}
                    </span>
                    <span className="mt-0.5 block text-xs text-slate-500">Pinned by {pin.pinnedBy.name}</span>
                  </Link>
                  {mayPin && (
                    <button
                      type="button"
                      disabled={busy === pin.message._id}
                      onClick={() => void unpin(pin)}
                      aria-label={`Unpin message from ${sender}`}
                      title="Unpin"
                      className="mt-1 inline-flex size-8 shrink-0 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:opacity-50"
                    >
                      <PinOff aria-hidden="true" className="size-4" />
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </Dialog>
  );
}
