import {
  ACCOUNT_MESSAGES,
  PASSWORD_MIN_LENGTH,
  type ResetPasswordBody,
  type ResetPasswordResponse,
  resetPasswordBody,
} from '@cohort/shared/accounts';
import { useMutation } from '@tanstack/react-query';
import { LoaderCircle } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { PasswordField } from '../../components/ui/password-field.tsx';
import { ApiError, api } from '../../lib/api.ts';
import { type FieldErrors, fieldErrors, focusFirstInvalid } from '../../lib/form-errors.ts';
import { toast } from '../../lib/toast.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { AuthLayout } from './auth-layout.tsx';
import { passwordProblemOf, preloadPasswordCheck } from './password-check.ts';
import { useCompleteSignIn } from './use-complete-sign-in.ts';

/**
 * /reset-password?token=…, opened from the mailed link: a new password ends every session of the
 * account and signs in here — or, with two-factor sign-in on, sends the person to log in with a code.
 */
export default function ResetPasswordPage() {
  useDocumentTitle('Choose a new password');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const completeSignIn = useCompleteSignIn();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [checking, setChecking] = useState(false);
  const reset = useMutation({
    mutationFn: (body: ResetPasswordBody) =>
      api.post<ResetPasswordResponse>('/api/account/password/reset', body),
  });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const parsed = resetPasswordBody.safeParse({ token, password: data.get('password') });
    const next: FieldErrors = parsed.success ? {} : fieldErrors(parsed.error);
    if (data.get('confirmPassword') !== data.get('password') && !next.password) {
      next.confirmPassword = ACCOUNT_MESSAGES.passwordsDiffer;
    }
    if (!parsed.success || Object.keys(next).length > 0) {
      setErrors(next.token ? { form: next.token } : next);
      focusFirstInvalid(form);
      return;
    }
    setChecking(true);
    const weak = await passwordProblemOf(parsed.data.password, []).finally(() => setChecking(false));
    if (weak) {
      setErrors({ password: weak });
      focusFirstInvalid(form);
      return;
    }
    setErrors({});
    reset.mutate(parsed.data, {
      onSuccess: async (result) => {
        toast.success(result.message);
        if (result.token) {
          await completeSignIn();
        } else {
          navigate('/login', { replace: true });
        }
      },
      onError: (err) => {
        if (err instanceof ApiError && err.field === 'password') {
          setErrors({ password: err.message });
          focusFirstInvalid(form);
        } else {
          setErrors({
            form: err instanceof ApiError ? err.message : 'Something went wrong. Please try again',
          });
        }
      },
    });
  }

  return (
    <AuthLayout title="Choose a new password" subtitle="It signs out every session of your account.">
      <form noValidate onSubmit={onSubmit} className="space-y-5" aria-label="Choose a new password">
        <PasswordField
          label="New password"
          name="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          hint={`At least ${PASSWORD_MIN_LENGTH} characters, hard to guess: a few unrelated words work well.`}
          onFocus={preloadPasswordCheck}
          error={errors.password}
        />
        <PasswordField
          label="Confirm new password"
          name="confirmPassword"
          autoComplete="new-password"
          required
          error={errors.confirmPassword}
        />
        {errors.form && (
          <div role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
            <p>{errors.form}</p>
            <Link to="/forgot-password" className="mt-2 inline-block font-semibold underline">
              Ask for a new link
            </Link>
          </div>
        )}
        <Button type="submit" size="lg" className="w-full" disabled={reset.isPending || checking}>
          {(reset.isPending || checking) && (
            <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
          )}
          Set new password
        </Button>
      </form>
    </AuthLayout>
  );
}
