import { type SearchResults, searchResults } from '@cohort/shared/search';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';

/** GET /api/search, page by page (later pages carry messages only). */
export const searchQuery = (q: string) =>
  infiniteQueryOptions({
    queryKey: ['search', q] as const,
    initialPageParam: '',
    queryFn: async ({ pageParam, signal }): Promise<SearchResults> => {
      const params = new URLSearchParams({ q });
      if (pageParam) params.set('cursor', pageParam);
      return searchResults.parse(await api.get<unknown>(`/api/search?${params}`, signal));
    },
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled: q.trim().length > 0,
  });

/** Where a message hit opens: its channel (or conversation) loaded around it. */
export function messageLink(hit: SearchResults['messages'][number]): string {
  const at = new URLSearchParams({ message: hit._id, seq: String(hit.seq) });
  if (hit.kind === 'channel') {
    return `/workspace/${encodeURIComponent(hit.workspace.name)}/channel/${encodeURIComponent(hit.channel._id)}?${at}`;
  }
  return `/chat?${new URLSearchParams({ with: hit.with.email, message: hit._id, seq: String(hit.seq) })}`;
}
