import type { PublicUser } from '@cohort/shared/accounts';
import { Bookmark, ChevronDown, LogOut, UserRound } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useLogout } from '../features/accounts/use-logout.ts';
import { cn } from '../lib/cn.ts';
import { truncateEmail } from './truncate-email.ts';

const itemClasses =
  'flex w-full items-center gap-2 rounded-md px-3 py-2 text-left text-sm text-slate-700 dark:text-slate-200 dark:hover:bg-slate-800 ' +
  'hover:bg-slate-100 focus:bg-indigo-50 focus:text-indigo-900 focus:outline-none ' +
  'focus-visible:ring-2 focus-visible:ring-indigo-600 focus-visible:ring-inset';

/** The signed-in user's menu button (WAI-ARIA menu button pattern: arrows, Home/End, Escape). */
export function UserMenu({ user }: { user: PublicUser }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const logout = useLogout();

  const items = () => Array.from(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
  const focusItem = (index: number) => {
    const all = items();
    all[(index + all.length) % all.length]?.focus();
  };
  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) trigger.current?.focus();
  };

  // Where focus should land once the menu has rendered (ArrowUp opens on the last item).
  const pendingFocus = useRef<'first' | 'last' | null>(null);
  useEffect(() => {
    if (!open) return;
    const all = Array.from(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
    if (pendingFocus.current) all[pendingFocus.current === 'first' ? 0 : all.length - 1]?.focus();
    pendingFocus.current = null;
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  function onTriggerKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      pendingFocus.current = event.key === 'ArrowDown' ? 'first' : 'last';
      if (open) focusItem(event.key === 'ArrowDown' ? 0 : -1);
      setOpen(true);
    }
  }

  function onMenuKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const all = items();
    const index = all.indexOf(document.activeElement as HTMLElement);
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        focusItem(index + 1);
        break;
      case 'ArrowUp':
        event.preventDefault();
        focusItem(index - 1);
        break;
      case 'Home':
        event.preventDefault();
        focusItem(0);
        break;
      case 'End':
        event.preventDefault();
        focusItem(-1);
        break;
      case 'Escape':
        event.preventDefault();
        close(true);
        break;
      case 'Tab':
        setOpen(false);
        break;
    }
  }

  return (
    <div ref={root} className="relative">
      <button
        ref={trigger}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        title={user.email}
        onClick={() => {
          // Opening moves focus to the first item so arrows and Escape work at once (APG menu button).
          pendingFocus.current = 'first';
          setOpen((value) => !value);
        }}
        onKeyDown={onTriggerKeyDown}
        className="flex items-center gap-2 rounded-lg border border-slate-300 bg-white px-1.5 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 sm:px-3 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100 dark:hover:bg-slate-700"
      >
        <span
          aria-hidden="true"
          className="flex size-6 items-center justify-center rounded-full bg-indigo-100 text-xs font-bold text-indigo-800 uppercase dark:bg-indigo-900 dark:text-indigo-100"
        >
          {user.email.charAt(0)}
        </span>
        {/* A phone shows the initial only; the address stays the button's name. */}
        <span className="sr-only sm:not-sr-only">{truncateEmail(user.email)}</span>
        <ChevronDown
          aria-hidden="true"
          className={cn('hidden size-4 transition-transform sm:block', open && 'rotate-180')}
        />
      </button>
      {open && (
        <div className="absolute right-0 z-30 mt-2 w-60 max-w-[calc(100vw-2rem)] rounded-lg border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900">
          <p className="truncate px-3 pt-2 pb-1 text-xs text-slate-600 dark:text-slate-400">
            Signed in as <span className="font-medium text-slate-800 dark:text-slate-200">{user.email}</span>
          </p>
          <div
            ref={menu}
            id={menuId}
            role="menu"
            aria-label="Account"
            tabIndex={-1}
            onKeyDown={onMenuKeyDown}
          >
            <Link
              role="menuitem"
              tabIndex={-1}
              to="/profile"
              className={itemClasses}
              onClick={() => close(false)}
            >
              <UserRound aria-hidden="true" className="size-4" />
              Profile
            </Link>
            <Link
              role="menuitem"
              tabIndex={-1}
              to="/saved"
              className={itemClasses}
              onClick={() => close(false)}
            >
              <Bookmark aria-hidden="true" className="size-4" />
              Saved
            </Link>
            <button
              role="menuitem"
              tabIndex={-1}
              type="button"
              className={itemClasses}
              disabled={logout.isPending}
              onClick={() => {
                close(false);
                logout.mutate();
              }}
            >
              <LogOut aria-hidden="true" className="size-4" />
              Log out
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
