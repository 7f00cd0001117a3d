import { useSyncExternalStore } from 'react';

export type Theme = 'light' | 'dark';

/** Chosen in the Taskboard's settings, kept per user in this browser; it applies to the whole app. */
const themeKey = (email: string | undefined) => `taskboardTheme:${email ?? ''}`;
const CHANGED = 'cohort-theme-changed';

export function readTheme(email: string | undefined): Theme {
  try {
    return localStorage.getItem(themeKey(email)) === 'dark' ? 'dark' : 'light';
  } catch {
    return 'light';
  }
}

export function writeTheme(email: string | undefined, theme: Theme) {
  try {
    localStorage.setItem(themeKey(email), theme);
  } catch {
    // The theme then lasts until the next read (this page only).
  }
  window.dispatchEvent(new Event(CHANGED));
}

function subscribe(onChange: () => void) {
  // This tab's changes, and other tabs' (the storage event).
  window.addEventListener(CHANGED, onChange);
  window.addEventListener('storage', onChange);
  return () => {
    window.removeEventListener(CHANGED, onChange);
    window.removeEventListener('storage', onChange);
  };
}

/** The signed-in user's theme, following changes made in any tab. */
export function useTheme(email: string | undefined): Theme {
  return useSyncExternalStore(
    subscribe,
    () => readTheme(email),
    () => 'light',
  );
}
