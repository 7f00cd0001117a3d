import { lazy, Suspense, useEffect } from 'react';
import { Outlet } from 'react-router';
import { useMe } from '../features/accounts/use-me.ts';
import { useTheme } from '../lib/theme.ts';
import { Navbar } from './navbar.tsx';
import { ScrollRestoration } from './scroll-restoration.tsx';

// Signed-in only, and it brings the socket client and the shared schemas: kept out of the entry
// chunk every visitor downloads (bench/js-budgets.json).
const PresenceConnection = lazy(() =>
  import('../features/presence/presence-connection.tsx').then((m) => ({ default: m.PresenceConnection })),
);

// Signed-in only: the tab's call connection and the incoming-call dialog (calls ring on every page).
const CallListener = lazy(() =>
  import('../features/calls/call-listener.tsx').then((m) => ({ default: m.CallListener })),
);

// Below the fold on every page (<main> is at least a screen tall), with the newsletter form: fetched
// as the page renders instead of being part of the entry chunk (issue 21).
const SiteFooter = lazy(() => import('./site-footer.tsx').then((m) => ({ default: m.SiteFooter })));

// Only for accounts whose address is not verified yet: a chunk of its own, not in the entry.
const VerifyEmailBanner = lazy(() => import('../features/accounts/verify-email-banner.tsx'));

export function Layout() {
  // Every page of a signed-in user counts as a present tab (presence dots across the app).
  const me = useMe();
  const theme = useTheme(me.data?.email);
  const dark = me.data !== undefined && theme === 'dark';
  useEffect(() => {
    // On <html>, so the page behind dialogs and drawers (portaled to <body>) is themed as well.
    document.documentElement.classList.toggle('dark', dark);
  }, [dark]);
  useAppHeight();
  return (
    <div className="flex min-h-screen flex-col bg-slate-50 text-slate-900 dark:bg-slate-950 dark:text-slate-100">
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
      <Suspense fallback={null}>
        <SiteFooter />
      </Suspense>
      <ScrollRestoration />
    </div>
  );
}

/**
 * `--app-height`: the height of what is visible, which shrinks with a phone's on-screen keyboard
 * (Safari keeps the layout viewport and `dvh` unchanged, Chromium resizes it per the viewport meta's
 * `interactive-widget`). Full-screen views (a conversation) size themselves with it, so their composer
 * stays above the keyboard.
 */
function useAppHeight() {
  useEffect(() => {
    const viewport = window.visualViewport;
    if (!viewport) return;
    const root = document.documentElement;
    const update = () => root.style.setProperty('--app-height', `${viewport.height}px`);
    update();
    viewport.addEventListener('resize', update);
    return () => {
      viewport.removeEventListener('resize', update);
      root.style.removeProperty('--app-height');
    };
  }, []);
}
