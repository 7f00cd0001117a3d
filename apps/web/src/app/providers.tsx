import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Toaster } from 'sonner';
import { ApiError } from '../lib/api.ts';

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
      {/* Bottom right, where a toast covers no navigation or heading; on a phone, above the composer. */}
      <Toaster position="bottom-right" closeButton mobileOffset={{ bottom: '6rem' }} />
    </QueryClientProvider>
  );
}
