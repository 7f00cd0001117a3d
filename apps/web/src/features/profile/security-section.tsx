import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { SecuritySessions } from './security-sessions.tsx';
import { SecurityTwoFactor } from './security-two-factor.tsx';

/** The fragment workspaces that require two-factor sign-in link to (/profile#security). */
const SECURITY_SECTION_ID = 'security';

/** Profile → Security: two-factor sign-in, then where the account is signed in. */
export function SecuritySection() {
  const { hash } = useLocation();
  const section = useRef<HTMLElement>(null);
  // The router does not scroll to a fragment, and this section appears only once the profile loaded.
  useEffect(() => {
    if (hash === `#${SECURITY_SECTION_ID}`) section.current?.scrollIntoView?.({ block: 'start' });
  }, [hash]);

  return (
    <section
      ref={section}
      id={SECURITY_SECTION_ID}
      aria-labelledby="security-heading"
      className="scroll-mt-24 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8"
    >
      <h2 id="security-heading" className="text-lg font-semibold text-slate-900">
        Security
      </h2>
      <SecurityTwoFactor />
      <SecuritySessions />
    </section>
  );
}
