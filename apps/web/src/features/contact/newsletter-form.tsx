import type { NewsletterBody } from '@cohort/shared/contact';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { ApiError, api } from '../../lib/api.ts';
import { toast } from '../../lib/toast.ts';

/** The footer's newsletter box; subscribing twice is harmless (the server is idempotent). */
export function NewsletterForm() {
  const id = useId();
  const [error, setError] = useState<string>();
  const subscribe = useMutation({
    mutationFn: (body: NewsletterBody) => api.post<{ message: string }>('/api/newsletter', body),
  });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    // The footer is on every page: load the schema (and zod) only when someone subscribes.
    const { newsletterBody } = await import('@cohort/shared/contact');
    const parsed = newsletterBody.safeParse({ email: new FormData(form).get('email') });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Enter a valid e-mail address');
      form.querySelector('input')?.focus();
      return;
    }
    setError(undefined);
    subscribe.mutate(parsed.data, {
      onSuccess: (result) => {
        toast.success(result.message);
        form.reset();
      },
      onError: (err) =>
        toast.error(err instanceof ApiError ? err.message : 'Something went wrong. Please try again'),
    });
  }

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-2">
      <label htmlFor={id} className="block text-sm text-slate-300">
        Newsletter e-mail address
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          name="email"
          type="email"
          required
          autoComplete="email"
          placeholder="you@example.com"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className="min-w-0 flex-1 rounded-lg border border-slate-600 bg-slate-800 px-3 py-2 text-sm text-white placeholder:text-slate-400 focus:border-indigo-400 focus:outline-2 focus:outline-indigo-400"
        />
        <button
          type="submit"
          disabled={subscribe.isPending}
          className="rounded-lg bg-indigo-600 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-300 disabled:opacity-60"
        >
          Subscribe
        </button>
      </div>
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-300">
          {error}
        </p>
      )}
    </form>
  );
}
