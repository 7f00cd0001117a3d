import {
  NOTIFICATION_EVENTS,
  NOTIFICATIONS_NAMESPACE,
  type Notification,
} from '@cohort/shared/notifications';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openedSockets } from '../../test/fake-socket.ts';
import { mockFetch, renderRoutes, requestsOf } from '../../test/render.tsx';
import { NotificationBell } from './notification-bell.tsx';

vi.mock('../../lib/socket.ts', async (importOriginal) => {
  const { fakeConnectNamespace } = await import('../../test/fake-socket.ts');
  return { ...(await importOriginal<object>()), connectNamespace: fakeConnectNamespace };
});

const bob = { _id: 'u2', email: 'bob@example.com', name: 'Bob Baker' };
function aNotification(overrides: Partial<Notification> = {}): Notification {
  return {
    _id: 'n1',
    kind: 'mention',
    actor: bob,
    createdAt: '2025-01-02T10:00:00.000Z',
    read: false,
    text: 'hi @Ann look',
    link: '/workspace/w1/channel/c1?message=m1',
    channelId: 'c1',
    workspaceId: 'w1',
    ...overrides,
  };
}

/** A stand-in for the browser's Notification API (happy-dom has none). */
class FakeDesktopNotification {
  static permission: NotificationPermission = 'default';
  static shown: FakeDesktopNotification[] = [];
  static requestPermission = vi.fn(async () => {
    FakeDesktopNotification.permission = 'granted';
    return 'granted' as NotificationPermission;
  });
  onclick: (() => void) | null = null;
  constructor(
    readonly title: string,
    readonly options: NotificationOptions,
  ) {
    FakeDesktopNotification.shown.push(this);
  }
  close() {}
}

let visibility: DocumentVisibilityState = 'visible';
beforeEach(() => {
  openedSockets.length = 0;
  FakeDesktopNotification.permission = 'default';
  FakeDesktopNotification.shown = [];
  FakeDesktopNotification.requestPermission.mockClear();
  vi.stubGlobal('Notification', FakeDesktopNotification);
  visibility = 'visible';
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function setup(items: Notification[]) {
  let feed = items;
  const fetchMock = mockFetch({
    'GET /api/notifications': () => ({
      json: { notifications: feed, nextCursor: null, unreadCount: feed.filter((n) => !n.read).length },
    }),
    'POST /api/notifications/read': (body) => {
      const ids = (body as { ids: string[] }).ids;
      feed = feed.map((n) => (ids.includes(n._id) ? { ...n, read: true } : n));
      return { json: { updated: ids.length } };
    },
    'POST /api/notifications/read-all': () => {
      feed = feed.map((n) => ({ ...n, read: true }));
      return { json: { updated: 1 } };
    },
  });
  const utils = renderRoutes(
    [
      { path: '/', element: <NotificationBell /> },
      { path: '/workspace/:w/channel/:c', element: <p>channel page</p> },
    ],
    '/',
  );
  return {
    ...utils,
    fetchMock,
    add: (n: Notification) => {
      feed = [n, ...feed];
    },
  };
}

describe('NotificationBell', () => {
  it('shows the unread count, lists notifications, and opening one marks it read and goes to it', async () => {
    const { fetchMock, router } = setup([
      aNotification(),
      aNotification({
        _id: 'n2',
        kind: 'direct',
        text: 'psst',
        read: true,
        link: '/chat?with=bob%40example.com',
      }),
    ]);
    const bell = await screen.findByRole('button', { name: 'Notifications (1 unread)' });
    expect(bell.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(bell);
    const panel = screen.getByRole('region', { name: 'Notification centre' });
    const rows = within(panel).getAllByRole('listitem');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('Unread: Bob Baker mentioned youhi @Ann look'),
      expect.stringContaining('Bob Baker sent you a messagepsst'),
    ]);
    fireEvent.click(within(rows[0] as HTMLElement).getByRole('button'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/workspace/w1/channel/c1'));
    expect(router.state.location.search).toBe('?message=m1');
    await waitFor(() =>
      expect(requestsOf(fetchMock).filter((r) => r.route.startsWith('POST'))).toEqual([
        { route: 'POST /api/notifications/read', body: { ids: ['n1'] } },
      ]),
    );
  });

  it('marks all as read', async () => {
    const { fetchMock } = setup([aNotification(), aNotification({ _id: 'n2' })]);
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications (2 unread)' }));
    fireEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    await screen.findByRole('button', { name: 'Notifications' });
    expect(requestsOf(fetchMock).map((r) => r.route)).toContain('POST /api/notifications/read-all');
  });

  it('refreshes on a live push, and shows a desktop notification only when hidden and allowed', async () => {
    const { add, router } = setup([]);
    await screen.findByRole('button', { name: 'Notifications' });
    const socket = openedSockets.find((s) => s.namespace === NOTIFICATIONS_NAMESPACE);
    if (!socket) throw new Error('no /notifications socket');
    socket.serverConnect();

    // Visible tab: the bell updates, no desktop notification (and no permission prompt on load).
    const first = aNotification({ _id: 'n5' });
    add(first);
    socket.push(NOTIFICATION_EVENTS.notification, first);
    await screen.findByRole('button', { name: 'Notifications (1 unread)' });
    expect(FakeDesktopNotification.requestPermission).not.toHaveBeenCalled();
    expect(FakeDesktopNotification.shown).toEqual([]);

    // Permission comes from the panel's button.
    fireEvent.click(screen.getByRole('button', { name: 'Notifications (1 unread)' }));
    fireEvent.click(screen.getByRole('button', { name: 'Enable desktop notifications' }));
    await waitFor(() => expect(FakeDesktopNotification.requestPermission).toHaveBeenCalledTimes(1));
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Enable desktop notifications' })).toBeNull(),
    );

    visibility = 'hidden';
    const second = aNotification({ _id: 'n6', text: 'are you there?' });
    add(second);
    socket.push(NOTIFICATION_EVENTS.notification, second);
    expect(FakeDesktopNotification.shown.map((n) => [n.title, n.options.body])).toEqual([
      ['Bob Baker mentioned you', 'are you there?'],
    ]);
    await screen.findByRole('button', { name: 'Notifications (2 unread)' });
    FakeDesktopNotification.shown[0]?.onclick?.();
    await waitFor(() => expect(router.state.location.pathname).toBe('/workspace/w1/channel/c1'));
  });
});
