import type { ProfileResponse } from '@cohort/shared/workspaces';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderAt, requestsOf } from '../../test/render.tsx';
import ProfilePage from './profile-page.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

function aProfile(
  overrides: Partial<ProfileResponse['user']> = {},
  workspaces: ProfileResponse['workspaces'] = [],
) {
  return {
    user: {
      _id: 'u1',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      role: null,
      phone: null,
      ...overrides,
    },
    workspaces,
  };
}

const section = (name: string) => screen.getByRole('region', { name });

describe('ProfilePage', () => {
  it('shows the personal information with "Not specified" for a missing role and phone', async () => {
    mockFetch({ 'GET /api/profile': () => ({ json: aProfile() }) });
    renderAt('/profile', <ProfilePage />);
    expect(await screen.findByRole('heading', { level: 1, name: 'User Profile' })).toBeTruthy();
    const personal = await screen.findByRole('region', { name: 'Personal Information' });
    expect(within(personal).getByText('Ada Lovelace')).toBeTruthy();
    expect(within(personal).getByText('ada@example.com')).toBeTruthy();
    expect(within(personal).getAllByText('Not specified')).toHaveLength(2);
    expect(
      within(section('Workspaces Created by You')).getByText('You have not created any workspaces yet.'),
    ).toBeTruthy();
  });

  it('lists the workspaces the user created', async () => {
    mockFetch({
      'GET /api/profile': () => ({
        json: aProfile({ role: 'Designer', phone: '+1 555 0100' }, [
          { _id: 'w1', name: 'Apollo', description: 'Launch planning' },
        ]),
      }),
    });
    renderAt('/profile', <ProfilePage />);
    const created = await screen.findByRole('region', { name: 'Workspaces Created by You' });
    expect(within(created).getByRole('heading', { name: 'Apollo' })).toBeTruthy();
    expect(within(created).getByText('Launch planning')).toBeTruthy();
    expect(within(section('Personal Information')).getByText('Designer')).toBeTruthy();
    expect(within(section('Personal Information')).getByText('+1 555 0100')).toBeTruthy();
  });

  it('says "Failed to fetch profile data" when the request fails', async () => {
    mockFetch({ 'GET /api/profile': () => ({ status: 500, json: { message: 'Internal server error' } }) });
    renderAt('/profile', <ProfilePage />);
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to fetch profile data');
  });

  it('edits the profile, and shows a server validation error by its field', async () => {
    let reject = true;
    const fetchMock = mockFetch({
      'GET /api/profile': () => ({ json: aProfile() }),
      'PATCH /api/profile': (body) => {
        if (reject) {
          reject = false;
          return { status: 400, json: { message: 'role: Role is not allowed', field: 'role' } };
        }
        return { json: aProfile(body as Partial<ProfileResponse['user']>) };
      },
    });
    renderAt('/profile', <ProfilePage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit profile' }));
    const form = screen.getByRole('form', { name: 'Edit profile' });
    await userEvent.type(within(form).getByRole('textbox', { name: 'Role' }), 'Designer');
    await userEvent.type(within(form).getByRole('textbox', { name: 'Phone' }), '+1 555 0100');
    await userEvent.click(within(form).getByRole('button', { name: 'Save changes' }));

    expect(await within(form).findByText('Role is not allowed')).toBeTruthy();
    expect(within(form).getByRole('textbox', { name: 'Role' }).getAttribute('aria-invalid')).toBe('true');

    await userEvent.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Designer')).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Edit profile' })).toBeNull();
    const patch = requestsOf(fetchMock).filter((r) => r.route === 'PATCH /api/profile');
    expect(patch.at(-1)?.body).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      role: 'Designer',
      phone: '+1 555 0100',
    });
  });

  it('checks the phone number before sending', async () => {
    const fetchMock = mockFetch({ 'GET /api/profile': () => ({ json: aProfile() }) });
    renderAt('/profile', <ProfilePage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit profile' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Phone' }), 'call me');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(screen.getByText('Enter a valid phone number')).toBeTruthy();
    expect(requestsOf(fetchMock).some((r) => r.route === 'PATCH /api/profile')).toBe(false);
  });
});
