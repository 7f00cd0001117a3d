import type { ChannelMessage } from '@cohort/shared/chat';
import { displayName } from '@cohort/shared/names';
import { useQuery } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useMemo } from 'react';
import type { MentionCandidate } from '../../components/composer/mentions.ts';
import { ChatComposer } from '../../components/ui/chat-composer.tsx';
import { api } from '../../lib/api.ts';
import { timeLabel } from '../../lib/chat-time.ts';
import { loadLive } from '../../lib/live.ts';
import { toast } from '../../lib/toast.ts';
import { channelMessagesPath } from './use-channel-chat.ts';

export const THREAD_PANEL_ID = 'thread-panel';

interface ThreadPanelProps {
  workspaceName: string;
  channelId: string;
  parent: ChannelMessage;
  /** Replies the live conversation already holds (they arrive as `newMessage` like any message). */
  liveReplies: ChannelMessage[];
  renderMessage: (message: ChannelMessage) => React.ReactNode;
  onReply: (content: string) => Promise<unknown>;
  onClose: () => void;
  /** Who `@` suggests in the reply box (the channel's composer passes the same members). */
  mentionCandidates?: readonly MentionCandidate[];
  /** Up-arrow in the empty reply box: edit my last reply of the thread (see ChatComposer). */
  onEditLast?: (replies: ChannelMessage[], composer: HTMLTextAreaElement) => boolean;
}

/**
 * A thread beside the channel: the parent, its replies (fetched once, then kept current by the
 * channel's live stream: a newer `rev` of a reply wins) and a composer that replies in the thread.
 */
export function ThreadPanel({
  workspaceName,
  channelId,
  parent,
  liveReplies,
  renderMessage,
  onReply,
  onClose,
  mentionCandidates,
  onEditLast,
}: ThreadPanelProps) {
  const fetched = useQuery({
    queryKey: ['thread', workspaceName, channelId, parent._id],
    queryFn: async () => {
      const [{ channelMessageList }, raw] = await Promise.all([
        loadLive(),
        api.get<unknown>(
          `${channelMessagesPath({ workspaceName, channelId })}/${encodeURIComponent(parent._id)}/thread`,
        ),
      ]);
      return channelMessageList.parse(raw);
    },
  });
  const replies = useMemo(() => {
    const byId = new Map<string, ChannelMessage>();
    for (const m of [...(fetched.data ?? []), ...liveReplies]) {
      const held = byId.get(m._id);
      if (!held || held.rev < m.rev) byId.set(m._id, m);
    }
    return [...byId.values()].sort((a, b) => a.seq - b.seq);
  }, [fetched.data, liveReplies]);

  return (
    <aside
      id={THREAD_PANEL_ID}
      aria-labelledby="thread-panel-heading"
      className="flex w-full min-w-0 flex-col border-t border-slate-200 bg-slate-50 max-md:absolute max-md:inset-0 max-md:z-30 md:w-80 md:border-t-0 md:border-l dark:border-slate-800 dark:bg-slate-900"
    >
      <header className="flex items-center justify-between border-b border-slate-200 px-4 py-3">
        <h3 id="thread-panel-heading" className="font-semibold text-slate-900">
          Thread
        </h3>
        <button
          type="button"
          onClick={onClose}
          aria-label="Close thread"
          className="rounded p-1 text-slate-600 hover:bg-slate-200 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          <X aria-hidden="true" className="size-4" />
        </button>
      </header>
      <div className="min-h-0 flex-1 overflow-y-auto px-3 py-3">
        <p className="mb-1 px-1 text-xs text-slate-600">
          {displayName(parent.sender)} · {timeLabel(new Date(parent.timestamp))}
        </p>
        <ul className="space-y-3">{renderMessage(parent)}</ul>
        <p className="my-3 border-b border-slate-200 pb-1 text-xs text-slate-600">
          {replies.length === 1 ? '1 reply' : `${replies.length} replies`}
        </p>
        {fetched.isError && <p className="text-sm text-red-700">The replies could not be loaded.</p>}
        <ul aria-label="Replies" className="space-y-3">
          {replies.map((m) => renderMessage(m))}
        </ul>
      </div>
      <ChatComposer
        label="Reply in thread"
        onSend={(text) => {
          onReply(text).catch((err: unknown) =>
            toast.error(`The reply was not sent: ${err instanceof Error ? err.message : 'try again'}`),
          );
        }}
        disabled={parent.deleted}
        mentionCandidates={mentionCandidates}
        onEditLast={onEditLast && ((composer) => onEditLast(replies, composer))}
      />
    </aside>
  );
}
