import { type KeyboardEvent, useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), ' +
  'textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Below this width the navigation and the workspace sidebar are drawers (Tailwind's `md`). */
const WIDE = '(min-width: 48rem)';

function onWideChange(notify: () => void) {
  const wide = window.matchMedia(WIDE);
  wide.addEventListener('change', notify);
  return () => wide.removeEventListener('change', notify);
}

/** Whether the screen is wide (`md` and up), following its changes. */
export function useWide(): boolean {
  return useSyncExternalStore(onWideChange, () => window.matchMedia(WIDE).matches);
}

/** The classes of an open drawer: a column from the left edge, above the page (narrow screens only). */
export const drawerPanelClasses =
  'fixed inset-y-0 left-0 z-50 flex w-[min(20rem,85vw)] flex-col overflow-y-auto bg-white p-4 shadow-xl dark:bg-slate-900';

/**
 * A panel that is inline on wide screens and a drawer on narrow ones, opened by a menu button
 * (disclosure: `aria-expanded`, `aria-controls`). While open: focus moves into the panel and Tab
 * cycles inside it, Escape or the overlay closes it (focus back on the button), the page behind does
 * not scroll, and any navigation closes it. Growing past `md` closes it too.
 */
export function useDrawer<P extends HTMLElement>() {
  const [open, setOpen] = useState(false);
  const id = useId();
  const panel = useRef<P>(null);
  const button = useRef<HTMLButtonElement>(null);
  const location = useLocation();

  // Following a link inside the drawer (or anywhere) closes it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the location change is the trigger.
  useEffect(() => setOpen(false), [location.pathname, location.search]);

  useEffect(() => {
    if (!open) return;
    panel.current?.querySelector<HTMLElement>(FOCUSABLE)?.focus();
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    const wide = window.matchMedia(WIDE);
    const onWide = () => wide.matches && setOpen(false);
    wide.addEventListener('change', onWide);
    return () => {
      document.body.style.overflow = overflow;
      wide.removeEventListener('change', onWide);
    };
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  function onKeyDown(event: KeyboardEvent<P>) {
    if (!open) return;
    if (event.key === 'Escape') {
      event.stopPropagation();
      close();
      return;
    }
    if (event.key !== 'Tab' || !panel.current) return;
    const items = Array.from(panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
      (el) => el.offsetParent !== null,
    );
    const first = items[0];
    const last = items.at(-1);
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  const wide = useWide();
  return {
    open,
    /**
     * Whether the panel's content is on screen: always on a wide screen, only while open on a narrow
     * one. A closed drawer need not render its content (nor run its reads): on a phone that was a
     * sidebar's worth of work for nothing on every page load (issue 19).
     */
    shown: open || wide,
    close,
    buttonProps: {
      ref: button,
      type: 'button' as const,
      'aria-expanded': open,
      'aria-controls': id,
      onClick: () => setOpen((value) => !value),
    },
    panelProps: { ref: panel, id, onKeyDown },
    /** Render next to the panel: the dimmed page behind an open drawer (a pointer shortcut for Escape). */
    overlay: open ? (
      <div
        aria-hidden="true"
        data-testid="drawer-overlay"
        className="fixed inset-0 z-40 bg-slate-900/50 md:hidden"
        onClick={() => setOpen(false)}
      />
    ) : null,
  };
}
