import { EMAIL_MESSAGES } from '@cohort/shared/accounts';
import { useMutation } from '@tanstack/react-query';
import { LoaderCircle, MailWarning } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { ApiError, api } from '../../lib/api.ts';
import { toast } from '../../lib/toast.ts';

/** Asks for another verification mail; the server limits how often. */
export function ResendVerificationButton() {
  const resend = useMutation({
    mutationFn: () => api.post<{ message: string }>('/api/account/verification/resend'),
    onSuccess: (result) => toast.success(result.message),
    onError: (err) =>
      toast.error(err instanceof ApiError ? err.message : 'Something went wrong. Please try again'),
  });
  return (
    <Button variant="secondary" size="sm" onClick={() => resend.mutate()} disabled={resend.isPending}>
      {resend.isPending && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
      {EMAIL_MESSAGES.resend}
    </Button>
  );
}

/**
 * On every page of a signed-in user whose address is not verified yet: until it is, they cannot
 * join workspaces they are invited to.
 */
export function VerifyEmailBanner({ email }: { email: string }) {
  return (
    <section
      aria-label="E-mail verification"
      className="border-b border-amber-200 bg-amber-50 px-4 py-3 text-amber-950 sm:px-6"
    >
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3">
        <p className="flex items-start gap-2 text-sm">
          <MailWarning aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-700" />
          <span>
            {EMAIL_MESSAGES.bannerText} It went to <span className="font-semibold break-all">{email}</span>.
          </span>
        </p>
        <ResendVerificationButton />
      </div>
    </section>
  );
}

export default VerifyEmailBanner;
