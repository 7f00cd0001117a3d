import type { AcceptInvitationResponse, MyInvitation } from '@cohort/shared/invitations';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';

export const invitationKeys = {
  all: ['invitations'] as const,
  mine: () => ['invitations', 'mine'] as const,
};

/** My pending invitations (empty until my address is verified): the page and the navbar count. */
export const myInvitationsQuery = queryOptions({
  queryKey: invitationKeys.mine(),
  queryFn: ({ signal }) => api.get<MyInvitation[]>('/api/invitations', signal),
});

/**
 * Accepting or declining changes my invitations, my workspaces (accepting joins one) and my
 * notifications (the invitation's goes with it).
 */
function useInvalidateAfterAnswer() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: invitationKeys.all }),
      queryClient.invalidateQueries({ queryKey: ['workspaces'] }),
      queryClient.invalidateQueries({ queryKey: ['notifications'] }),
    ]);
}

export function useAcceptInvitation() {
  const invalidate = useInvalidateAfterAnswer();
  return useMutation({
    mutationFn: (id: string) =>
      api.post<AcceptInvitationResponse>(`/api/invitations/${encodeURIComponent(id)}/accept`, {}),
    onSettled: invalidate,
  });
}

export function useDeclineInvitation() {
  const invalidate = useInvalidateAfterAnswer();
  return useMutation({
    mutationFn: (id: string) => api.post<null>(`/api/invitations/${encodeURIComponent(id)}/decline`, {}),
    onSettled: invalidate,
  });
}
