import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { useMe } from './use-me.ts';

/** Wraps a protected screen: signed-out visitors go to /login and come back here afterwards. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const location = useLocation();
  const me = useMe();

  if (me.isPending) {
    return (
      <p role="status" className="px-4 py-24 text-center text-slate-600">
        Loading...
      </p>
    );
  }
  if (me.isError) {
    return (
      <div role="alert" className="px-4 py-24 text-center text-slate-700">
        <p>Something went wrong while checking your session.</p>
        <Button variant="secondary" className="mt-4" onClick={() => me.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  if (!me.data) {
    const next = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={`/login?next=${encodeURIComponent(next)}`} replace />;
  }
  return children;
}
