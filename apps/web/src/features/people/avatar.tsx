import { cn } from '../../lib/cn.ts';

const COLOURS = [
  'bg-indigo-100 text-indigo-800',
  'bg-emerald-100 text-emerald-800',
  'bg-amber-100 text-amber-900',
  'bg-rose-100 text-rose-800',
  'bg-sky-100 text-sky-800',
  'bg-violet-100 text-violet-800',
];

/** Up to two initials of a name ("Ada Lovelace" → "AL"). */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  return words
    .slice(0, 2)
    .map((w) => Array.from(w)[0] ?? '')
    .join('')
    .toUpperCase();
}

/** A person's avatar: their initials on a colour picked from their e-mail (accounts have no picture). */
export function Avatar({ name, email, className }: { name: string; email: string; className?: string }) {
  let hash = 0;
  for (const c of email.toLowerCase()) hash = (hash * 31 + (c.codePointAt(0) ?? 0)) >>> 0;
  return (
    <span
      aria-hidden="true"
      className={cn(
        'flex size-9 shrink-0 items-center justify-center rounded-full text-sm font-semibold',
        COLOURS[hash % COLOURS.length],
        className,
      )}
    >
      {initials(name) || '?'}
    </span>
  );
}
