import { ACCOUNT_MESSAGES, PASSWORD_MIN_LENGTH, type SignupBody, signupBody } from '@cohort/shared/accounts';
import { useMutation } from '@tanstack/react-query';
import { CircleCheck, LoaderCircle } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { CheckboxField } from '../../components/ui/checkbox-field.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { PasswordField } from '../../components/ui/password-field.tsx';
import { ApiError, api } from '../../lib/api.ts';
import { type FieldErrors, fieldErrors, focusFirstInvalid } from '../../lib/form-errors.ts';
import { toast } from '../../lib/toast.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { AuthLayout, OrDivider } from './auth-layout.tsx';
import { GoogleButton } from './google-button.tsx';
import { passwordProblemOf, preloadPasswordCheck } from './password-check.ts';

const TERMS_REQUIRED = 'Please accept the Terms of Service and Privacy Policy';

export default function SignupPage() {
  useDocumentTitle('Sign up');
  const [params] = useSearchParams();
  const [errors, setErrors] = useState<FieldErrors>({});
  // The address the verification link went to, once the account exists.
  const [created, setCreated] = useState<string | null>(null);
  const signup = useMutation({
    mutationFn: (body: SignupBody) => api.post<{ message: string }>('/api/signup', body),
  });

  const [checking, setChecking] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    setCreated(null);

    // As the spec says: differing passwords are refused before anything else, and nothing is sent.
    if (data.get('password') !== data.get('confirmPassword')) {
      toast.error(ACCOUNT_MESSAGES.passwordsDiffer);
      setErrors({});
      return;
    }
    const parsed = signupBody.safeParse({
      firstName: data.get('firstName'),
      lastName: data.get('lastName'),
      email: data.get('email'),
      password: data.get('password'),
    });
    const nextErrors: FieldErrors = parsed.success ? {} : fieldErrors(parsed.error);
    if (data.get('terms') !== 'on') nextErrors.terms = TERMS_REQUIRED;
    if (!parsed.success || nextErrors.terms) {
      setErrors(nextErrors);
      focusFirstInvalid(form);
      return;
    }
    // The server's strength rule, checked here first so the reason shows under the field.
    setChecking(true);
    const weak = await passwordProblemOf(parsed.data.password, [
      parsed.data.email,
      parsed.data.firstName,
      parsed.data.lastName,
    ]).finally(() => setChecking(false));
    if (weak) {
      setErrors({ password: weak });
      focusFirstInvalid(form);
      return;
    }
    setErrors({});
    signup.mutate(parsed.data, {
      onSuccess: (result) => {
        toast.success(result.message);
        // Signing up does not sign in (spec §4): confirm, clear the form and point to the log-in page.
        form.reset();
        setCreated(parsed.data.email);
      },
      onError: (err) => {
        if (err instanceof ApiError) {
          // Once: under its field when the server names one, else as a toast.
          if (err.field) setErrors({ [err.field]: err.message });
          else toast.error(`Error: ${err.message}`);
        } else {
          toast.error('Something went wrong. Please try again');
        }
      },
    });
  }

  const next = params.get('next');
  const loginHref = next ? `/login?next=${encodeURIComponent(next)}` : '/login';

  return (
    <AuthLayout title="Create your account" subtitle="Free forever for small teams. No credit card needed.">
      <GoogleButton mode="signup" />
      <OrDivider />
      {created && (
        <div
          role="status"
          className="mb-5 flex items-start gap-3 rounded-lg border border-emerald-200 bg-emerald-50 p-4"
        >
          <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-emerald-700" />
          <p className="text-sm text-emerald-900">
            Your account is ready. We sent a link to{' '}
            <span className="font-semibold break-all">{created}</span> to verify your address.{' '}
            <Link to={loginHref} className="font-semibold underline">
              Log in to get started
            </Link>
            .
          </p>
        </div>
      )}
      <form noValidate onSubmit={onSubmit} className="space-y-5">
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField
            label="First name"
            name="firstName"
            autoComplete="given-name"
            required
            error={errors.firstName}
          />
          <TextField
            label="Last name"
            name="lastName"
            autoComplete="family-name"
            required
            error={errors.lastName}
          />
        </div>
        <TextField
          label="E-mail"
          name="email"
          type="email"
          autoComplete="email"
          required
          error={errors.email}
        />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          hint={`At least ${PASSWORD_MIN_LENGTH} characters, hard to guess: a few unrelated words work well.`}
          onFocus={preloadPasswordCheck}
          error={errors.password}
        />
        <PasswordField
          label="Confirm password"
          name="confirmPassword"
          autoComplete="new-password"
          required
          error={errors.confirmPassword}
        />
        <CheckboxField
          name="terms"
          required
          error={errors.terms}
          label="I accept the Terms of Service and Privacy Policy"
        />
        <Button type="submit" size="lg" className="w-full" disabled={signup.isPending || checking}>
          {(signup.isPending || checking) && (
            <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
          )}
          Create Account
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-slate-600">
        Already have an account?{' '}
        <Link to={loginHref} className="font-semibold text-indigo-700 hover:text-indigo-900">
          Log in
        </Link>
      </p>
    </AuthLayout>
  );
}
