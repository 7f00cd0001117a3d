import { type ComponentType, type ReactNode, useEffect, useState } from 'react';
import { useContentShown } from '../lib/first-content.ts';
import { loadToaster, onToasterLoaded } from '../lib/toast.ts';

/**
 * What every screen has: the toast live region (sonner, aria-live). The server-state cache is
 * app/session.tsx's <QueryScope>, around the screens that read the server (app/router.tsx).
 */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <>
      {children}
      <DeferredToaster />
    </>
  );
}

/**
 * sonner's <Toaster> (lib/toaster.tsx), fetched once the page has loaded (and its first content has
 * rendered, lib/first-content.ts) so it does not compete with the first screen's chunks. A toast requested earlier fetches it at once (lib/toast.ts), and a fetch
 * that failed (offline) is tried again by the next toast: the region mounts whenever the chunk arrives.
 */
function DeferredToaster() {
  const [Toaster, setToaster] = useState<ComponentType | null>(null);
  const contentShown = useContentShown();
  useEffect(() => onToasterLoaded((m) => setToaster(() => m.Toaster)), []);
  useEffect(() => {
    if (!contentShown) return;
    const load = () => {
      loadToaster().catch(() => {
        // Offline: the next toast tries again.
      });
    };
    if (document.readyState === 'complete') load();
    else window.addEventListener('load', load, { once: true });
    return () => window.removeEventListener('load', load);
  }, [contentShown]);
  return Toaster ? <Toaster /> : null;
}
