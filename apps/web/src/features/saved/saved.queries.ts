import type { SavedIds } from '@cohort/shared/saved';
import type { SavedKind } from '@cohort/shared/saved.constants';
import { type QueryClient, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { useContentShown } from '../../lib/first-content.ts';

/**
 * Saved messages (issue 22): the caller's own. The message menus read the ids (to offer "Save for
 * later" or "Remove from saved"); the Saved page reads the list. A save or removal, ours or pushed
 * from another tab (`savedChanged`), refetches both.
 */

export const savedKeys = {
  all: ['saved'] as const,
  list: ['saved', 'list'] as const,
  ids: ['saved', 'ids'] as const,
};

export const savedIdsQuery = queryOptions({
  queryKey: savedKeys.ids,
  queryFn: ({ signal }) => api.get<SavedIds>('/api/saved/ids', signal),
  staleTime: 60_000,
});

export function refreshSaved(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: savedKeys.all });
}

/**
 * Whether each message of `kind` is saved, and a toggle that saves or removes it. The writing part
 * loads on first use (saved.actions.ts): it stays out of the channel page's first download.
 */
export function useSavedMessages(kind: SavedKind) {
  const queryClient = useQueryClient();
  // Only a message's toolbar shows it: read after a conversation's first page is on screen (issue 19).
  const ids = useQuery({ ...savedIdsQuery, enabled: useContentShown() });
  const saved = new Set(ids.data?.[kind] ?? []);
  /** Saves the message (`save`) or removes it from saved. */
  const set = (messageId: string, save: boolean) =>
    void import('./saved.actions.ts').then((m) => m.setSaved(queryClient, kind, messageId, save));
  return {
    isSaved: (messageId: string) => saved.has(messageId),
    set,
    toggle: (messageId: string) => set(messageId, !saved.has(messageId)),
  };
}
