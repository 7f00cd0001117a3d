import { SECURITY_MESSAGES } from '@cohort/shared/security';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoutes, requestsOf } from '../../test/render.tsx';
import { RequireTwoFactorSetting } from './require-two-factor-setting.tsx';
import { aWorkspace, meResponse } from './test-data.ts';
import WorkspacePage from './workspace-page.tsx';
import WorkspaceSettingsPage from './workspace-settings-page.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

const refusal = { status: 403, json: { message: SECURITY_MESSAGES.workspaceRequiresTwoFactor } };

describe('a workspace that requires two-factor sign-in', () => {
  it('tells a member without it what to do, with a link to Profile → Security', async () => {
    mockFetch({
      'GET /api/me': () => ({ json: meResponse }),
      'GET /api/workspaces/Apollo': () => refusal,
    });
    renderRoutes(
      [
        { path: '/workspace/:workspaceName', element: <WorkspacePage /> },
        { path: '/profile', element: <h1>User Profile</h1> },
      ],
      '/workspace/Apollo',
    );
    // The heading is the page's alert (as for any workspace that fails to open).
    expect((await screen.findByRole('alert')).textContent).toBe('This workspace requires two-factor sign-in');
    const link = screen.getByRole('link', { name: 'Set it up in Profile → Security' });
    expect(link.getAttribute('href')).toBe('/profile#security');
    await userEvent.click(link);
    expect(await screen.findByRole('heading', { name: 'User Profile' })).toBeTruthy();
  });

  it('says so on the pages under the workspace too', async () => {
    mockFetch({
      'GET /api/me': () => ({ json: meResponse }),
      'GET /api/workspaces/Apollo': () => refusal,
    });
    renderRoutes(
      [{ path: '/workspace/:workspaceName/settings', element: <WorkspaceSettingsPage /> }],
      '/workspace/Apollo/settings',
    );
    expect((await screen.findByRole('alert')).textContent).toBe('This workspace requires two-factor sign-in');
  });

  it('keeps other failures as they were', async () => {
    mockFetch({
      'GET /api/me': () => ({ json: meResponse }),
      'GET /api/workspaces/Apollo': () => ({
        status: 403,
        json: { message: 'You do not have permission to do that' },
      }),
    });
    renderRoutes([{ path: '/workspace/:workspaceName', element: <WorkspacePage /> }], '/workspace/Apollo');
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to load workspace');
    expect(screen.queryByText(/requires two-factor sign-in/)).toBeNull();
  });
});

describe('RequireTwoFactorSetting', () => {
  it('shows the setting and how many members lack 2FA, and turns it on', async () => {
    let required = false;
    const fetchMock = mockFetch({
      'GET /api/workspaces/Apollo/two-factor': () => ({ json: { required, membersWithout: 1 } }),
      'PUT /api/workspaces/Apollo/two-factor': (body) => {
        required = (body as { required: boolean }).required;
        return { json: { required, membersWithout: 1 } };
      },
    });
    renderRoutes([{ path: '/', element: <RequireTwoFactorSetting workspace={aWorkspace('admin')} /> }], '/');
    const region = await screen.findByRole('region', { name: 'Two-factor sign-in' });
    expect(await within(region).findByText(/1 member has not turned it on/)).toBeTruthy();
    await userEvent.click(within(region).getByRole('button', { name: 'Require two-factor sign-in' }));
    expect(
      await within(region).findByRole('button', { name: 'Stop requiring two-factor sign-in' }),
    ).toBeTruthy();
    expect(
      requestsOf(fetchMock).find((r) => r.route === 'PUT /api/workspaces/Apollo/two-factor')?.body,
    ).toEqual({
      required: true,
    });
  });

  it("explains the refusal when the admin's own 2FA is off, with a link to set it up", async () => {
    mockFetch({
      'GET /api/workspaces/Apollo/two-factor': () => ({ json: { required: false, membersWithout: 3 } }),
      'PUT /api/workspaces/Apollo/two-factor': () => ({
        status: 403,
        json: { message: SECURITY_MESSAGES.enableYoursFirst },
      }),
    });
    renderRoutes([{ path: '/', element: <RequireTwoFactorSetting workspace={aWorkspace('admin')} /> }], '/');
    await userEvent.click(await screen.findByRole('button', { name: 'Require two-factor sign-in' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(SECURITY_MESSAGES.enableYoursFirst);
    expect(within(alert).getByRole('link', { name: 'Profile → Security' }).getAttribute('href')).toBe(
      '/profile#security',
    );
  });
});
