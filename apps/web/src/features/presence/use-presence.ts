import type {
  PersonPresence,
  PresenceChangedEvent,
  PresenceStatus,
  WorkspacePresence,
} from '@cohort/shared/presence';
import { PRESENCE_EVENTS, PRESENCE_NAMESPACE } from '@cohort/shared/presence.constants';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { ApiError, api } from '../../lib/api.ts';
import { openLive } from '../../lib/live.ts';
import { type ActivityOptions, watchActivity } from './activity.ts';
import {
  applyPresenceChange,
  applyPresenceSnapshot,
  presenceOf,
  subscribePresence,
} from './presence-store.ts';

export const presenceKeys = {
  all: ['presence'] as const,
  workspace: (name: string) => [...presenceKeys.all, 'workspace', name.toLowerCase()] as const,
  person: (email: string) => [...presenceKeys.all, 'person', email.toLowerCase()] as const,
};

/**
 * For a signed-in user, on every page: one `/presence` connection that counts this tab as present,
 * reports whether the person is active here, and hears the changes of the people who share a
 * workspace with them. After a reconnection the statuses are fetched again (changes may have been
 * missed meanwhile).
 */
export function usePresenceConnection(userId: string | undefined, options?: ActivityOptions) {
  const queryClient = useQueryClient();
  const idleAfterMs = options?.idleAfterMs;
  const hiddenIdleAfterMs = options?.hiddenIdleAfterMs;
  useEffect(() => {
    if (!userId) return;
    return openLive(PRESENCE_NAMESPACE, (socket) => {
      const activity = watchActivity((state) => socket.emit(PRESENCE_EVENTS.activity, { state }), {
        ...(idleAfterMs === undefined ? {} : { idleAfterMs }),
        ...(hiddenIdleAfterMs === undefined ? {} : { hiddenIdleAfterMs }),
      });
      const onChanged = (event: PresenceChangedEvent) => applyPresenceChange(event.userId, event.status);
      let connectedBefore = false;
      const onConnect = () => {
        // The server counts a new tab as active; an idle one says so.
        if (activity.current() === 'idle') socket.emit(PRESENCE_EVENTS.activity, { state: 'idle' });
        if (connectedBefore) void queryClient.invalidateQueries({ queryKey: presenceKeys.all });
        connectedBefore = true;
      };
      socket.on(PRESENCE_EVENTS.changed, onChanged);
      socket.on('connect', onConnect);
      return () => {
        activity.stop();
        socket.off(PRESENCE_EVENTS.changed, onChanged);
        socket.off('connect', onConnect);
      };
    });
  }, [userId, queryClient, idleAfterMs, hiddenIdleAfterMs]);
}

/** A user's status as this tab knows it (undefined: not known yet). */
export function usePresence(userId: string | undefined): PresenceStatus | undefined {
  const get = useCallback(() => (userId ? presenceOf(userId) : undefined), [userId]);
  return useSyncExternalStore(subscribePresence, get);
}

/** Seeds the statuses of a workspace's members (a member list calls it, then reads `usePresence`). */
export function useWorkspacePresence(workspaceName: string) {
  return useQuery({
    queryKey: presenceKeys.workspace(workspaceName),
    queryFn: async ({ signal }) => {
      const requestedAt = performance.now();
      const statuses = await api.get<WorkspacePresence>(
        `/api/workspaces/${encodeURIComponent(workspaceName)}/presence`,
        signal,
      );
      applyPresenceSnapshot(Object.entries(statuses), requestedAt);
      return statuses;
    },
  });
}

/**
 * One person's status by e-mail (a DM header). Null when the server shows none: someone who shares
 * no workspace with the caller.
 */
export function usePersonPresence(email: string): PresenceStatus | null | undefined {
  const person = useQuery({
    queryKey: presenceKeys.person(email),
    queryFn: async ({ signal }): Promise<PersonPresence | null> => {
      const requestedAt = performance.now();
      try {
        const answer = await api.get<PersonPresence>(`/api/presence/${encodeURIComponent(email)}`, signal);
        applyPresenceSnapshot([[answer.userId, answer.status]], requestedAt);
        return answer;
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }
    },
  });
  const live = usePresence(person.data?.userId);
  if (person.data === null) return null;
  return live ?? person.data?.status;
}
