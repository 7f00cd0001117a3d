/** The Cohort mark: two overlapping people, in the brand indigo. */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 32 32" className={className}>
      <rect width="32" height="32" rx="8" fill="#4f46e5" />
      <circle cx="12" cy="13" r="4" fill="#fff" />
      <circle cx="20" cy="13" r="4" fill="#c7d2fe" />
      <path
        d="M6 25c0-3.3 2.7-6 6-6s6 2.7 6 6M14 25c0-3.3 2.7-6 6-6s6 2.7 6 6"
        stroke="#fff"
        strokeWidth="2"
        fill="none"
        strokeLinecap="round"
      />
    </svg>
  );
}
