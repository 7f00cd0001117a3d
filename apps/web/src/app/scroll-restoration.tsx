import { useEffect, useLayoutEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router';

// What react-router's <ScrollRestoration> does, without its data router (createBrowserRouter and its
// loaders, actions and fetchers: ~17 KiB of gzip that every first visit downloaded, issue 21). Scroll
// positions are kept per history entry (location.key) and survive a reload in sessionStorage.
const STORAGE_KEY = 'react-router-scroll-positions';
let positions: Record<string, number> = {};
let currentKey: string | null = null;

function onScroll() {
  if (currentKey !== null) positions[currentKey] = window.scrollY;
}

function onPageHide() {
  onScroll();
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(positions));
  } catch {
    // Storage full or disabled: positions are then only kept while the page lives.
  }
  window.history.scrollRestoration = 'auto';
}

/**
 * Back and forward restore where the entry was scrolled to; a link to `#id` scrolls that element into
 * view; any other navigation starts at the top of the page.
 */
export function ScrollRestoration() {
  const location = useLocation();
  const navigationType = useNavigationType();

  useEffect(() => {
    window.history.scrollRestoration = 'manual';
    try {
      positions = { ...JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}'), ...positions };
    } catch {
      // Unreadable: start afresh.
    }
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('pagehide', onPageHide);
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('pagehide', onPageHide);
      window.history.scrollRestoration = 'auto';
    };
  }, []);

  useLayoutEffect(() => {
    currentKey = location.key;
    const saved = navigationType === 'POP' ? readSaved(location.key) : undefined;
    if (saved !== undefined) {
      window.scrollTo(0, saved);
      return;
    }
    if (location.hash) {
      try {
        const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
        if (target) {
          target.scrollIntoView();
          return;
        }
      } catch {
        // Not a decodable element id: no element to scroll to.
      }
    }
    window.scrollTo(0, 0);
  }, [location, navigationType]);

  return null;
}

function readSaved(key: string): number | undefined {
  if (!(key in positions)) {
    // The first render runs before the mount effect has read what a reload left in sessionStorage.
    try {
      const stored = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}') as Record<string, number>;
      if (typeof stored[key] === 'number') positions[key] = stored[key];
    } catch {
      return undefined;
    }
  }
  return positions[key];
}
