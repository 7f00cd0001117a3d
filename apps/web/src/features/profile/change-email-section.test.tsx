import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderAt, requestsOf } from '../../test/render.tsx';
import { ChangeEmailSection } from './change-email-section.tsx';

afterEach(() => vi.unstubAllGlobals());

const me = {
  _id: 'u1',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  emailVerified: true,
};

describe('ChangeEmailSection', () => {
  it('asks for the new address and the password, then says where the confirmation link went', async () => {
    const fetchMock = mockFetch({
      'GET /api/me': () => ({ json: { user: me } }),
      'POST /api/account/email': () => ({
        json: {
          message:
            'We sent a confirmation link to your new address. The change takes effect when you open it.',
        },
      }),
    });
    renderAt('/profile', <ChangeEmailSection />);
    expect(await screen.findByText(/ada@example.com/)).toBeTruthy();
    await userEvent.type(screen.getByRole('textbox', { name: 'New e-mail address' }), 'Grace@Example.com');
    await userEvent.type(screen.getByLabelText('Your password'), 'correct horse battery');
    await userEvent.click(screen.getByRole('button', { name: 'Send confirmation link' }));
    const status = await screen.findByRole('status');
    expect(status.textContent).toContain('The change takes effect when you open it.');
    expect(status.textContent).toContain('grace@example.com');
    expect(requestsOf(fetchMock).find((r) => r.route === 'POST /api/account/email')?.body).toEqual({
      newEmail: 'grace@example.com',
      password: 'correct horse battery',
    });
  });

  it('shows a refusal under its field', async () => {
    mockFetch({
      'GET /api/me': () => ({ json: { user: me } }),
      'POST /api/account/email': () => ({
        status: 400,
        json: { message: 'Password is incorrect', field: 'password' },
      }),
    });
    renderAt('/profile', <ChangeEmailSection />);
    await userEvent.type(screen.getByRole('textbox', { name: 'New e-mail address' }), 'grace@example.com');
    await userEvent.type(screen.getByLabelText('Your password'), 'wrong password here');
    await userEvent.click(screen.getByRole('button', { name: 'Send confirmation link' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Your password').getAttribute('aria-invalid')).toBe('true'),
    );
    expect(screen.getByText('Password is incorrect')).toBeTruthy();
  });
});
