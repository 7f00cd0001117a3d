import { MessageCircle } from 'lucide-react';
import { NavLink } from 'react-router';
import { buttonClasses } from '../../components/ui/button.tsx';
import { unreadLabel, useDirectUnread } from '../reads/reads.public.ts';

/** The navbar's way to direct messages (signed-in users), with how many are unread in all. */
export function MessagesLink() {
  const listing = useDirectUnread();
  const unread = (listing.data ?? []).reduce((sum, c) => sum + c.unread, 0);
  return (
    <NavLink
      to="/messages"
      aria-label={unread > 0 ? `Messages (${unreadLabel(unread)} unread)` : 'Messages'}
      className={({ isActive }) =>
        buttonClasses('ghost', 'sm', isActive ? 'bg-indigo-50 text-indigo-800' : '')
      }
    >
      <MessageCircle aria-hidden="true" className="size-4" />
      <span className="hidden sm:inline">Messages</span>
      {unread > 0 && (
        <span
          aria-hidden="true"
          data-testid="messages-unread"
          className="rounded-full bg-indigo-600 px-1.5 py-0.5 text-xs leading-none font-semibold text-white tabular-nums"
        >
          {unreadLabel(unread)}
        </span>
      )}
    </NavLink>
  );
}
