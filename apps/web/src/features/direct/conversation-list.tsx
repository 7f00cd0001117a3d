import type { DirectUnread } from '@cohort/shared/reads';
import { dayKey, timeLabel } from '../../lib/chat-time.ts';
import { Avatar } from '../people/people.public.ts';
import { unreadLabel, useDirectUnread } from '../reads/reads.public.ts';

/** Today: the time; before: the day. */
function whenLabel(date: Date, now = new Date()): string {
  if (dayKey(date) === dayKey(now)) return timeLabel(date);
  return date.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
}

function excerptOf(c: DirectUnread): string {
  const last = c.lastMessage;
  if (!last) return 'No messages yet';
  const text = last.deleted ? 'Message deleted' : last.excerpt.replace(/\s+/g, ' ').trim() || 'Attachment';
  return last.fromMe ? `You: ${text}` : text;
}

/**
 * My direct conversations, newest message first (the server's order): who, the newest message and
 * when, and what is unread. A click opens the conversation.
 */
export function ConversationList({ onOpen }: { onOpen: (email: string) => void }) {
  const listing = useDirectUnread();
  const conversations = listing.data ?? [];
  if (listing.isPending) return null;
  return (
    <nav aria-labelledby="conversations-heading" className="mt-8 border-t border-slate-200 pt-6">
      <h2 id="conversations-heading" className="text-sm font-semibold text-slate-900">
        Conversations
      </h2>
      {conversations.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">No conversations yet: find someone above.</p>
      ) : (
        <ul className="mt-3 space-y-1">
          {conversations.map((c) => (
            <li key={c.email}>
              <button
                type="button"
                onClick={() => onOpen(c.email)}
                className="flex w-full items-center gap-3 rounded-lg px-2.5 py-2 text-left text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-600"
              >
                <Avatar name={c.name} email={c.email} />
                <span className="min-w-0 flex-1">
                  <span className="flex items-baseline gap-2">
                    <span className="min-w-0 flex-1 truncate font-medium text-slate-900">{c.name}</span>
                    {c.lastMessage && (
                      <time
                        dateTime={c.lastMessage.createdAt}
                        className="shrink-0 text-xs text-slate-600 tabular-nums"
                      >
                        {whenLabel(new Date(c.lastMessage.createdAt))}
                      </time>
                    )}
                  </span>
                  <span
                    className={
                      c.unread > 0
                        ? 'block truncate text-xs font-semibold text-slate-900'
                        : 'block truncate text-xs text-slate-600'
                    }
                  >
                    {excerptOf(c)}
                  </span>
                </span>
                {c.unread > 0 && (
                  <span className="shrink-0 rounded-full bg-indigo-600 px-1.5 py-0.5 text-[11px] leading-none font-semibold text-white tabular-nums">
                    {unreadLabel(c.unread)}
                    <span className="sr-only"> unread</span>
                  </span>
                )}
              </button>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}
