import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ComponentType, type ReactNode, useEffect, useState } from 'react';
import { ApiError } from '../lib/api.ts';
import { loadToaster, onToasterLoaded } from '../lib/toast.ts';

export function createQueryClient() {
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

/** Everything every screen needs: server-state cache and the toast live region (sonner, aria-live). */
export function Providers({ client, children }: { client: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={client}>
      {children}
      <DeferredToaster />
    </QueryClientProvider>
  );
}

/**
 * sonner's <Toaster> (lib/toaster.tsx), fetched once the page has loaded so it does not compete with
 * the first screen's chunks. A toast requested earlier fetches it at once (lib/toast.ts), and a fetch
 * that failed (offline) is tried again by the next toast: the region mounts whenever the chunk arrives.
 */
function DeferredToaster() {
  const [Toaster, setToaster] = useState<ComponentType | null>(null);
  useEffect(() => {
    const unsubscribe = onToasterLoaded((m) => setToaster(() => m.Toaster));
    const load = () => {
      loadToaster().catch(() => {
        // Offline: the next toast tries again.
      });
    };
    if (document.readyState === 'complete') load();
    else window.addEventListener('load', load, { once: true });
    return () => {
      unsubscribe();
      window.removeEventListener('load', load);
    };
  }, []);
  return Toaster ? <Toaster /> : null;
}
