import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderAt } from '../../test/render.tsx';
import DashboardPage from './dashboard-page.tsx';
import { aWorkspaceSummary } from './test-data.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

const card = (name: string) => screen.getByRole('listitem', { name }) as HTMLElement;

describe('DashboardPage', () => {
  it('shows each workspace with its creator, its members and an Enter Workspace link', async () => {
    mockFetch({
      'GET /api/workspaces': () => ({
        json: [
          aWorkspaceSummary({
            _id: 'w1',
            name: 'Apollo',
            members: [
              { userId: 'u1', email: 'ada@example.com', role: 'admin', status: 'active' },
              { userId: 'u2', email: 'bob@example.com', role: 'editor', status: 'active' },
              { userId: null, email: 'carol@example.com', role: 'viewer', status: 'invited' },
            ],
          }),
          aWorkspaceSummary({ _id: 'w2', name: 'R&D / Labs', createdBy: null, members: [] }),
        ],
      }),
    });
    renderAt('/dashboard', <DashboardPage />);

    expect(screen.getByRole('status').textContent).toBe('Loading...');
    const apollo = await screen.findByRole('listitem', { name: 'Apollo' });
    expect(within(apollo).getByText('ada@example.com', { selector: 'dd' })).toBeTruthy();
    expect(
      within(apollo).getByText('ada@example.com, bob@example.com, carol@example.com (invited)'),
    ).toBeTruthy();
    expect(within(apollo).getByRole('link', { name: 'Enter Workspace' })).toHaveProperty(
      'pathname',
      '/workspace/Apollo',
    );

    const labs = card('R&D / Labs');
    expect(within(labs).getByText('Unknown')).toBeTruthy();
    expect(within(labs).getByText('No members')).toBeTruthy();
    expect(within(labs).getByRole('link', { name: 'Enter Workspace' }).getAttribute('href')).toBe(
      `/workspace/${encodeURIComponent('R&D / Labs')}`,
    );

    expect(screen.getByRole('heading', { level: 1, name: 'Your Workspaces' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to home' }).getAttribute('href')).toBe('/');
    expect(screen.getByRole('link', { name: 'Create Workspace' }).getAttribute('href')).toBe(
      '/workspace/create',
    );
  });

  it('renders HTML in a workspace name as text', async () => {
    mockFetch({
      'GET /api/workspaces': () => ({ json: [aWorkspaceSummary({ name: '<img src=x onerror=alert(1)>' })] }),
    });
    const { container } = renderAt('/dashboard', <DashboardPage />);
    expect(await screen.findByRole('heading', { name: '<img src=x onerror=alert(1)>' })).toBeTruthy();
    expect(container.querySelector('img')).toBeNull();
  });

  it('says "No workspaces found" when the list is empty', async () => {
    mockFetch({ 'GET /api/workspaces': () => ({ json: [] }) });
    renderAt('/dashboard', <DashboardPage />);
    expect(await screen.findByText('No workspaces found')).toBeTruthy();
  });

  it('says "Failed to fetch workspaces" when the request fails', async () => {
    mockFetch({ 'GET /api/workspaces': () => ({ status: 500, json: { message: 'Internal server error' } }) });
    renderAt('/dashboard', <DashboardPage />);
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to fetch workspaces');
  });
});
