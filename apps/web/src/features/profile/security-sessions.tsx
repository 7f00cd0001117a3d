import type { RevokeOthersResponse, SessionItem } from '@cohort/shared/security';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { LoaderCircle, LogOut } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { ApiError, api } from '../../lib/api.ts';
import { dateTimeLabel } from '../../lib/chat-time.ts';
import { toast } from '../../lib/toast.ts';
import { securityKeys, sessionsQuery } from './security-queries.ts';

const formatTime = (iso: string) => dateTimeLabel(new Date(iso));

const errorText = (err: unknown) =>
  err instanceof ApiError ? err.message : 'Something went wrong. Please try again';

/**
 * Where the account is signed in: device, address, when it signed in and was last active. Any other
 * session can be signed out (its open tabs and sockets close at once); this one signs out with Log out.
 */
export function SecuritySessions() {
  const queryClient = useQueryClient();
  const sessions = useQuery(sessionsQuery);
  const [error, setError] = useState<string>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: securityKeys.sessions() });
  const revoke = useMutation({
    mutationFn: (session: SessionItem) =>
      api.delete<null>(`/api/sessions/${encodeURIComponent(session._id)}`),
    onSettled: refresh,
  });
  const revokeOthers = useMutation({
    mutationFn: () => api.post<RevokeOthersResponse>('/api/sessions/revoke-others'),
    onSettled: refresh,
  });

  function onRevoke(session: SessionItem) {
    setError(undefined);
    revoke.mutate(session, {
      onSuccess: () => toast.success(`Signed out ${session.device}`),
      onError: (err) => setError(errorText(err)),
    });
  }

  function onRevokeOthers() {
    setError(undefined);
    revokeOthers.mutate(undefined, {
      onSuccess: (res) => toast.success(res.message),
      onError: (err) => setError(errorText(err)),
    });
  }

  const others = sessions.data?.filter((s) => !s.current).length ?? 0;

  return (
    <div className="mt-8 border-t border-slate-200 pt-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h3 className="font-semibold text-slate-900">Where you are signed in</h3>
          <p className="mt-1 text-sm text-slate-600">Sign out any session you do not recognise.</p>
        </div>
        <Button
          variant="secondary"
          size="sm"
          onClick={onRevokeOthers}
          disabled={others === 0 || revokeOthers.isPending}
        >
          {revokeOthers.isPending ? (
            <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
          ) : (
            <LogOut aria-hidden="true" className="size-4" />
          )}
          Sign out everywhere else
        </Button>
      </div>
      {error && (
        <p role="alert" className="mt-4 rounded-lg bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
          {error}
        </p>
      )}
      {sessions.isPending ? (
        <p role="status" className="mt-4 text-slate-600">
          Loading sessions...
        </p>
      ) : sessions.isError ? (
        <p role="alert" className="mt-4 font-medium text-red-800">
          Failed to load your sessions
        </p>
      ) : (
        <div className="relative mt-4 overflow-x-auto">
          <table className="w-full min-w-[36rem] text-left text-sm">
            <caption className="sr-only">Your sessions</caption>
            <thead className="border-y border-slate-200 bg-slate-50 text-xs tracking-wide text-slate-600 uppercase">
              <tr>
                <th scope="col" className="px-3 py-2 font-semibold">
                  Device
                </th>
                <th scope="col" className="px-3 py-2 font-semibold">
                  IP address
                </th>
                <th scope="col" className="px-3 py-2 font-semibold">
                  Signed in
                </th>
                <th scope="col" className="px-3 py-2 font-semibold">
                  Last active
                </th>
                <th scope="col" className="px-3 py-2 text-right font-semibold">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {sessions.data.map((session) => (
                <tr key={session._id}>
                  <th scope="row" className="px-3 py-3 font-medium text-slate-900">
                    {session.device}
                    {session.current && (
                      <span className="ml-2 rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-900">
                        This device
                      </span>
                    )}
                  </th>
                  <td className="px-3 py-3 break-all text-slate-700">{session.ip ?? 'Unknown'}</td>
                  <td className="px-3 py-3 text-slate-700">{formatTime(session.createdAt)}</td>
                  <td className="px-3 py-3 text-slate-700">{formatTime(session.lastActiveAt)}</td>
                  <td className="px-3 py-3 text-right">
                    {!session.current && (
                      <Button
                        variant="ghost"
                        size="sm"
                        aria-label={`Revoke ${session.device}, signed in ${formatTime(session.createdAt)}`}
                        disabled={revoke.isPending && revoke.variables?._id === session._id}
                        onClick={() => onRevoke(session)}
                      >
                        Revoke
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
