import type { Notification } from '@cohort/shared/notifications';
import { useQuery } from '@tanstack/react-query';
import { Bell, BellRing, CheckCheck } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { dateTimeLabel } from '../../lib/chat-time.ts';
import { cn } from '../../lib/cn.ts';
import { notificationsQuery, useMarkNotificationsRead } from './notifications.queries.ts';
import { describe, useLiveNotifications } from './use-live-notifications.ts';

type Permission = NotificationPermission | 'unsupported';
const currentPermission = (): Permission =>
  typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;

/**
 * The navbar's bell (signed-in users): the unread count, and the notification centre — mentions, DMs,
 * thread replies and task notifications, newest first. Opening one marks it read and goes to it.
 * Desktop notifications are asked for from a button here (a user gesture), never on page load.
 */
export function NotificationBell() {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const navigate = useNavigate();
  const feed = useQuery(notificationsQuery());
  const markRead = useMarkNotificationsRead();
  const [permission, setPermission] = useState<Permission>(currentPermission);
  useLiveNotifications(true);

  const unread = feed.data?.unreadCount ?? 0;
  const items = feed.data?.notifications ?? [];

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      trigger.current?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  const openItem = (n: Notification) => {
    if (!n.read) markRead.mutate({ ids: [n._id] });
    setOpen(false);
    navigate(n.link);
  };

  const enableDesktop = async () => {
    if (typeof Notification === 'undefined') return;
    setPermission(await Notification.requestPermission());
  };

  return (
    <div ref={root} className="relative">
      <button
        ref={trigger}
        type="button"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        aria-label={unread > 0 ? `Notifications (${unread} unread)` : 'Notifications'}
        onClick={() => setOpen((o) => !o)}
        className="relative inline-flex size-9 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      >
        {unread > 0 ? (
          <BellRing aria-hidden="true" className="size-5" />
        ) : (
          <Bell aria-hidden="true" className="size-5" />
        )}
        {unread > 0 && (
          <span
            aria-hidden="true"
            data-testid="notification-count"
            className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-red-600 px-1 text-center text-xs leading-5 font-semibold text-white"
          >
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </button>
      {open && (
        <section
          id={panelId}
          aria-label="Notification centre"
          className="absolute right-0 z-30 mt-2 w-[22rem] max-w-[calc(100vw-2rem)] rounded-xl border border-slate-200 bg-white shadow-xl"
        >
          <header className="flex items-center justify-between gap-2 border-b border-slate-200 px-4 py-2">
            <h2 className="text-sm font-semibold text-slate-900">Notifications</h2>
            <button
              type="button"
              onClick={() => markRead.mutate('all')}
              disabled={unread === 0 || markRead.isPending}
              className="inline-flex items-center gap-1 rounded-md px-2 py-1 text-xs font-medium text-indigo-700 hover:bg-indigo-50 disabled:cursor-not-allowed disabled:text-slate-500"
            >
              <CheckCheck aria-hidden="true" className="size-4" />
              Mark all as read
            </button>
          </header>
          {permission === 'default' && (
            <div className="border-b border-slate-200 px-4 py-2">
              <button
                type="button"
                onClick={() => void enableDesktop()}
                className="text-xs font-medium text-indigo-700 underline hover:text-indigo-900"
              >
                Enable desktop notifications
              </button>
            </div>
          )}
          {feed.isPending ? (
            <p className="px-4 py-6 text-center text-sm text-slate-600">Loading…</p>
          ) : feed.isError ? (
            <p role="alert" className="px-4 py-6 text-center text-sm text-red-700">
              Could not load notifications.
            </p>
          ) : items.length === 0 ? (
            <p className="px-4 py-6 text-center text-sm text-slate-600">You are all caught up.</p>
          ) : (
            <ul aria-label="Notifications" className="max-h-96 overflow-y-auto py-1">
              {items.map((n) => (
                <li key={n._id}>
                  <button
                    type="button"
                    onClick={() => openItem(n)}
                    className={cn(
                      'flex w-full flex-col gap-0.5 px-4 py-2 text-left text-sm hover:bg-slate-50 focus-visible:bg-indigo-50 focus-visible:outline-none',
                      !n.read && 'bg-indigo-50/60',
                    )}
                  >
                    <span className={cn('text-slate-900', !n.read && 'font-semibold')}>
                      {!n.read && <span className="sr-only">Unread: </span>}
                      {describe(n)}
                    </span>
                    {n.text && <span className="line-clamp-2 text-slate-700">{n.text}</span>}
                    <time dateTime={n.createdAt} className="text-xs text-slate-600">
                      {dateTimeLabel(new Date(n.createdAt))}
                    </time>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}
