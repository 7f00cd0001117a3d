import { SECURITY_MESSAGES } from '@cohort/shared/security.constants';
import { ShieldCheck } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from '../../components/ui/button.tsx';
import { ApiError } from '../../lib/api.ts';

/** Profile → Security, where two-factor sign-in is turned on (the profile page's section id). */
const SECURITY_PATH = '/profile#security';

/** The server's distinct refusal of a workspace that requires two-factor sign-in the caller has not turned on. */
export const isTwoFactorRequired = (error: unknown) =>
  error instanceof ApiError &&
  error.status === 403 &&
  error.message === SECURITY_MESSAGES.workspaceRequiresTwoFactor;

/** Shown instead of a workspace (or one of its pages) that requires two-factor sign-in. */
export function TwoFactorRequired({ compact = false }: { compact?: boolean }) {
  const Heading = compact ? 'h2' : 'h1';
  return (
    <div
      className={
        compact ? 'mt-8 rounded-lg bg-amber-50 px-6 py-6' : 'mx-auto max-w-xl px-4 py-24 text-center'
      }
    >
      <ShieldCheck
        aria-hidden="true"
        className={compact ? 'size-6 text-amber-800' : 'mx-auto size-10 text-indigo-700'}
      />
      <Heading role="alert" className="mt-3 text-2xl font-bold tracking-tight text-slate-900">
        This workspace requires two-factor sign-in
      </Heading>
      <p className="mt-3 text-slate-700">
        Its admins ask every member to confirm sign-ins with a code from an authenticator app. Turn on
        two-factor sign-in for your account, then open the workspace again.
      </p>
      <div className={compact ? 'mt-6 flex flex-wrap gap-3' : 'mt-8 flex flex-wrap justify-center gap-3'}>
        <Link to={SECURITY_PATH} className={buttonClasses('primary', 'md')}>
          Set it up in Profile → Security
        </Link>
        <Link to="/dashboard" className={buttonClasses('secondary', 'md')}>
          Your Workspaces
        </Link>
      </div>
    </div>
  );
}
