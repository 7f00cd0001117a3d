import { X } from 'lucide-react';
import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';
import { cn } from '../../lib/cn.ts';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), ' +
  'textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

interface DialogProps {
  /** Called on Escape, an overlay click and the close button; the parent decides to unmount. */
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  /** `alertdialog` for confirmations that interrupt the user (APG alert dialog). */
  role?: 'dialog' | 'alertdialog';
  className?: string;
  children: ReactNode;
}

/**
 * A modal dialog (WAI-ARIA APG dialog pattern): labelled by its title, focus moves inside on open,
 * Tab and Shift+Tab cycle within it, Escape or an overlay click closes it, and focus returns to the
 * element that opened it. Render it only while open.
 */
export function Dialog({ onClose, title, description, role = 'dialog', className, children }: DialogProps) {
  const titleId = useId();
  const descriptionId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const body = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const node = panel.current;
    // A marked control, else the first control of the content (not the close button), else the panel.
    const first =
      node?.querySelector<HTMLElement>('[data-autofocus]') ??
      body.current?.querySelector<HTMLElement>(FOCUSABLE) ??
      node?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? node)?.focus();
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
      // Back to the opener if it is still on the page (it may have been replaced by navigation).
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onCloseRef.current();
      return;
    }
    if (event.key !== 'Tab' || !panel.current) return;
    const items = Array.from(panel.current.querySelectorAll<HTMLElement>(FOCUSABLE));
    if (items.length === 0) {
      event.preventDefault();
      return;
    }
    const first = items[0];
    const last = items[items.length - 1];
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === panel.current)) {
      event.preventDefault();
      last?.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first?.focus();
    }
  }

  return createPortal(
    <div className="fixed inset-0 z-50 flex items-start justify-center overflow-y-auto p-4 sm:items-center">
      {/* The overlay is a pointer shortcut; Escape and the close button are the keyboard equivalents. */}
      <div
        aria-hidden="true"
        data-testid="dialog-overlay"
        className="fixed inset-0 bg-slate-900/50 backdrop-blur-[1px]"
        onClick={() => onCloseRef.current()}
      />
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the role is "dialog" or "alertdialog" (a prop), which Biome cannot see. */}
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: as above; both roles support aria-modal. */}
      <div
        ref={panel}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        onKeyDown={onKeyDown}
        className={cn(
          'relative w-full max-w-lg rounded-2xl border border-slate-200 bg-white p-6 shadow-xl focus:outline-none sm:p-7',
          'dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100',
          className,
        )}
      >
        <div className="flex items-start justify-between gap-4">
          <div>
            <h2 id={titleId} className="text-xl font-bold tracking-tight text-slate-900 dark:text-slate-100">
              {title}
            </h2>
            {description && (
              <p id={descriptionId} className="mt-1 text-sm text-slate-600 dark:text-slate-300">
                {description}
              </p>
            )}
          </div>
          <button
            type="button"
            aria-label="Close"
            onClick={() => onCloseRef.current()}
            className="-mt-1 -mr-2 rounded-md p-1.5 text-slate-500 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            <X aria-hidden="true" className="size-5" />
          </button>
        </div>
        <div ref={body} className="mt-5">
          {children}
        </div>
      </div>
    </div>,
    document.body,
  );
}
