import { switcherData } from '@cohort/shared/switcher';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';

/**
 * GET /api/switcher: every channel, person and workspace the quick switcher and the search box's
 * suggestions offer, fetched once and matched in the browser (no request per keystroke).
 */
export const switcherQuery = queryOptions({
  queryKey: ['switcher'] as const,
  queryFn: async ({ signal }) => switcherData.parse(await api.get<unknown>('/api/switcher', signal)),
  staleTime: 60_000,
});
