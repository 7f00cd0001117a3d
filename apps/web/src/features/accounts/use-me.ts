import type { MeResponse, MeUser } from '@cohort/shared/accounts';
import { queryOptions, useQuery } from '@tanstack/react-query';
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
