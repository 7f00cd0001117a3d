import { lazy, Suspense, useEffect, useState } from 'react';
import { Outlet } from 'react-router';
import { useContentShown } from '../lib/first-content.ts';
import { Navbar } from './navbar.tsx';
import { ScrollRestoration } from './scroll-restoration.tsx';

// What depends on the session (presence, the call listener, the theme, the verify banner) comes with
// the server-state cache in app/session.tsx, right after the first render (issue 21).
const SessionEffects = lazy(() => import('./session.tsx').then((m) => ({ default: m.SessionEffects })));
const SessionBanner = lazy(() => import('./session.tsx').then((m) => ({ default: m.SessionBanner })));

// Below the fold on every page (<main> is at least a screen tall), with the newsletter form (a
// mutation, hence its query scope): fetched as the page renders, not part of the entry chunk.
const SiteFooter = lazy(() =>
  Promise.all([import('./site-footer.tsx'), import('./session.tsx')]).then(([footer, session]) => ({
    default: () => (
      <session.QueryScope>
        <footer.SiteFooter />
      </session.QueryScope>
    ),
  })),
);

export function Layout() {
  useAppHeight();
  const idle = useWhenIdle();
  const contentShown = useContentShown();
  const footerShown = idle && contentShown;
  return (
    <div className="flex min-h-screen flex-col bg-slate-50 text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      <Suspense fallback={null}>
        <SessionEffects />
      </Suspense>
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-white px-4 py-2 font-semibold text-indigo-700 shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to main content
      </a>
      <Navbar />
      <Suspense fallback={null}>
        <SessionBanner />
      </Suspense>
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
      {footerShown && (
        <Suspense fallback={null}>
          <SiteFooter />
        </Suspense>
      )}
      <ScrollRestoration />
    </div>
  );
}

/**
 * True once the browser has had a moment with nothing to do after the page's first work (at most
 * 2 s): the footer, always below the fold, renders then rather than in the middle of the page's own
 * first renders, where it lengthened a task that already blocked a phone's main thread (issue 19).
 */
function useWhenIdle() {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (typeof requestIdleCallback !== 'function') {
      const timer = setTimeout(() => setIdle(true), 500);
      return () => clearTimeout(timer);
    }
    const handle = requestIdleCallback(() => setIdle(true), { timeout: 2000 });
    return () => cancelIdleCallback(handle);
  }, []);
  return idle;
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
