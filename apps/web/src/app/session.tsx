import { QueryClient, QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useContext, useEffect } from 'react';
import { Link } from 'react-router';
import { buttonClasses } from '../components/ui/button.tsx';
import { useMe } from '../features/accounts/use-me.ts';
import { ApiError } from '../lib/api.ts';
import { useContentShown } from '../lib/first-content.ts';
import { useTheme } from '../lib/theme.ts';

// The server-state cache (TanStack Query, ~11 KiB of gzip) and what reads the session through it: a
// chunk of its own, loaded right after the shell's first render, so the entry that every first
// visit downloads does not carry it (issue 21). The landing page does not read the server; every
// other screen sits inside <QueryScope> (app/router.tsx), whose chunk loads with the screen's.

function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // A 4xx will not change by asking again; network hiccups and 5xx get two more tries.
        retry: (failureCount, error) =>
          !(error instanceof ApiError && error.status < 500) && failureCount < 2,
      },
    },
  });
}

// The session guard of the signed-in screens (app/router.tsx), in this chunk: one file less to fetch.
export { RequireAuth } from '../features/accounts/require-auth.tsx';

/** The app's one cache: every scope below shares it (the session read by the navbar is the pages'). */
const appClient = createQueryClient();

/** Server state for what it wraps: the app's cache, or the one a test already provides around it. */
export function QueryScope({ children }: { children: ReactNode }) {
  const outer = useContext(QueryClientContext);
  return <QueryClientProvider client={outer ?? appClient}>{children}</QueryClientProvider>;
}

// Signed-in only, and they bring the socket client and the shared schemas: chunks of their own.
const NotificationBell = lazy(() =>
  import('../features/notifications/notification-bell.tsx').then((m) => ({ default: m.NotificationBell })),
);
const MessagesLink = lazy(() =>
  import('../features/direct/messages-link.tsx').then((m) => ({ default: m.MessagesLink })),
);
const InvitationsLink = lazy(() =>
  import('../features/invitations/invitations-link.tsx').then((m) => ({ default: m.InvitationsLink })),
);
// With the logout mutation: the server preloads it on signed-in pages (web-shell.ts).
const UserMenu = lazy(() => import('./user-menu.tsx').then((m) => ({ default: m.UserMenu })));
// Every page of a signed-in user counts as a present tab (presence dots across the app).
const PresenceConnection = lazy(() =>
  import('../features/presence/presence-connection.tsx').then((m) => ({ default: m.PresenceConnection })),
);
// The tab's call connection and the incoming-call dialog (calls ring on every page).
const CallListener = lazy(() =>
  import('../features/calls/call-listener.tsx').then((m) => ({ default: m.CallListener })),
);
// Ctrl/Cmd+K and the recent destinations on every signed-in page; the switcher itself loads on first use.
const SwitcherHotkey = lazy(() =>
  import('../features/switcher/switcher-hotkey.tsx').then((m) => ({ default: m.SwitcherHotkey })),
);
// Only for accounts whose address is not verified yet.
const VerifyEmailBanner = lazy(() => import('../features/accounts/verify-email-banner.tsx'));

const sessionPlaceholder = (
  <span aria-hidden="true" className="h-9 w-36 animate-pulse rounded-lg bg-slate-100 dark:bg-slate-800" />
);

function Controls() {
  const me = useMe();
  // The counters and the bell come after a conversation's or the board's first render (issue 19).
  const extras = useContentShown();
  if (me.isPending) return sessionPlaceholder;
  if (!me.data) {
    return (
      <>
        <Link to="/login" className={buttonClasses('ghost', 'sm')}>
          Sign In
        </Link>
        <Link to="/signup" className={buttonClasses('secondary', 'sm')}>
          Sign Up
        </Link>
      </>
    );
  }
  const bellPlaceholder = <span aria-hidden="true" className="size-9" />;
  return (
    <>
      {extras && (
        <>
          <Suspense fallback={null}>
            <MessagesLink />
          </Suspense>
          <Suspense fallback={null}>
            <InvitationsLink />
          </Suspense>
        </>
      )}
      {extras ? (
        <Suspense fallback={bellPlaceholder}>
          <NotificationBell />
        </Suspense>
      ) : (
        bellPlaceholder
      )}
      <Suspense fallback={sessionPlaceholder}>
        <UserMenu user={me.data} />
      </Suspense>
    </>
  );
}

/** The navbar's end: Sign In and Sign Up, or the signed-in user's counters, bell and menu. */
export function SessionControls() {
  return (
    <QueryScope>
      <Controls />
    </QueryScope>
  );
}

function Effects() {
  const me = useMe();
  // Connected once the first page's content has rendered (issue 19): a call still rings seconds later.
  const extras = useContentShown();
  const theme = useTheme(me.data?.email);
  const dark = me.data !== undefined && theme === 'dark';
  useEffect(() => {
    // On <html>, so the page behind dialogs and drawers (portaled to <body>) is themed as well.
    document.documentElement.classList.toggle('dark', dark);
  }, [dark]);
  if (!me.data) return null;
  return (
    <>
      {extras && (
        <>
          <Suspense fallback={null}>
            <PresenceConnection userId={me.data._id} />
          </Suspense>
          <Suspense fallback={null}>
            <CallListener userId={me.data._id} />
          </Suspense>
        </>
      )}
      {/* Not held back: Ctrl/Cmd+K must work from the first moment the page answers keys (1.2 KiB). */}
      <Suspense fallback={null}>
        <SwitcherHotkey userId={me.data._id} />
      </Suspense>
    </>
  );
}

/** What a signed-in session runs on every page: presence, the call listener, the quick switcher's key, the theme. */
export function SessionEffects() {
  return (
    <QueryScope>
      <Effects />
    </QueryScope>
  );
}

function Banner() {
  const me = useMe();
  if (!me.data || me.data.emailVerified) return null;
  return (
    <Suspense fallback={null}>
      <VerifyEmailBanner email={me.data.email} />
    </Suspense>
  );
}

/** "Verify your address", under the navbar, for an account whose address is not verified yet. */
export function SessionBanner() {
  return (
    <QueryScope>
      <Banner />
    </QueryScope>
  );
}
