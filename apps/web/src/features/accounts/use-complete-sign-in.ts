import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { rememberUser } from '../../lib/storage.ts';
import { safeNext } from './safe-next.ts';
import { meQuery } from './use-me.ts';

/**
 * After the server set the session cookie: learn who we are (for the navbar and the display-only
 * `email` key) and go where the user was heading.
 */
export function useCompleteSignIn() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = params.get('next');

  return useCallback(
    async (fallbackEmail?: string) => {
      if (fallbackEmail) rememberUser({ email: fallbackEmail });
      try {
        const user = await queryClient.fetchQuery({ ...meQuery, staleTime: 0 });
        if (user) rememberUser(user);
      } catch {
        // The navbar retries on its own; the sign-in itself succeeded.
      }
      navigate(safeNext(next), { replace: true });
    },
    [queryClient, navigate, next],
  );
}
