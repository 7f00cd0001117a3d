import {
  ACCOUNT_MESSAGES,
  type ChangePasswordBody,
  changePasswordBody,
  type MeUser,
} from '@cohort/shared/accounts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LoaderCircle } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { ApiError, api } from '../../lib/api.ts';
import { type FieldErrors, fieldErrors, focusFirstInvalid } from '../../lib/form-errors.ts';
import { toast } from '../../lib/toast.ts';
import { meQueryKey, passwordProblemOf, preloadPasswordCheck } from '../accounts/accounts.public.ts';

/** Server messages for field-level checks read "newPassword: …"; the field shows the rest. */
const withoutFieldPrefix = (message: string, field: string) =>
  message.startsWith(`${field}: `) ? message.slice(field.length + 2) : message;

/**
 * The profile page's password change. The server keeps this session and signs out every other one
 * (their open tabs and sockets close at once), which the success message says.
 */
export function ChangePasswordForm() {
  const queryClient = useQueryClient();
  const [errors, setErrors] = useState<FieldErrors>({});
  const change = useMutation({
    mutationFn: (body: ChangePasswordBody) => api.post<{ message: string }>('/api/users/password', body),
  });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const parsed = changePasswordBody.safeParse({
      currentPassword: data.get('currentPassword'),
      newPassword: data.get('newPassword'),
    });
    const next: FieldErrors = parsed.success ? {} : fieldErrors(parsed.error);
    if (data.get('confirmPassword') !== data.get('newPassword') && !next.newPassword) {
      next.confirmPassword = ACCOUNT_MESSAGES.passwordsDiffer;
    }
    if (!parsed.success || Object.keys(next).length > 0) {
      setErrors(next);
      focusFirstInvalid(form);
      return;
    }
    // The server's strength rule, checked here first so the reason shows under the field.
    const me = queryClient.getQueryData<MeUser | null>(meQueryKey);
    const weak = await passwordProblemOf(
      parsed.data.newPassword,
      me ? [me.email, me.firstName, me.lastName] : [],
    );
    if (weak) {
      setErrors({ newPassword: weak });
      focusFirstInvalid(form);
      return;
    }
    setErrors({});
    change.mutate(parsed.data, {
      onSuccess: (res) => {
        toast.success(res.message);
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
    <form noValidate onSubmit={onSubmit} aria-label="Change password" className="mt-6 space-y-5">
      <div className="grid gap-5 sm:grid-cols-3">
        <TextField
          label="Current password"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          required
          error={errors.currentPassword}
        />
        <TextField
          label="New password"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          required
          onFocus={preloadPasswordCheck}
          error={errors.newPassword}
        />
        <TextField
          label="Confirm new password"
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          required
          error={errors.confirmPassword}
        />
      </div>
      <p className="text-sm text-slate-600">Changing it signs you out everywhere else.</p>
      {errors.form && (
        <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
          {errors.form}
        </p>
      )}
      <div className="flex justify-end">
        <Button type="submit" disabled={change.isPending}>
          {change.isPending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
          Change password
        </Button>
      </div>
    </form>
  );
}
