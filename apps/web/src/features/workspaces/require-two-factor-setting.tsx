import {
  SECURITY_MESSAGES,
  type WorkspaceTwoFactorBody,
  type WorkspaceTwoFactorResponse,
} from '@cohort/shared/security';
import type { WorkspaceDetail } from '@cohort/shared/workspaces';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { LoaderCircle } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { ApiError, api } from '../../lib/api.ts';
import { toast } from '../../lib/toast.ts';

const path = (name: string) => `/api/workspaces/${encodeURIComponent(name)}/two-factor`;

/**
 * Workspace settings → "Require two-factor sign-in" (admins). Members without it are refused the
 * workspace until they turn it on; only an admin with two-factor sign-in on can require it.
 */
export function RequireTwoFactorSetting({ workspace }: { workspace: WorkspaceDetail }) {
  const queryClient = useQueryClient();
  const key = ['workspaces', 'two-factor', workspace.name.toLowerCase()];
  const setting = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api.get<WorkspaceTwoFactorResponse>(path(workspace.name), signal),
  });
  const [error, setError] = useState<string>();
  const save = useMutation({
    mutationFn: (body: WorkspaceTwoFactorBody) =>
      api.put<WorkspaceTwoFactorResponse>(path(workspace.name), body),
    onSuccess: (data) => queryClient.setQueryData(key, data),
  });

  function toggle(required: boolean) {
    setError(undefined);
    save.mutate(
      { required },
      {
        onSuccess: () =>
          toast.success(
            required ? 'Two-factor sign-in is now required' : 'Two-factor sign-in is no longer required',
          ),
        onError: (err) =>
          setError(err instanceof ApiError ? err.message : 'Something went wrong. Please try again'),
      },
    );
  }

  return (
    <section
      aria-labelledby="two-factor-heading"
      className="mt-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id="two-factor-heading" className="text-lg font-semibold text-slate-900">
        Two-factor sign-in
      </h2>
      {setting.isPending ? (
        <p role="status" className="mt-2 text-slate-600">
          Loading...
        </p>
      ) : setting.isError ? (
        // Not an alert: a secondary setting that failed to load must not shout over the page's own errors.
        <p className="mt-2 font-medium text-red-800">Failed to load this setting</p>
      ) : (
        <>
          <p className="mt-1 text-sm text-slate-600">
            {setting.data.required
              ? 'Required: members without two-factor sign-in cannot open this workspace until they turn it on.'
              : 'Not required. When required, members must turn on two-factor sign-in before they can open this workspace.'}{' '}
            {setting.data.membersWithout === 1
              ? '1 member has not turned it on.'
              : `${setting.data.membersWithout} members have not turned it on.`}
          </p>
          {error && (
            <p role="alert" className="mt-3 text-sm font-medium text-red-700">
              {error}
              {error === SECURITY_MESSAGES.enableYoursFirst && (
                <>
                  {' '}
                  <Link to="/profile#security" className="underline">
                    Profile → Security
                  </Link>
                </>
              )}
            </p>
          )}
          <Button
            variant={setting.data.required ? 'secondary' : 'primary'}
            size="sm"
            className="mt-4"
            disabled={save.isPending}
            onClick={() => toggle(!setting.data.required)}
          >
            {save.isPending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
            {setting.data.required ? 'Stop requiring two-factor sign-in' : 'Require two-factor sign-in'}
          </Button>
        </>
      )}
    </section>
  );
}
