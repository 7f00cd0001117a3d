import { EMAIL_MESSAGES } from '@cohort/shared/accounts';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { AuthLayout } from './auth-layout.tsx';
import { LinkResult } from './link-result.tsx';
import { useLinkToken } from './use-link-token.ts';
import { refreshMe, useMe } from './use-me.ts';
import { ResendVerificationButton } from './verify-email-banner.tsx';

/** /verify-email?token=…, opened from the verification mail. */
export default function VerifyEmailPage() {
  useDocumentTitle('Verify your e-mail');
  const queryClient = useQueryClient();
  const me = useMe();
  // The banner goes away at once in every open tab of this browser that reads `me` again.
  const verify = useLinkToken('/api/account/verify-email', async () => {
    await refreshMe(queryClient).catch(() => null);
  });
  const signedIn = Boolean(me.data);
  return (
    <AuthLayout
      title="Verify your e-mail address"
      subtitle="Proving the address lets you join your team's workspaces."
    >
      <LinkResult
        state={verify.status}
        working="Verifying your address..."
        error={verify.error}
        done={
          <>
            <p className="font-medium">{EMAIL_MESSAGES.verified}</p>
            <Link
              to={signedIn ? '/dashboard' : '/login'}
              className="mt-2 inline-block font-semibold underline"
            >
              {signedIn ? 'Go to your workspaces' : 'Log in'}
            </Link>
          </>
        }
        failed={
          me.data && !me.data.emailVerified ? (
            <div className="mt-3">
              <ResendVerificationButton />
            </div>
          ) : (
            !signedIn && (
              <p className="mt-2">
                <Link to="/login" className="font-semibold underline">
                  Log in
                </Link>{' '}
                to ask for a new link.
              </p>
            )
          )
        }
      />
    </AuthLayout>
  );
}
