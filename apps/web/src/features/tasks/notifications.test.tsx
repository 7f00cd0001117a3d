import type { TaskNotification } from '@cohort/shared/tasks';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openedSockets } from '../../test/fake-socket.ts';
import { mockFetch, renderAt, requestsOf } from '../../test/render.tsx';
import { meResponse } from '../workspaces/test-data.ts';
import { NotificationsSection } from './notifications-section.tsx';
import { Taskboard } from './taskboard-page.tsx';

vi.mock('../../lib/socket.ts', async (importOriginal) => {
  const { fakeConnectNamespace } = await import('../../test/fake-socket.ts');
  return { ...(await importOriginal<object>()), connectNamespace: fakeConnectNamespace };
});

const bob = { firstName: 'Bob', lastName: 'Stone', email: 'bob@example.com' };
function aNotification(overrides: Partial<TaskNotification> = {}): TaskNotification {
  return {
    _id: 'n1',
    kind: 'assigned',
    task: { _id: 't1', title: 'Write the report', taskListId: 'l1' },
    actor: bob,
    createdAt: '2025-01-01T10:00:00.000Z',
    read: false,
    ...overrides,
  };
}

beforeEach(() => {
  openedSockets.length = 0;
  localStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** The section with a search that a button changes, as the taskboard's box would. */
function Searching() {
  const [search, setSearch] = useState(' VENUE ');
  return (
    <>
      <button type="button" onClick={() => setSearch('nothing like it')}>
        Search again
      </button>
      <NotificationsSection search={search} onOpenTask={() => {}} />
    </>
  );
}

describe('Notifications', () => {
  it('keeps the notifications about tasks matching the search', async () => {
    mockFetch({
      'GET /api/tasks/notifications': () => ({
        json: [
          aNotification(),
          aNotification({ _id: 'n2', task: { ...aNotification().task, _id: 't2', title: 'Book the venue' } }),
        ],
      }),
    });
    renderAt('/task', <Searching />);
    const list = await screen.findByRole('list', { name: 'Notifications' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((r) => r.textContent),
    ).toEqual([expect.stringContaining('"Book the venue"')]);
    fireEvent.click(screen.getByRole('button', { name: 'Search again' }));
    expect(await screen.findByText('No notifications match your search')).toBeTruthy();
  });

  it('lists newest first, unread apart, and marks one or all as read', async () => {
    let items = [
      aNotification(),
      aNotification({ _id: 'n2', kind: 'comment', createdAt: '2025-01-02T10:00:00.000Z' }),
      aNotification({
        _id: 'n3',
        kind: 'due',
        actor: null,
        read: true,
        createdAt: '2025-01-03T10:00:00.000Z',
      }),
    ];
    const fetchMock = mockFetch({
      'GET /api/tasks/notifications': () => ({ json: items }),
      'POST /api/tasks/notifications/n1/read': () => {
        items = items.map((n) => (n._id === 'n1' ? { ...n, read: true } : n));
        return { json: items[0] };
      },
      'POST /api/tasks/notifications/read-all': () => {
        items = items.map((n) => ({ ...n, read: true }));
        return { json: { updated: 1 } };
      },
    });
    renderAt('/task', <NotificationsSection onOpenTask={() => {}} />);

    const list = await screen.findByRole('list', { name: 'Notifications' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('"Write the report" is due within 24 hours'),
      expect.stringContaining('Bob Stone commented on "Write the report"'),
      expect.stringContaining('Bob Stone assigned you "Write the report"'),
    ]);
    expect(rows.map((r) => r.hasAttribute('data-unread'))).toEqual([false, true, true]);

    fireEvent.click(within(rows[2] as HTMLElement).getByRole('button', { name: 'Mark as read' }));
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Mark as read' })).toHaveLength(1));
    fireEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Mark as read' })).toBeNull());
    const writes = requestsOf(fetchMock).filter((r) => r.route.startsWith('POST'));
    expect(writes.map((r) => r.route)).toEqual([
      'POST /api/tasks/notifications/n1/read',
      'POST /api/tasks/notifications/read-all',
    ]);
  });

  it('the nav shows the unread count, refreshed by the socket push', async () => {
    let items = [aNotification()];
    mockFetch({
      'GET /api/me': () => ({ json: meResponse }),
      'GET /api/boards': () => ({ json: [] }),
      'GET /api/tasks/notifications': () => ({ json: items }),
    });
    renderAt('/task', <Taskboard />);
    const badge = await screen.findByTestId('unread-badge');
    expect(badge.textContent).toBe('1 unread');

    items = [aNotification({ _id: 'n2', createdAt: '2025-01-02T10:00:00.000Z' }), ...items];
    const socket = openedSockets.find((s) => s.namespace === '/tasks');
    socket?.push('notification', items[0]);
    await waitFor(() => expect(screen.getByTestId('unread-badge').textContent).toBe('2 unread'));
  });
});
