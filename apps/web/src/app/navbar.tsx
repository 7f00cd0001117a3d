import { Plus, Search } from 'lucide-react';
import { type FormEvent, lazy, Suspense, useEffect, useState } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { buttonClasses } from '../components/ui/button.tsx';
import { useMe } from '../features/accounts/use-me.ts';
import { cn } from '../lib/cn.ts';
import { LogoMark } from './logo.tsx';
import { UserMenu } from './user-menu.tsx';

// Signed-in only, and it brings the socket client and the shared schemas: kept out of the entry
// chunk every visitor downloads (bench/js-budgets.json).
const NotificationBell = lazy(() =>
  import('../features/notifications/notification-bell.tsx').then((m) => ({ default: m.NotificationBell })),
);
const MessagesLink = lazy(() =>
  import('../features/direct/messages-link.tsx').then((m) => ({ default: m.MessagesLink })),
);
const InvitationsLink = lazy(() =>
  import('../features/invitations/invitations-link.tsx').then((m) => ({ default: m.InvitationsLink })),
);

const links = [
  { to: '/dashboard', label: 'Workspaces' },
  { to: '/task', label: 'Taskboard' },
  { to: '/about', label: 'About' },
];

const linkClasses = ({ isActive }: { isActive: boolean }) =>
  cn(
    'rounded-md px-2.5 py-1.5 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
    isActive ? 'bg-indigo-50 text-indigo-800' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
  );

export function Navbar() {
  const me = useMe();
  const navigate = useNavigate();
  const location = useLocation();
  // On the search page the box shows what was searched; elsewhere it keeps what is typed.
  const searched =
    location.pathname === '/search' ? (new URLSearchParams(location.search).get('q') ?? '') : null;
  const [text, setText] = useState(searched ?? '');
  useEffect(() => {
    if (searched !== null) setText(searched);
  }, [searched]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const q = text.trim();
    if (q) navigate(`/search?${new URLSearchParams({ q })}`);
  };
  return (
    <header className="z-20 border-b md:sticky md:top-0 border-slate-200 bg-white/95 backdrop-blur">
      <nav
        aria-label="Main"
        className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3 sm:px-6"
      >
        <Link
          to="/"
          className="flex items-center gap-2 rounded-md text-lg font-bold tracking-tight text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          <LogoMark className="size-8" />
          Cohort
        </Link>
        <ul className="flex items-center gap-1">
          {links.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to} className={linkClasses}>
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
        {/* Submitting opens the search page (the page itself asks for a sign-in when needed). */}
        {/* biome-ignore lint/a11y/useSemanticElements: <search> is not exposed as a landmark by every screen reader and test tool yet; role="search" on the form is. */}
        <form role="search" aria-label="Search" onSubmit={submit} className="relative min-w-40 flex-1">
          <Search
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500"
          />
          <label htmlFor="navbar-search" className="sr-only">
            Search
          </label>
          <input
            id="navbar-search"
            type="search"
            value={text}
            onChange={(event) => setText(event.target.value)}
            maxLength={200}
            placeholder="Search"
            className="w-full max-w-sm rounded-lg border border-slate-300 bg-slate-50 py-1.5 pr-3 pl-9 text-sm text-slate-900 placeholder:text-slate-500 focus:border-indigo-600 focus:bg-white focus:outline-2 focus:outline-indigo-600"
          />
        </form>
        <div className="flex flex-wrap items-center gap-2">
          <Link to="/workspace/create" className={buttonClasses('primary', 'sm')}>
            <Plus aria-hidden="true" className="size-4" />
            Create Workspace
          </Link>
          {me.isPending ? (
            <span aria-hidden="true" className="h-9 w-36 animate-pulse rounded-lg bg-slate-100" />
          ) : me.data ? (
            <>
              <Suspense fallback={null}>
                <MessagesLink />
              </Suspense>
              <Suspense fallback={null}>
                <InvitationsLink />
              </Suspense>
              <Suspense fallback={<span aria-hidden="true" className="size-9" />}>
                <NotificationBell />
              </Suspense>
              <UserMenu user={me.data} />
            </>
          ) : (
            <>
              <Link to="/login" className={buttonClasses('ghost', 'sm')}>
                Sign In
              </Link>
              <Link to="/signup" className={buttonClasses('secondary', 'sm')}>
                Sign Up
              </Link>
            </>
          )}
        </div>
      </nav>
    </header>
  );
}
