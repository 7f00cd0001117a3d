import { type LoginBody, type LoginResponse, loginBody } from '@cohort/shared/accounts';
import { useMutation } from '@tanstack/react-query';
import { LoaderCircle } from 'lucide-react';
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
import { LoginTwoFactorStep } from './login-two-factor-step.tsx';
import { useCompleteSignIn } from './use-complete-sign-in.ts';

export default function LoginPage() {
  useDocumentTitle('Log in');
  const [params] = useSearchParams();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [remember, setRemember] = useState(false);
  // Set when the password was right and the account asks for a code (two-factor sign-in).
  const [twoFactor, setTwoFactor] = useState<{ email: string; challenge: string } | null>(null);
  const completeSignIn = useCompleteSignIn();
  const login = useMutation({
    mutationFn: (body: LoginBody) => api.post<LoginResponse>('/api/login', body),
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const parsed = loginBody.safeParse({
      email: data.get('email'),
      password: data.get('password'),
      remember,
    });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      focusFirstInvalid(form);
      return;
    }
    setErrors({});
    login.mutate(parsed.data, {
      onSuccess: async (result) => {
        if ('twoFactorRequired' in result) {
          setTwoFactor({ email: parsed.data.email, challenge: result.challenge });
          return;
        }
        toast.success(result.message);
        await completeSignIn(parsed.data.email);
      },
      onError: (err) => {
        if (err instanceof ApiError) {
          // Once: under its field when the server names one, else as a toast.
          if (err.field) setErrors({ [err.field]: err.message });
          else toast.error(err.message);
        } else {
          toast.error('Something went wrong!');
        }
      },
    });
  }

  if (twoFactor) {
    return (
      <AuthLayout title="Two-factor sign-in" subtitle="One more step: your account asks for a code.">
        <LoginTwoFactorStep
          email={twoFactor.email}
          challenge={twoFactor.challenge}
          remember={remember}
          onRestart={(message) => {
            setTwoFactor(null);
            if (message) toast.error(message);
          }}
        />
      </AuthLayout>
    );
  }

  const signupHref = params.get('next')
    ? `/signup?next=${encodeURIComponent(params.get('next') ?? '')}`
    : '/signup';

  return (
    <AuthLayout title="Log in to Cohort" subtitle="Welcome back! Pick up where your team left off.">
      <GoogleButton mode="login" remember={remember} />
      <OrDivider />
      <form noValidate onSubmit={onSubmit} className="space-y-5">
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
          autoComplete="current-password"
          required
          error={errors.password}
        />
        <div className="flex flex-wrap items-center justify-between gap-3">
          <CheckboxField
            label="Remember me"
            name="remember"
            checked={remember}
            onChange={(event) => setRemember(event.target.checked)}
          />
          <Link
            to="/forgot-password"
            className="rounded text-sm font-semibold text-indigo-700 hover:text-indigo-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
          >
            Forgot Password?
          </Link>
        </div>
        <Button type="submit" size="lg" className="w-full" disabled={login.isPending}>
          {login.isPending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
          Log in
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-slate-600">
        New to Cohort?{' '}
        <Link to={signupHref} className="font-semibold text-indigo-700 hover:text-indigo-900">
          Create an account
        </Link>
      </p>
    </AuthLayout>
  );
}
