import { CircleAlert, CircleCheck, LoaderCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { ApiError } from '../../lib/api.ts';

/** What a mailed link did: working on it, done (with what next), or why it did not work. */
export function LinkResult({
  state,
  working,
  done,
  error,
  failed,
}: {
  state: 'pending' | 'success' | 'error' | 'idle';
  working: string;
  done: ReactNode;
  error: unknown;
  failed: ReactNode;
}) {
  if (state === 'success') {
    return (
      <div
        role="status"
        className="flex items-start gap-3 rounded-lg border border-emerald-200 bg-emerald-50 p-4"
      >
        <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-emerald-700" />
        <div className="text-sm text-emerald-900">{done}</div>
      </div>
    );
  }
  if (state === 'error') {
    const message =
      error instanceof ApiError
        ? error.message
        : 'Something went wrong. Check your connection and reload the page.';
    return (
      <div role="alert" className="flex items-start gap-3 rounded-lg border border-red-200 bg-red-50 p-4">
        <CircleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-red-700" />
        <div className="text-sm text-red-900">
          <p className="font-medium">{message}</p>
          {failed}
        </div>
      </div>
    );
  }
  return (
    <p role="status" className="flex items-center gap-2 text-slate-700">
      <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
      {working}
    </p>
  );
}
