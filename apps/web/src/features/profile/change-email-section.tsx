import { type ChangeEmailBody, changeEmailBody } from '@cohort/shared/accounts';
import { useMutation } from '@tanstack/react-query';
import { LoaderCircle, MailCheck } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { ApiError, api } from '../../lib/api.ts';
import { type FieldErrors, fieldErrors, focusFirstInvalid } from '../../lib/form-errors.ts';
import { useMe } from '../accounts/accounts.public.ts';

/** Server messages for field-level checks read "newEmail: …"; the field shows the rest. */
const withoutFieldPrefix = (message: string, field: string) =>
  message.startsWith(`${field}: `) ? message.slice(field.length + 2) : message;

/**
 * Profile → E-mail address. The new address gets a confirmation link; nothing changes until it is
 * opened (the old address is then told). The password proves the owner is at the keyboard.
 */
export function ChangeEmailSection() {
  const me = useMe();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState<{ address: string; message: string } | null>(null);
  const change = useMutation({
    mutationFn: (body: ChangeEmailBody) => api.post<{ message: string }>('/api/account/email', body),
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const parsed = changeEmailBody.safeParse({
      newEmail: data.get('newEmail'),
      password: data.get('password'),
    });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      focusFirstInvalid(form);
      return;
    }
    setErrors({});
    setPending(null);
    change.mutate(parsed.data, {
      onSuccess: (result) => {
        setPending({ address: parsed.data.newEmail, message: result.message });
        form.reset();
      },
      onError: (err) => {
        if (err instanceof ApiError && err.field) {
          setErrors({ [err.field]: withoutFieldPrefix(err.message, err.field) });
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
    <section
      aria-labelledby="email-heading"
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8"
    >
      <h2 id="email-heading" className="text-lg font-semibold text-slate-900">
        E-mail address
      </h2>
      {me.data && (
        <p className="mt-2 text-sm text-slate-600">
          Currently <span className="font-semibold break-all text-slate-900">{me.data.email}</span>
          {me.data.emailVerified ? ' (verified).' : ' (not verified yet).'}
        </p>
      )}
      {pending && (
        <div
          role="status"
          className="mt-4 flex items-start gap-3 rounded-lg border border-emerald-200 bg-emerald-50 p-4"
        >
          <MailCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-emerald-700" />
          <p className="text-sm text-emerald-900">
            {pending.message} It went to <span className="font-semibold break-all">{pending.address}</span>.
          </p>
        </div>
      )}
      <form noValidate onSubmit={onSubmit} aria-label="Change e-mail address" className="mt-6 space-y-5">
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField
            label="New e-mail address"
            name="newEmail"
            type="email"
            autoComplete="email"
            required
            error={errors.newEmail}
          />
          <TextField
            label="Your password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            error={errors.password}
          />
        </div>
        {errors.form && (
          <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
            {errors.form}
          </p>
        )}
        <div className="flex justify-end">
          <Button type="submit" disabled={change.isPending}>
            {change.isPending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
            Send confirmation link
          </Button>
        </div>
      </form>
    </section>
  );
}
