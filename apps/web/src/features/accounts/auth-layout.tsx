import { CircleCheck } from 'lucide-react';
import type { ReactNode } from 'react';

const points = [
  'Workspaces and channels with real-time chat',
  'A task board your whole team can share',
  'Video calls and project tracking in one place',
];

/** Two-column frame shared by log in and sign up: the pitch on wide screens, the form everywhere. */
export function AuthLayout({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto grid max-w-6xl gap-10 px-4 py-10 sm:px-6 lg:grid-cols-2 lg:items-center lg:py-16">
      <div className="hidden rounded-2xl bg-gradient-to-br from-indigo-700 to-indigo-900 p-10 text-white shadow-xl lg:block">
        <p className="text-sm font-semibold tracking-wide text-indigo-200 uppercase">Cohort</p>
        <p className="mt-4 text-3xl leading-tight font-bold">
          Connect, learn and collaborate with your team.
        </p>
        <ul className="mt-8 space-y-4">
          {points.map((point) => (
            <li key={point} className="flex items-start gap-3 text-indigo-50">
              <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-indigo-200" />
              {point}
            </li>
          ))}
        </ul>
      </div>
      <div className="mx-auto w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
        <p className="mt-2 text-sm text-slate-600">{subtitle}</p>
        <div className="mt-6">{children}</div>
      </div>
    </div>
  );
}

export function OrDivider() {
  return (
    <div className="my-6 flex items-center gap-3 text-xs font-medium tracking-wide text-slate-600 uppercase">
      <span aria-hidden="true" className="h-px flex-1 bg-slate-200" />
      or
      <span aria-hidden="true" className="h-px flex-1 bg-slate-200" />
    </div>
  );
}
