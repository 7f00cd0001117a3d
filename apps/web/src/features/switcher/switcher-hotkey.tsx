import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { destinationOfLocation, recordRecent } from './recent.ts';

// The dialog, the matcher and the schemas load on the first Ctrl/Cmd+K, not with any page (issue 21).
const QuickSwitcher = lazy(() => import('./quick-switcher.tsx').then((m) => ({ default: m.QuickSwitcher })));

const isMac = () => /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/**
 * On every signed-in page (app/session.tsx): Ctrl+K (Cmd+K on macOS) toggles the quick switcher, even
 * from the composer or another text field (the browser's own binding is prevented), and each channel,
 * direct conversation or workspace page visited goes to the front of the recent destinations.
 */
export function SwitcherHotkey({ userId }: { userId: string }) {
  const [open, setOpen] = useState(false);
  const { pathname, search } = useLocation();

  useEffect(() => {
    const key = destinationOfLocation(pathname, search);
    if (key) recordRecent(userId, 'destinations', key);
  }, [pathname, search, userId]);

  useEffect(() => {
    const mac = isMac();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'k' && event.key !== 'K') return;
      if (event.altKey || event.shiftKey || !(mac ? event.metaKey : event.ctrlKey)) return;
      event.preventDefault();
      event.stopPropagation();
      if (!event.repeat) setOpen((o) => !o);
    };
    // Capture: before any field's own handler sees the key.
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, []);

  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <QuickSwitcher userId={userId} onClose={() => setOpen(false)} />
    </Suspense>
  );
}
