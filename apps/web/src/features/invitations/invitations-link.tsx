import { useQuery } from '@tanstack/react-query';
import { Mail } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from '../../components/ui/button.tsx';
import { myInvitationsQuery } from './invitations.queries.ts';

/**
 * The navbar's way to pending invitations (signed-in users): shown while there are some, with their
 * count. A new invitation arrives as a notification, which refreshes this count.
 */
export function InvitationsLink() {
  const invitations = useQuery(myInvitationsQuery);
  const count = invitations.data?.length ?? 0;
  if (count === 0) return null;
  return (
    <Link
      to="/invitations"
      aria-label={`Invitations (${count} pending)`}
      className={buttonClasses('ghost', 'sm', 'relative')}
    >
      <Mail aria-hidden="true" className="size-4" />
      <span className="hidden sm:inline">Invitations</span>
      <span
        aria-hidden="true"
        className="rounded-full bg-indigo-600 px-1.5 py-0.5 text-xs leading-none font-semibold text-white"
      >
        {count}
      </span>
    </Link>
  );
}
