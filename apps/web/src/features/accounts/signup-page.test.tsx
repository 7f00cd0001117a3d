import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderAt, requestsOf } from '../../test/render.tsx';
import SignupPage from './signup-page.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

async function fillForm(password: string, confirmation: string) {
  await userEvent.type(screen.getByRole('textbox', { name: 'First name' }), 'Ada');
  await userEvent.type(screen.getByRole('textbox', { name: 'Last name' }), 'Lovelace');
  await userEvent.type(screen.getByRole('textbox', { name: 'E-mail' }), 'ada@example.com');
  await userEvent.type(screen.getByLabelText('Password'), password);
  await userEvent.type(screen.getByLabelText('Confirm password'), confirmation);
  await userEvent.click(screen.getByRole('checkbox', { name: /Terms of Service and Privacy Policy/ }));
}

describe('SignupPage', () => {
  it('says "Passwords do not match" and sends nothing when the passwords differ', async () => {
    const fetchMock = mockFetch({
      'GET /api/config': () => ({ json: { googleClientId: null } }),
      'POST /api/signup': () => ({ status: 201, json: { message: 'Account created successfully!' } }),
    });
    renderAt('/signup', <SignupPage />);

    await fillForm('correct horse battery', 'correct horse battery staple');
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));

    expect(await screen.findByText('Passwords do not match')).toBeTruthy();
    expect(requestsOf(fetchMock).filter((r) => r.route === 'POST /api/signup')).toHaveLength(0);
  });

  it('creates the account, confirms, and neither signs in nor leaves the page', async () => {
    const fetchMock = mockFetch({
      'GET /api/config': () => ({ json: { googleClientId: null } }),
      'POST /api/signup': () => ({ status: 201, json: { message: 'Account created successfully!' } }),
    });
    const { router } = renderAt('/signup', <SignupPage />);

    await fillForm('correct horse battery', 'correct horse battery');
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));

    // The strength check loads zxcvbn lazily before sending: slow on a loaded machine.
    expect(
      await screen.findByText('Account created successfully!', undefined, { timeout: 10_000 }),
    ).toBeTruthy();
    const signup = requestsOf(fetchMock).find((r) => r.route === 'POST /api/signup');
    expect(signup?.body).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      password: 'correct horse battery',
    });
    expect(router.state.location.pathname).toBe('/signup');
    expect(localStorage.getItem('email')).toBeNull();
  });

  it('shows "Error: " and the server message when the e-mail is taken', async () => {
    mockFetch({
      'GET /api/config': () => ({ json: { googleClientId: null } }),
      'POST /api/signup': () => ({
        status: 409,
        json: { message: 'An account with this e-mail already exists' },
      }),
    });
    renderAt('/signup', <SignupPage />);
    await fillForm('correct horse battery', 'correct horse battery');
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Error: An account with this e-mail already exists')).toBeTruthy();
  });

  it('toggles password visibility with an accessible button', async () => {
    mockFetch({ 'GET /api/config': () => ({ json: { googleClientId: null } }) });
    renderAt('/signup', <SignupPage />);
    const password = screen.getByLabelText('Password');
    const [toggle] = screen.getAllByRole('button', { name: 'Show password' });
    expect(password.getAttribute('type')).toBe('password');
    expect(toggle?.getAttribute('aria-pressed')).toBe('false');
    await userEvent.click(toggle as HTMLElement);
    expect(password.getAttribute('type')).toBe('text');
    expect(toggle?.getAttribute('aria-pressed')).toBe('true');
    expect(toggle?.getAttribute('aria-label')).toBe('Hide password');
  });

  it('shows the Google button disabled with the reason when Google is not configured', async () => {
    mockFetch({ 'GET /api/config': () => ({ json: { googleClientId: null } }) });
    renderAt('/signup', <SignupPage />);
    const google = await screen.findByRole('button', {
      name: 'Sign up with Google',
      description: 'Google sign-in is not configured on this server',
    });
    expect(google.getAttribute('aria-disabled')).toBe('true');
  });
});
