import { useQuery } from '@tanstack/react-query';
import { mentionsQuery } from './notifications.queries.ts';

/** "@2" beside a channel in the workspace sidebar: the caller's unread mentions there. */
export function MentionBadge({ workspace, channelId }: { workspace: string; channelId: string }) {
  // One request per workspace: every badge reads the same cached list.
  const mentions = useQuery(mentionsQuery(workspace));
  const count = mentions.data?.find((m) => m.channelId === channelId)?.count ?? 0;
  if (count === 0) return null;
  return (
    <span className="ml-auto shrink-0 rounded-full bg-amber-500 px-1.5 py-0.5 text-[11px] leading-none font-semibold text-white tabular-nums">
      @{count > 99 ? '99+' : count}
      <span className="sr-only"> {count === 1 ? 'mention' : 'mentions'}</span>
    </span>
  );
}
