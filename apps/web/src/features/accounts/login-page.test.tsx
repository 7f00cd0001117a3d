import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoutes, requestsOf } from '../../test/render.tsx';
import LoginPage from './login-page.tsx';
import { safeNext } from './safe-next.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

const me = { user: { _id: 'u1', email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' } };

function renderLogin(entry: string) {
  return renderRoutes(
    [
      { path: '/login', element: <LoginPage /> },
      { path: '/dashboard', element: <h1>Your Workspaces</h1> },
      { path: '/', element: <h1>Home</h1> },
    ],
    entry,
  );
}

async function logIn(password = 'correct horse battery') {
  await userEvent.type(screen.getByRole('textbox', { name: 'E-mail' }), 'ada@example.com');
  await userEvent.type(screen.getByLabelText('Password'), password);
}

describe('LoginPage', () => {
  it('posts remember: true when Remember me is checked, then goes to `next`', async () => {
    let signedIn = false;
    const fetchMock = mockFetch({
      'GET /api/config': () => ({ json: { googleClientId: null } }),
      'GET /api/me': () => (signedIn ? { json: me } : { status: 401, json: { message: 'Not signed in' } }),
      'POST /api/login': () => {
        signedIn = true;
        return { json: { token: 'secret', message: 'Login successful!' } };
      },
    });
    const { router } = renderLogin('/login?next=%2Fdashboard');

    await logIn();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Remember me' }));
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));

    expect(await screen.findByRole('heading', { name: 'Your Workspaces' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard');
    const login = requestsOf(fetchMock).find((r) => r.route === 'POST /api/login');
    expect(login?.body).toEqual({
      email: 'ada@example.com',
      password: 'correct horse battery',
      remember: true,
    });
    expect(await screen.findByText('Login successful!')).toBeTruthy();
    expect(localStorage.getItem('email')).toBe('ada@example.com');
    // The token stays out of the browser's storage: the httpOnly cookie is the session.
    expect(JSON.stringify({ ...localStorage })).not.toContain('secret');
  });

  it('ignores a `next` that points to another site', async () => {
    mockFetch({
      'GET /api/config': () => ({ json: { googleClientId: null } }),
      'GET /api/me': () => ({ json: me }),
      'POST /api/login': () => ({ json: { token: 't', message: 'Login successful!' } }),
    });
    const { router } = renderLogin('/login?next=%2F%2Fevil.example');
    await logIn();
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('heading', { name: 'Your Workspaces' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('shows the server message when the password is wrong and stays on the page', async () => {
    mockFetch({
      'GET /api/config': () => ({ json: { googleClientId: null } }),
      'GET /api/me': () => ({ status: 401, json: { message: 'Not signed in' } }),
      'POST /api/login': () => ({ status: 401, json: { message: 'Invalid e-mail or password' } }),
    });
    const { router } = renderLogin('/login');
    await logIn('wrong password');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Invalid e-mail or password')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('says "Something went wrong!" when the server cannot be reached', async () => {
    mockFetch({
      'GET /api/config': () => ({ json: { googleClientId: null } }),
      'GET /api/me': () => ({ status: 401, json: { message: 'Not signed in' } }),
      'POST /api/login': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    renderLogin('/login');
    await logIn();
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Something went wrong!')).toBeTruthy();
  });
});

describe('safeNext', () => {
  it.each([
    [null, '/dashboard'],
    ['/', '/'],
    ['/workspace/a?b=1#c', '/workspace/a?b=1#c'],
    ['//evil.example', '/dashboard'],
    ['/\\evil.example', '/dashboard'],
    ['https://evil.example', '/dashboard'],
    ['dashboard', '/dashboard'],
  ])('%s → %s', (next, expected) => {
    expect(safeNext(next)).toBe(expected);
  });
});
