import type { MyInvitation } from '@cohort/shared/invitations';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoutes, requestsOf } from '../../test/render.tsx';
import InvitationsPage from './invitations-page.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

const me = (emailVerified = true) => ({
  user: { _id: 'u1', email: 'ann@example.com', firstName: 'Ann', lastName: 'Able', emailVerified },
});

const anInvitation = (overrides: Partial<MyInvitation> = {}): MyInvitation => ({
  _id: 'inv-1',
  workspace: { _id: 'w1', name: 'Apollo', description: 'Launch planning' },
  role: 'editor',
  invitedBy: { name: 'Ada Lovelace', email: 'ada@example.com' },
  createdAt: '2025-01-01T00:00:00.000Z',
  expiresAt: '2099-01-08T00:00:00.000Z',
  ...overrides,
});

function renderPage(entry = '/invitations') {
  return renderRoutes(
    [
      { path: '/invitations', element: <InvitationsPage /> },
      { path: '/workspace/:workspaceName', element: <p>Workspace page</p> },
    ],
    entry,
  );
}

describe('InvitationsPage', () => {
  it('lists my invitations with workspace, inviter, role and expiry; accepting opens the workspace', async () => {
    let pending = [
      anInvitation(),
      anInvitation({ _id: 'inv-2', workspace: { _id: 'w2', name: 'Zeus', description: '' } }),
    ];
    const fetchMock = mockFetch({
      'GET /api/me': () => ({ json: me() }),
      'GET /api/invitations': () => ({ json: pending }),
      'POST /api/invitations/inv-1/accept': () => {
        pending = pending.filter((i) => i._id !== 'inv-1');
        return { json: { workspace: { _id: 'w1', name: 'Apollo' }, role: 'editor' } };
      },
      'GET /api/workspaces': () => ({ json: [] }),
      'GET /api/notifications': () => ({ json: { notifications: [], nextCursor: null, unreadCount: 0 } }),
    });
    const { router } = renderPage('/invitations?focus=inv-1');
    const card = await screen.findByRole('listitem', { name: 'Apollo' });
    expect(card.getAttribute('aria-current')).toBe('true');
    expect(within(card).getByText('Ada Lovelace (ada@example.com)')).toBeTruthy();
    expect(within(card).getByText('Editor')).toBeTruthy();
    expect(screen.getByRole('listitem', { name: 'Zeus' }).getAttribute('aria-current')).toBeNull();

    await userEvent.click(within(card).getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/workspace/Apollo'));
    expect(requestsOf(fetchMock).map((r) => r.route)).toContain('POST /api/invitations/inv-1/accept');
  });

  it('declines an invitation, which leaves the list', async () => {
    let pending = [anInvitation()];
    mockFetch({
      'GET /api/me': () => ({ json: me() }),
      'GET /api/invitations': () => ({ json: pending }),
      'POST /api/invitations/inv-1/decline': () => {
        pending = [];
        return { json: null };
      },
      'GET /api/workspaces': () => ({ json: [] }),
      'GET /api/notifications': () => ({ json: { notifications: [], nextCursor: null, unreadCount: 0 } }),
    });
    renderPage();
    const card = await screen.findByRole('listitem', { name: 'Apollo' });
    await userEvent.click(within(card).getByRole('button', { name: 'Decline' }));
    expect(await screen.findByText('No pending invitations')).toBeTruthy();
  });

  it("shows the server's refusal (an expired invitation) on the card", async () => {
    mockFetch({
      'GET /api/me': () => ({ json: me() }),
      'GET /api/invitations': () => ({ json: [anInvitation()] }),
      'POST /api/invitations/inv-1/accept': () => ({
        status: 410,
        json: { message: 'This invitation has expired. Ask an admin of the workspace to send it again' },
      }),
      'GET /api/workspaces': () => ({ json: [] }),
      'GET /api/notifications': () => ({ json: { notifications: [], nextCursor: null, unreadCount: 0 } }),
    });
    renderPage();
    const card = await screen.findByRole('listitem', { name: 'Apollo' });
    await userEvent.click(within(card).getByRole('button', { name: 'Accept' }));
    expect((await within(card).findByRole('alert')).textContent).toBe(
      'This invitation has expired. Ask an admin of the workspace to send it again',
    );
  });

  it('asks an unverified address to verify first, and explains a link that is no longer pending', async () => {
    mockFetch({
      'GET /api/me': () => ({ json: me(false) }),
      'GET /api/invitations': () => ({ json: [] }),
    });
    renderPage('/invitations?focus=gone');
    expect((await screen.findByRole('alert')).textContent).toContain('Verify your e-mail address');
    expect(await screen.findByText(/no longer pending/)).toBeTruthy();
  });
});
