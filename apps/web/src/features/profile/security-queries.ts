import type { SessionItem, TwoFactorStatus } from '@cohort/shared/security';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';

/** Profile → Security: the signed-in user's sessions and two-factor sign-in state. */
export const securityKeys = {
  all: ['security'] as const,
  sessions: () => [...securityKeys.all, 'sessions'] as const,
  twoFactor: () => [...securityKeys.all, 'two-factor'] as const,
};

export const sessionsQuery = queryOptions({
  queryKey: securityKeys.sessions(),
  queryFn: ({ signal }) => api.get<SessionItem[]>('/api/sessions', signal),
});

export const twoFactorQuery = queryOptions({
  queryKey: securityKeys.twoFactor(),
  queryFn: ({ signal }) => api.get<TwoFactorStatus>('/api/2fa', signal),
});
