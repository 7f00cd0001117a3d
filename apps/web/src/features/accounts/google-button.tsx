import type { TokenResponse } from '@cohort/shared/accounts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef } from 'react';
import { ApiError, api } from '../../lib/api.ts';
import { toast } from '../../lib/toast.ts';
import { type GoogleCredentialResponse, loadGoogleIdentity } from './google-identity.ts';
import { useCompleteSignIn } from './use-complete-sign-in.ts';

type Mode = 'login' | 'signup';

const NOT_CONFIGURED = 'Google sign-in is not configured on this server';

const configQuery = queryOptions({
  queryKey: ['config'],
  queryFn: ({ signal }) => api.get<{ googleClientId: string | null }>('/api/config', signal),
  staleTime: Number.POSITIVE_INFINITY,
});

const endpoint: Record<Mode, string> = { login: '/api/google-login', signup: '/api/google-signup' };

function failureMessage(mode: Mode, err: unknown) {
  if (err instanceof ApiError) return `Error: ${err.message}`;
  // GIS reports popup problems (blocked, closed) inside its own UI, never to this page, so the spec's
  // popup-specific sign-up causes cannot occur here; what remains is "try again later".
  return mode === 'login'
    ? 'Google login failed. Please try again.'
    : 'Google signup failed. Please try again later.';
}

interface GoogleButtonProps {
  mode: Mode;
  /** Read when the credential arrives, so the login page's Remember me applies to Google too. */
  remember?: boolean;
}

export function GoogleButton({ mode, remember }: GoogleButtonProps) {
  const config = useQuery(configQuery);
  const clientId = config.data?.googleClientId;
  if (clientId) return <GoogleIdentityButton mode={mode} clientId={clientId} remember={remember} />;
  return <UnavailableGoogleButton mode={mode} checking={config.isPending} />;
}

function GoogleIdentityButton({ mode, clientId, remember }: GoogleButtonProps & { clientId: string }) {
  const container = useRef<HTMLDivElement>(null);
  const completeSignIn = useCompleteSignIn();
  // GIS keeps the first callback it is given; route it through a ref so it always sees fresh props.
  const onCredential = useRef<(response: GoogleCredentialResponse) => void>(() => {});
  onCredential.current = async ({ credential }) => {
    try {
      const result = await api.post<TokenResponse>(endpoint[mode], {
        credential,
        remember: remember === true,
      });
      toast.success(result.message);
      await completeSignIn();
    } catch (err) {
      toast.error(failureMessage(mode, err));
    }
  };

  useEffect(() => {
    let cancelled = false;
    loadGoogleIdentity()
      .then((google) => {
        const parent = container.current;
        if (cancelled || !parent) return;
        google.accounts.id.initialize({
          client_id: clientId,
          callback: (response) => onCredential.current(response),
          ux_mode: 'popup',
          context: mode === 'login' ? 'signin' : 'signup',
        });
        google.accounts.id.renderButton(parent, {
          type: 'standard',
          theme: 'outline',
          size: 'large',
          shape: 'rectangular',
          text: mode === 'login' ? 'signin_with' : 'signup_with',
          logo_alignment: 'left',
          width: Math.min(400, parent.clientWidth || 320),
        });
      })
      .catch(() => {
        if (!cancelled) toast.error(failureMessage(mode, null));
      });
    return () => {
      cancelled = true;
    };
  }, [clientId, mode]);

  return <div ref={container} className="flex min-h-11 justify-center" />;
}

function UnavailableGoogleButton({ mode, checking }: { mode: Mode; checking: boolean }) {
  const descriptionId = useId();
  const label = mode === 'login' ? 'Sign in with Google' : 'Sign up with Google';
  return (
    <div className="group relative">
      {/* aria-disabled rather than disabled: the button stays focusable so keyboard users hear why. */}
      <button
        type="button"
        aria-disabled="true"
        aria-describedby={checking ? undefined : descriptionId}
        title={checking ? undefined : NOT_CONFIGURED}
        onClick={(event) => event.preventDefault()}
        className="flex w-full cursor-not-allowed items-center justify-center gap-3 rounded-lg border border-slate-200 bg-slate-100 px-4 py-2.5 text-sm font-semibold text-slate-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 [&>svg]:opacity-50 [&>svg]:grayscale"
      >
        <GoogleLogo />
        {label}
      </button>
      {!checking && (
        <p
          id={descriptionId}
          role="tooltip"
          className="invisible absolute top-full left-1/2 z-10 mt-2 w-max max-w-xs -translate-x-1/2 rounded-md bg-slate-900 px-3 py-1.5 text-xs text-white shadow-lg group-focus-within:visible"
        >
          {NOT_CONFIGURED}
        </p>
      )}
    </div>
  );
}

function GoogleLogo() {
  return (
    <svg aria-hidden="true" viewBox="0 0 48 48" className="size-5">
      <path
        fill="#EA4335"
        d="M24 9.5c3.54 0 6.71 1.22 9.21 3.6l6.85-6.85C35.9 2.38 30.47 0 24 0 14.62 0 6.51 5.38 2.56 13.22l7.98 6.19C12.43 13.72 17.74 9.5 24 9.5z"
      />
      <path
        fill="#4285F4"
        d="M46.98 24.55c0-1.57-.15-3.09-.38-4.55H24v9.02h12.94c-.58 2.96-2.26 5.48-4.78 7.18l7.73 6c4.51-4.18 7.09-10.36 7.09-17.65z"
      />
      <path
        fill="#FBBC05"
        d="M10.53 28.59c-.48-1.45-.76-2.99-.76-4.59s.27-3.14.76-4.59l-7.98-6.19C.92 16.46 0 20.12 0 24c0 3.88.92 7.54 2.56 10.78l7.97-6.19z"
      />
      <path
        fill="#34A853"
        d="M24 48c6.48 0 11.93-2.13 15.89-5.81l-7.73-6c-2.15 1.45-4.92 2.3-8.16 2.3-6.26 0-11.57-4.22-13.47-9.91l-7.98 6.19C6.51 42.62 14.62 48 24 48z"
      />
    </svg>
  );
}
