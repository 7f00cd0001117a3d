import type { Person } from '@cohort/shared/people';
import { queryOptions } from '@tanstack/react-query';
import { ApiError, api } from '../../lib/api.ts';
import { loadLive } from '../../lib/live.ts';

/**
 * The people I may message and call (packages/shared/src/people.ts). A person's query answers null
 * when they share no workspace with me (or nobody uses the address): the server's 404.
 */

export const peopleKeys = {
  all: ['people'] as const,
  person: (email: string) => ['people', 'person', email.toLowerCase()] as const,
  search: (q: string) => ['people', 'search', q.trim().toLowerCase()] as const,
};

export const personQuery = (email: string) =>
  queryOptions({
    queryKey: peopleKeys.person(email),
    queryFn: async ({ signal }): Promise<Person | null> => {
      try {
        const [{ person }, raw] = await Promise.all([
          loadLive(),
          api.get<unknown>(`/api/people/${encodeURIComponent(email)}`, signal),
        ]);
        return person.parse(raw);
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }
    },
    staleTime: 60_000,
  });

export const peopleSearchQuery = (q: string, limit = 8) =>
  queryOptions({
    queryKey: [...peopleKeys.search(q), limit],
    queryFn: async ({ signal }) => {
      const [{ personList }, raw] = await Promise.all([
        loadLive(),
        api.get<unknown>(`/api/people?${new URLSearchParams({ q: q.trim(), limit: String(limit) })}`, signal),
      ]);
      return personList.parse(raw);
    },
    staleTime: 30_000,
  });

/** Where a person's direct conversation opens (the /chat page reads `with`). */
export const chatWithUrl = (email: string) => `/chat?${new URLSearchParams({ with: email })}`;
