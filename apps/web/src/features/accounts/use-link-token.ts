import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { api } from '../../lib/api.ts';

/**
 * Posts the `?token=` of a mailed link to `path` once, when the page opens. The link itself is a
 * plain GET of the web app: opening it changes nothing until this script asks (mail scanners that
 * prefetch links do not use them up).
 */
export function useLinkToken(path: string, onDone?: () => Promise<void> | void) {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const sent = useRef(false);
  const submit = useMutation({
    mutationFn: (body: { token: string }) => api.post<{ message: string }>(path, body),
    onSuccess: async () => {
      await onDone?.();
    },
  });
  const { mutate } = submit;
  useEffect(() => {
    // Once, even when React runs effects twice in development: a second post would say "already used".
    if (sent.current) return;
    sent.current = true;
    mutate({ token });
  }, [mutate, token]);
  return submit;
}
