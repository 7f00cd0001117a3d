import { displayName } from '@cohort/shared/names';

type Person = { firstName: string; lastName: string; email: string };

/** "AL" for Ada Lovelace; the e-mail's first letter when there is no name. */
export function initialsOf(p: Person) {
  const letters = [p.firstName, p.lastName].map((s) => s.trim().charAt(0)).join('');
  return (letters || p.email.charAt(0)).toUpperCase();
}

/** A card's members as small initials circles (the names are read out). */
export function MemberAvatars({ people, max = 4 }: { people: Person[]; max?: number }) {
  if (people.length === 0) return null;
  const shown = people.slice(0, max);
  const names = people.map((p) => displayName(p)).join(', ');
  return (
    <span className="inline-flex -space-x-1.5" title={names}>
      <span className="sr-only">Members: {names}</span>
      {shown.map((p) => (
        <span
          key={p.email}
          aria-hidden="true"
          className="inline-flex size-6 items-center justify-center rounded-full bg-indigo-600 text-[10px] font-bold text-white ring-2 ring-white dark:ring-slate-800"
        >
          {initialsOf(p)}
        </span>
      ))}
      {people.length > max && (
        <span
          aria-hidden="true"
          className="inline-flex size-6 items-center justify-center rounded-full bg-slate-300 text-[10px] font-bold text-slate-800 ring-2 ring-white"
        >
          +{people.length - max}
        </span>
      )}
    </span>
  );
}
