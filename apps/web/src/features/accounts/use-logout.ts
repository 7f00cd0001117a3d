import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { ApiError, api } from '../../lib/api.ts';
import { forgetUser } from '../../lib/storage.ts';
import { toast } from '../../lib/toast.ts';
import { meQueryKey } from './use-me.ts';

export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => api.post<{ message: string }>('/api/logout'),
    onSuccess: async () => {
      forgetUser();
      // Nothing cached for the previous user may leak into the next session on this browser.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== meQueryKey[0] });
      queryClient.setQueryData(meQueryKey, null);
      await queryClient.invalidateQueries({ queryKey: meQueryKey });
      navigate('/login');
    },
    onError: (err) => {
      toast.error(err instanceof ApiError ? err.message : 'Something went wrong!');
    },
  });
}
