import { EMAIL_MESSAGES } from '@cohort/shared/accounts';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { rememberUser } from '../../lib/storage.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { AuthLayout } from './auth-layout.tsx';
import { LinkResult } from './link-result.tsx';
import { useLinkToken } from './use-link-token.ts';
import { refreshMe, useMe } from './use-me.ts';

/** /confirm-email?token=…, opened from the mail sent to a new address: the change takes effect. */
export default function ConfirmEmailPage() {
  useDocumentTitle('Confirm your new e-mail');
  const queryClient = useQueryClient();
  const me = useMe();
  const confirm = useLinkToken('/api/account/email/confirm', async () => {
    await queryClient.invalidateQueries({ queryKey: ['profile'] });
    const user = await refreshMe(queryClient).catch(() => null);
    // The display-only copy of the address follows the change.
    if (user) rememberUser(user);
  });
  return (
    <AuthLayout
      title="Confirm your new e-mail address"
      subtitle="Your account moves to the address this link was sent to."
    >
      <LinkResult
        state={confirm.status}
        working="Changing your address..."
        error={confirm.error}
        done={
          <>
            <p className="font-medium">{EMAIL_MESSAGES.changeConfirmed}</p>
            <Link to={me.data ? '/profile' : '/login'} className="mt-2 inline-block font-semibold underline">
              {me.data ? 'Back to your profile' : 'Log in'}
            </Link>
          </>
        }
        failed={
          <p className="mt-2">
            <Link to="/profile" className="font-semibold underline">
              Change your address again
            </Link>{' '}
            from your profile to get a new link.
          </p>
        }
      />
    </AuthLayout>
  );
}
