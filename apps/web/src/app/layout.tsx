import { lazy, Suspense } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { useMe } from '../features/accounts/use-me.ts';
import { Navbar } from './navbar.tsx';
import { SiteFooter } from './site-footer.tsx';

// Signed-in only, and it brings the socket client and the shared schemas: kept out of the entry
// chunk every visitor downloads (bench/js-budgets.json).
const PresenceConnection = lazy(() =>
  import('../features/presence/presence-connection.tsx').then((m) => ({ default: m.PresenceConnection })),
);

// Signed-in only: the tab's call connection and the incoming-call dialog (calls ring on every page).
const CallListener = lazy(() =>
  import('../features/calls/call-listener.tsx').then((m) => ({ default: m.CallListener })),
);

// Only for accounts whose address is not verified yet: a chunk of its own, not in the entry.
const VerifyEmailBanner = lazy(() => import('../features/accounts/verify-email-banner.tsx'));

export function Layout() {
  // Every page of a signed-in user counts as a present tab (presence dots across the app).
  const me = useMe();
  return (
    <div className="flex min-h-screen flex-col bg-slate-50 text-slate-900">
      {me.data && (
        <Suspense fallback={null}>
          <PresenceConnection userId={me.data._id} />
        </Suspense>
      )}
      {me.data && (
        <Suspense fallback={null}>
          <CallListener userId={me.data._id} />
        </Suspense>
      )}
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-white px-4 py-2 font-semibold text-indigo-700 shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to main content
      </a>
      <Navbar />
      {me.data && !me.data.emailVerified && (
        <Suspense fallback={null}>
          <VerifyEmailBanner email={me.data.email} />
        </Suspense>
      )}
      {/* At least a screen tall: the footer starts below the fold, so a lazily loaded page (taller
          than its "Loading..." placeholder) does not shift it on screen (CLS). */}
      <main id="main" tabIndex={-1} className="min-h-screen flex-1 focus:outline-none">
        <Suspense
          fallback={
            <p role="status" className="px-4 py-24 text-center text-slate-600">
              Loading...
            </p>
          }
        >
          <Outlet />
        </Suspense>
      </main>
      <SiteFooter />
      <ScrollRestoration />
    </div>
  );
}
