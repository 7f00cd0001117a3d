import type { SavedIds } from '@cohort/shared/saved';
import type { SavedKind } from '@cohort/shared/saved.constants';
import type { QueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast.ts';
import { refreshSaved, savedKeys } from './saved.queries.ts';

const savedPath = (kind: SavedKind, messageId: string) =>
  `/api/saved/${kind}/${encodeURIComponent(messageId)}`;

/**
 * Saves a message for later (`save`) or removes it: shown at once in the menus, said in a toast,
 * then confirmed by refetching (and undone by it when the server refused).
 */
export async function setSaved(queryClient: QueryClient, kind: SavedKind, messageId: string, save: boolean) {
  queryClient.setQueryData<SavedIds>(savedKeys.ids, (old) => {
    const base = old ?? { channel: [], direct: [] };
    const rest = base[kind].filter((id) => id !== messageId);
    return { ...base, [kind]: save ? [...rest, messageId] : rest };
  });
  try {
    if (save) await api.put<unknown>(savedPath(kind, messageId));
    else await api.delete<unknown>(savedPath(kind, messageId));
    toast.success(save ? 'Saved for later' : 'Removed from saved');
  } catch (err) {
    const what = save ? 'The message could not be saved' : 'The message could not be removed';
    toast.error(`${what}: ${err instanceof Error ? err.message : 'try again'}`);
  } finally {
    await refreshSaved(queryClient);
  }
}
