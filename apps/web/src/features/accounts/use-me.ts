import type { MeResponse, MeUser } from '@cohort/shared/accounts';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, api } from '../../lib/api.ts';

export const meQueryKey = ['me'] as const;

/** Who is signed in, according to the server session. 401 means "signed out", not an error. */
export const meQuery = queryOptions({
  queryKey: meQueryKey,
  queryFn: async ({ signal }): Promise<MeUser | null> => {
    try {
      const { user } = await api.get<MeResponse>('/api/me', signal);
      return user;
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return null;
      throw err;
    }
  },
  staleTime: 60_000,
});

export function useMe() {
  return useQuery(meQuery);
}

/**
 * Reads the session again after the account changed on the server. A read still in flight may have
 * been answered before the change, and TanStack Query hands a first read's pending promise to anyone
 * who asks again: cancel it, so the answer comes from a request sent now.
 */
export async function refreshMe(queryClient: QueryClient): Promise<MeUser | null> {
  await queryClient.cancelQueries({ queryKey: meQueryKey });
  return queryClient.fetchQuery({ ...meQuery, staleTime: 0 });
}
