import { useQuery } from '@tanstack/react-query';
import { MessageCircle, Phone } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { type PersonRenderer, PersonRendererContext } from '../../components/ui/person-name.tsx';
import { cn } from '../../lib/cn.ts';
import { useMe } from '../accounts/accounts.public.ts';
import { callUrl } from '../calls/calls.public.ts';
import { PresenceDot, usePersonPresence } from '../presence/presence.public.ts';
import { Avatar } from './avatar.tsx';
import { chatWithUrl, personQuery } from './people.queries.ts';

const STATUS_TEXT = { online: 'Online', away: 'Away', offline: 'Offline' } as const;

/**
 * A person's profile card (a modal dialog): avatar, name, e-mail, presence and the workspaces we
 * share, with Message (their direct conversation) and Call (a 1:1 call on /video). Someone I share
 * no workspace with can be neither messaged nor called, and the card says so.
 */
export function PersonCard({ email, name, onClose }: { email: string; name: string; onClose: () => void }) {
  const me = useMe();
  const navigate = useNavigate();
  const isMe = me.data?.email.toLowerCase() === email.toLowerCase();
  const found = useQuery({ ...personQuery(email), enabled: !isMe });
  const presence = usePersonPresence(email);
  const shownName = found.data?.name ?? name;
  const go = (to: string) => {
    onClose();
    navigate(to);
  };
  return (
    <Dialog onClose={onClose} title={shownName} description={email} className="max-w-sm">
      <div className="flex items-center gap-3">
        <span className="relative">
          <Avatar name={shownName} email={email} className="size-14 text-lg" />
          <PresenceDot
            status={presence}
            className="absolute -right-0.5 -bottom-0.5 size-3.5 border-2 border-white"
          />
        </span>
        <div className="min-w-0 text-sm">
          <p className="text-slate-700" data-testid="person-presence">
            {presence ? STATUS_TEXT[presence] : 'Presence unknown'}
          </p>
          {found.data && found.data.sharedWorkspaces.length > 0 && (
            <p className="mt-0.5 text-slate-600">
              In {found.data.sharedWorkspaces.length === 1 ? 'workspace' : 'workspaces'}{' '}
              <span className="font-medium text-slate-800">{found.data.sharedWorkspaces.join(', ')}</span>
            </p>
          )}
        </div>
      </div>
      {isMe ? (
        <p className="mt-5 text-sm text-slate-700">
          This is you.{' '}
          <Link to="/profile" onClick={onClose} className="font-medium text-indigo-700 underline">
            Your profile
          </Link>
        </p>
      ) : found.data === null ? (
        <p role="alert" className="mt-5 text-sm text-red-800">
          You share no workspace with {name} any more, so you cannot message or call them.
        </p>
      ) : (
        <div className="mt-5 flex gap-2">
          <Button className="flex-1" disabled={!found.data} onClick={() => go(chatWithUrl(email))}>
            <MessageCircle aria-hidden="true" className="size-4" />
            Message
          </Button>
          <Button
            variant="secondary"
            className="flex-1"
            disabled={!found.data}
            onClick={() => go(callUrl(email))}
          >
            <Phone aria-hidden="true" className="size-4" />
            Call
          </Button>
        </div>
      )}
    </Dialog>
  );
}

/** A person's name as a button that opens their card. */
export function PersonButton({
  email,
  name,
  className,
  children,
}: {
  email: string;
  name: string;
  className?: string;
  children?: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        aria-haspopup="dialog"
        onClick={(event) => {
          // Inside a message or a link: the card only, not the row's own action.
          event.stopPropagation();
          setOpen(true);
        }}
        className={cn(
          'cursor-pointer rounded text-left hover:underline focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-600',
          className,
        )}
      >
        {children ?? name}
      </button>
      {open && <PersonCard email={email} name={name} onClose={() => setOpen(false)} />}
    </>
  );
}

/** For `PersonRendererContext`: every sender and @mention in the subtree opens a profile card. */
export const renderPersonWithCard: PersonRenderer = ({ email, name, children }) => (
  <PersonButton email={email} name={name}>
    {children}
  </PersonButton>
);

/** Wraps a page (or part of it) so that every sender and @mention in it opens a profile card. */
export function PersonCards({ children }: { children: ReactNode }) {
  return (
    <PersonRendererContext.Provider value={renderPersonWithCard}>{children}</PersonRendererContext.Provider>
  );
}
