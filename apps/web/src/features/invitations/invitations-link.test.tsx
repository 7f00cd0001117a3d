import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderAt } from '../../test/render.tsx';
import { myInvitationsQuery } from './invitations.queries.ts';
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
    let pending: unknown[] = [];
    mockFetch({ 'GET /api/invitations': () => ({ json: pending }) });
    const { client } = renderAt('/', <InvitationsLink />);
    // The answer (none) has arrived and been rendered: no waiting for a while.
    await waitFor(() => expect(client.getQueryState(myInvitationsQuery.queryKey)?.status).toBe('success'));
    expect(screen.queryByRole('link')).toBeNull();
    // Positive control: the same link appears once there is one.
    pending = [invitation('a')];
    await act(() => client.invalidateQueries({ queryKey: myInvitationsQuery.queryKey }));
    expect(await screen.findByRole('link', { name: 'Invitations (1 pending)' })).toBeTruthy();
  });
});
