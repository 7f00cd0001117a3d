import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderAt } from '../../test/render.tsx';
import { InvitationsLink } from './invitations-link.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

const invitation = (id: string) => ({
  _id: id,
  workspace: { _id: `w-${id}`, name: `Workspace ${id}`, description: '' },
  role: 'viewer',
  invitedBy: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  expiresAt: '2099-01-01T00:00:00.000Z',
});

describe('InvitationsLink', () => {
  it('links to /invitations with the pending count', async () => {
    mockFetch({ 'GET /api/invitations': () => ({ json: [invitation('a'), invitation('b')] }) });
    renderAt('/', <InvitationsLink />);
    const link = await screen.findByRole('link', { name: 'Invitations (2 pending)' });
    expect(link.getAttribute('href')).toBe('/invitations');
  });

  it('is not shown without pending invitations', async () => {
    const fetchMock = mockFetch({ 'GET /api/invitations': () => ({ json: [] }) });
    renderAt('/', <InvitationsLink />);
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('link')).toBeNull();
  });
});
