import { type ForgotPasswordBody, forgotPasswordBody } from '@cohort/shared/accounts';
import { useMutation } from '@tanstack/react-query';
import { LoaderCircle, MailCheck } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { ApiError, api } from '../../lib/api.ts';
import { type FieldErrors, fieldErrors, focusFirstInvalid } from '../../lib/form-errors.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { AuthLayout } from './auth-layout.tsx';

/**
 * /forgot-password: asks for the address and mails a reset link. The answer is the same whether or
 * not an account exists (the server says so in the same time either way).
 */
export default function ForgotPasswordPage() {
  useDocumentTitle('Forgot password');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [sent, setSent] = useState<string | null>(null);
  const request = useMutation({
    mutationFn: (body: ForgotPasswordBody) =>
      api.post<{ message: string }>('/api/account/password/forgot', body),
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const parsed = forgotPasswordBody.safeParse({ email: new FormData(form).get('email') });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      focusFirstInvalid(form);
      return;
    }
    setErrors({});
    setSent(null);
    request.mutate(parsed.data, {
      onSuccess: (result) => setSent(result.message),
      onError: (err) =>
        setErrors(
          err instanceof ApiError && err.field
            ? { [err.field]: err.message }
            : { form: err instanceof ApiError ? err.message : 'Something went wrong. Please try again' },
        ),
    });
  }

  return (
    <AuthLayout
      title="Forgot your password?"
      subtitle="Enter the e-mail address of your account and we will send you a link to choose a new one."
    >
      {sent && (
        <div
          role="status"
          className="mb-5 flex items-start gap-3 rounded-lg border border-emerald-200 bg-emerald-50 p-4"
        >
          <MailCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-emerald-700" />
          <p className="text-sm text-emerald-900">{sent} The link works for one hour.</p>
        </div>
      )}
      <form noValidate onSubmit={onSubmit} className="space-y-5" aria-label="Forgot password">
        <TextField
          label="E-mail"
          name="email"
          type="email"
          autoComplete="email"
          required
          error={errors.email}
        />
        {errors.form && (
          <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
            {errors.form}
          </p>
        )}
        <Button type="submit" size="lg" className="w-full" disabled={request.isPending}>
          {request.isPending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
          Send reset link
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-slate-600">
        Remembered it?{' '}
        <Link to="/login" className="font-semibold text-indigo-700 hover:text-indigo-900">
          Log in
        </Link>
      </p>
    </AuthLayout>
  );
}
