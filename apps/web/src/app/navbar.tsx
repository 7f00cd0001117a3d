import { Menu, Plus, Search, X } from 'lucide-react';
import { type FormEvent, lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { buttonClasses } from '../components/ui/button.tsx';
import { drawerPanelClasses, useDrawer } from '../components/ui/drawer.tsx';
import { cn } from '../lib/cn.ts';
import { LogoMark } from './logo.tsx';

// The session's part of the bar (Sign In and Sign Up, or the signed-in controls) reads the server
// through TanStack Query: it comes with app/session.tsx, right after the first render (issue 21).
const SessionControls = lazy(() => import('./session.tsx').then((m) => ({ default: m.SessionControls })));

// Suggestions under the search box (signed-in users): loaded when the box is first focused, with the
// query cache they read through (features/switcher/search-suggestions.tsx).
const SearchSuggestions = lazy(() =>
  Promise.all([import('../features/switcher/search-suggestions.tsx'), import('./session.tsx')]).then(
    ([m, session]) => ({
      default: (props: Parameters<typeof m.SearchSuggestions>[0]) => (
        <session.QueryScope>
          <m.SearchSuggestions {...props} />
        </session.QueryScope>
      ),
    }),
  ),
);

interface ComboState {
  open: boolean;
  listId?: string;
  activeId?: string;
}

const sessionPlaceholder = (
  <span aria-hidden="true" className="h-9 w-36 animate-pulse rounded-lg bg-slate-100 dark:bg-slate-800" />
);

const links = [
  { to: '/dashboard', label: 'Workspaces' },
  { to: '/task', label: 'Taskboard' },
  { to: '/about', label: 'About' },
];

const linkClasses = ({ isActive }: { isActive: boolean }) =>
  cn(
    'rounded-md px-2.5 py-1.5 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
    'block',
    isActive
      ? 'bg-indigo-50 text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200'
      : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-200 dark:hover:bg-slate-800 dark:hover:text-white',
  );

export function Navbar() {
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
  const box = useRef<HTMLInputElement>(null);
  const [suggesting, setSuggesting] = useState(false);
  const [combo, setCombo] = useState<ComboState>({ open: false });
  const drawer = useDrawer<HTMLDivElement>();
  return (
    // No backdrop filter below md: it would make the header the containing block of the fixed drawer.
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white md:bg-white/95 md:backdrop-blur dark:border-slate-800 dark:bg-slate-900 md:dark:bg-slate-900/95">
      <nav
        aria-label="Main"
        className="mx-auto flex h-14 max-w-7xl items-center gap-x-3 px-4 sm:px-6 md:h-auto md:flex-wrap md:gap-x-4 md:gap-y-2 md:py-3"
      >
        {/* Narrow screens: the links, search and actions are a drawer behind this button. */}
        <button
          {...drawer.buttonProps}
          aria-label="Menu"
          className="-ml-1 rounded-md p-2 text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600 md:hidden dark:text-slate-200 dark:hover:bg-slate-800"
        >
          <Menu aria-hidden="true" className="size-5" />
        </button>
        <Link
          to="/"
          className="flex shrink-0 items-center gap-2 rounded-md text-lg font-bold tracking-tight text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 dark:text-slate-100"
        >
          <LogoMark className="size-8" />
          Cohort
        </Link>
        {drawer.overlay}
        <div
          {...drawer.panelProps}
          className={cn(
            'gap-4',
            drawer.open ? drawerPanelClasses : 'hidden md:flex md:flex-1 md:flex-wrap md:items-center',
          )}
        >
          {drawer.open && (
            <button
              type="button"
              aria-label="Close menu"
              onClick={drawer.close}
              className="self-end rounded-md p-1.5 text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600 dark:text-slate-300 dark:hover:bg-slate-800"
            >
              <X aria-hidden="true" className="size-5" />
            </button>
          )}
          <ul className="flex flex-col gap-1 md:flex-row md:items-center">
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
          <form
            role="search"
            aria-label="Search"
            onSubmit={submit}
            className="relative md:min-w-40 md:flex-1"
          >
            <Search
              aria-hidden="true"
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500"
            />
            <label htmlFor="navbar-search" className="sr-only">
              Search
            </label>
            {/* A combobox (WAI-ARIA APG): the suggestions' listbox pops up under it while typing. */}
            <input
              ref={box}
              id="navbar-search"
              type="search"
              role="combobox"
              aria-autocomplete="list"
              aria-expanded={combo.open}
              aria-controls={combo.open ? combo.listId : undefined}
              aria-activedescendant={combo.open ? combo.activeId : undefined}
              autoComplete="off"
              value={text}
              onFocus={() => setSuggesting(true)}
              onChange={(event) => setText(event.target.value)}
              maxLength={200}
              placeholder="Search"
              className="w-full max-w-sm rounded-lg border border-slate-300 bg-slate-50 py-1.5 pr-3 pl-9 text-sm text-slate-900 placeholder:text-slate-500 focus:border-indigo-600 focus:bg-white focus:outline-2 focus:outline-indigo-600 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100 dark:placeholder:text-slate-400"
            />
            {suggesting && (
              <Suspense fallback={null}>
                <SearchSuggestions input={box} text={text} onCombo={setCombo} onPicked={setText} />
              </Suspense>
            )}
          </form>
          <Link to="/workspace/create" className={buttonClasses('primary', 'sm', 'self-start md:self-auto')}>
            <Plus aria-hidden="true" className="size-4" />
            Create Workspace
          </Link>
        </div>
        {/* Room reserved for the signed-in controls (a fixed height, a minimum width): the session
            check and the lazily loaded bell then fill it without moving the page or the search. */}
        <div className="ml-auto flex h-10 shrink-0 items-center justify-end gap-2 md:min-w-64">
          <Suspense fallback={sessionPlaceholder}>
            <SessionControls />
          </Suspense>
        </div>
      </nav>
    </header>
  );
}
