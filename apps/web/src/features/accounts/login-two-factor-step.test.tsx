import { SECURITY_MESSAGES } from '@cohort/shared/security';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoutes, requestsOf } from '../../test/render.tsx';
import LoginPage from './login-page.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

const me = {
  user: { _id: 'u1', email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', emailVerified: true },
};
const challengeAnswer = {
  json: { twoFactorRequired: true, challenge: 'the-challenge', message: SECURITY_MESSAGES.loginCodeNeeded },
};

function renderLogin() {
  return renderRoutes(
    [
      { path: '/login', element: <LoginPage /> },
      { path: '/dashboard', element: <h1>Your Workspaces</h1> },
    ],
    '/login?next=%2Fdashboard',
  );
}

async function passwordStep() {
  await userEvent.type(screen.getByRole('textbox', { name: 'E-mail' }), 'ada@example.com');
  await userEvent.type(screen.getByLabelText('Password'), 'correct horse battery');
  await userEvent.click(screen.getByRole('checkbox', { name: 'Remember me' }));
  await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
}

describe('LoginPage with two-factor sign-in', () => {
  it('asks for a code after the password, then completes the sign-in like a plain login', async () => {
    let signedIn = false;
    const fetchMock = mockFetch({
      'GET /api/config': () => ({ json: { googleClientId: null } }),
      'GET /api/me': () => (signedIn ? { json: me } : { status: 401, json: { message: 'Please log in' } }),
      'POST /api/login': () => challengeAnswer,
      'POST /api/login/two-factor': () => {
        signedIn = true;
        return { json: { token: 'secret', message: 'Login successful!' } };
      },
    });
    const { router } = renderLogin();
    await passwordStep();

    const code = await screen.findByRole('textbox', { name: 'Authentication code' });
    expect(screen.getByRole('heading', { name: 'Two-factor sign-in' })).toBeTruthy();
    expect(
      screen.getByText('Enter the 6-digit code from your authenticator app, or a recovery code.'),
    ).toBeTruthy();
    // Nothing is signed in yet: no session, so no /api/me success and still on /login.
    expect(router.state.location.pathname).toBe('/login');
    await userEvent.type(code, '123 456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));

    expect(await screen.findByRole('heading', { name: 'Your Workspaces' })).toBeTruthy();
    const sent = requestsOf(fetchMock).find((r) => r.route === 'POST /api/login/two-factor');
    expect(sent?.body).toEqual({ challenge: 'the-challenge', code: '123 456', remember: true });
    expect(localStorage.getItem('email')).toBe('ada@example.com');
  });

  it('shows a wrong code under the field and lets the user try again', async () => {
    mockFetch({
      'GET /api/config': () => ({ json: { googleClientId: null } }),
      'GET /api/me': () => ({ status: 401, json: { message: 'Please log in' } }),
      'POST /api/login': () => challengeAnswer,
      'POST /api/login/two-factor': () => ({
        status: 401,
        json: { message: SECURITY_MESSAGES.invalidCode, field: 'code' },
      }),
    });
    renderLogin();
    await passwordStep();
    await userEvent.type(await screen.findByRole('textbox', { name: 'Authentication code' }), '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(SECURITY_MESSAGES.invalidCode)).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Authentication code' }).getAttribute('aria-invalid')).toBe(
      'true',
    );
  });

  it('asks for a code before sending an empty one', async () => {
    const fetchMock = mockFetch({
      'GET /api/config': () => ({ json: { googleClientId: null } }),
      'GET /api/me': () => ({ status: 401, json: { message: 'Please log in' } }),
      'POST /api/login': () => challengeAnswer,
    });
    renderLogin();
    await passwordStep();
    await screen.findByRole('textbox', { name: 'Authentication code' });
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(SECURITY_MESSAGES.codeRequired)).toBeTruthy();
    expect(requestsOf(fetchMock).some((r) => r.route === 'POST /api/login/two-factor')).toBe(false);
  });

  it('goes back to the password form when the challenge expired', async () => {
    mockFetch({
      'GET /api/config': () => ({ json: { googleClientId: null } }),
      'GET /api/me': () => ({ status: 401, json: { message: 'Please log in' } }),
      'POST /api/login': () => challengeAnswer,
      'POST /api/login/two-factor': () => ({
        status: 401,
        json: { message: SECURITY_MESSAGES.challengeExpired },
      }),
    });
    renderLogin();
    await passwordStep();
    await userEvent.type(await screen.findByRole('textbox', { name: 'Authentication code' }), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('button', { name: 'Log in' })).toBeTruthy();
    expect(await screen.findByText(SECURITY_MESSAGES.challengeExpired)).toBeTruthy();
  });
});
