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

  describe('change password', () => {
    const fill = async (current: string, next: string, confirm: string) => {
      const form = await screen.findByRole('form', { name: 'Change password' });
      const field = (label: string) => within(form).getByLabelText(label) as HTMLInputElement;
      for (const [label, value] of [
        ['Current password', current],
        ['New password', next],
        ['Confirm new password', confirm],
      ] as const) {
        await userEvent.clear(field(label));
        if (value) await userEvent.type(field(label), value);
      }
      await userEvent.click(within(form).getByRole('button', { name: 'Change password' }));
      return { form, field };
    };

    it('sends the current and new password and confirms with a toast, clearing the form', async () => {
      const fetchMock = mockFetch({
        'GET /api/profile': () => ({ json: aProfile() }),
        'POST /api/users/password': () => ({
          json: { message: 'Password changed. Your other sessions were signed out.' },
        }),
      });
      renderAt('/profile', <ProfilePage />);
      const { field } = await fill('old secret 1', 'new secret 12', 'new secret 12');
      expect(await screen.findByText('Password changed. Your other sessions were signed out.')).toBeTruthy();
      expect(requestsOf(fetchMock).filter((r) => r.route === 'POST /api/users/password')).toEqual([
        expect.objectContaining({ body: { currentPassword: 'old secret 1', newPassword: 'new secret 12' } }),
      ]);
      expect(field('Current password').value).toBe('');
      expect(field('New password').value).toBe('');
    });

    it('checks the confirmation and the password rules before sending', async () => {
      const fetchMock = mockFetch({ 'GET /api/profile': () => ({ json: aProfile() }) });
      renderAt('/profile', <ProfilePage />);
      const { form, field } = await fill('old secret 1', 'new secret 12', 'new secret 13');
      expect(within(form).getByText('Passwords do not match')).toBeTruthy();
      expect(field('Confirm new password').getAttribute('aria-invalid')).toBe('true');
      await fill('old secret 1', 'short', 'short');
      expect(within(form).getByText('Password must be at least 8 characters')).toBeTruthy();
      expect(requestsOf(fetchMock).some((r) => r.route === 'POST /api/users/password')).toBe(false);
    });

    it('shows a wrong current password by its field', async () => {
      mockFetch({
        'GET /api/profile': () => ({ json: aProfile() }),
        'POST /api/users/password': () => ({
          status: 400,
          json: { message: 'Current password is incorrect', field: 'currentPassword' },
        }),
      });
      renderAt('/profile', <ProfilePage />);
      const { form, field } = await fill('wrong one 1', 'new secret 12', 'new secret 12');
      expect(await within(form).findByText('Current password is incorrect')).toBeTruthy();
      expect(field('Current password').getAttribute('aria-invalid')).toBe('true');
    });
  });
});
