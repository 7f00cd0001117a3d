import { type LoginTwoFactorBody, loginTwoFactorBody, type TokenResponse } from '@cohort/shared/accounts';
import { SECURITY_MESSAGES } from '@cohort/shared/security';
import { useMutation } from '@tanstack/react-query';
import { LoaderCircle } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { ApiError, api } from '../../lib/api.ts';
import { toast } from '../../lib/toast.ts';
import { useCompleteSignIn } from './use-complete-sign-in.ts';

/**
 * The second step of a password sign-in when the account has two-factor sign-in on: the server
 * answered the password with a challenge (no session yet), redeemed here with a code. Success then
 * completes sign-in exactly like a plain login.
 */
export function LoginTwoFactorStep(props: {
  email: string;
  challenge: string;
  remember: boolean;
  /** Back to the password form (a new challenge is needed once this one expired). */
  onRestart: (message?: string) => void;
}) {
  const completeSignIn = useCompleteSignIn();
  const [error, setError] = useState<string>();
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    formRef.current?.querySelector('input')?.focus();
  }, []);
  const verify = useMutation({
    mutationFn: (body: LoginTwoFactorBody) => api.post<TokenResponse>('/api/login/two-factor', body),
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const parsed = loginTwoFactorBody.safeParse({
      challenge: props.challenge,
      code: data.get('code'),
      remember: props.remember,
    });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? SECURITY_MESSAGES.codeRequired);
      formRef.current?.querySelector('input')?.focus();
      return;
    }
    setError(undefined);
    verify.mutate(parsed.data, {
      onSuccess: async (result) => {
        toast.success(result.message);
        await completeSignIn(props.email);
      },
      onError: (err) => {
        if (err instanceof ApiError && err.message === SECURITY_MESSAGES.challengeExpired) {
          props.onRestart(err.message);
          return;
        }
        setError(err instanceof ApiError ? err.message : 'Something went wrong. Please try again');
        formRef.current?.querySelector('input')?.select();
      },
    });
  }

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} aria-label="Two-factor sign-in" className="space-y-5">
      <p className="text-sm text-slate-700">
        Signing in as <span className="font-medium break-all text-slate-900">{props.email}</span>.
      </p>
      <TextField
        label="Authentication code"
        name="code"
        autoComplete="one-time-code"
        inputMode="text"
        spellCheck={false}
        required
        error={error}
        hint="Enter the 6-digit code from your authenticator app, or a recovery code."
      />
      <Button type="submit" size="lg" className="w-full" disabled={verify.isPending}>
        {verify.isPending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
        Verify
      </Button>
      <button
        type="button"
        onClick={() => props.onRestart()}
        className="w-full rounded text-center text-sm font-semibold text-indigo-700 hover:text-indigo-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      >
        Back to the password
      </button>
    </form>
  );
}
