import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoutes, requestsOf } from '../../test/render.tsx';
import type { GoogleCredentialResponse } from './google-identity.ts';
import LoginPage from './login-page.tsx';
import SignupPage from './signup-page.tsx';

/** Stands in for Google Identity Services and hands the test the callback GIS would call. */
function fakeGoogleIdentity() {
  const state: { callback?: (response: GoogleCredentialResponse) => void; clientId?: string } = {};
  vi.stubGlobal('google', {
    accounts: {
      id: {
        initialize: (options: { client_id: string; callback: (r: GoogleCredentialResponse) => void }) => {
          state.clientId = options.client_id;
          state.callback = options.callback;
        },
        renderButton: (parent: HTMLElement) => {
          parent.append(Object.assign(document.createElement('div'), { textContent: 'Google button' }));
        },
      },
    },
  });
  return state;
}

const me = { user: { _id: 'u1', email: 'ada@gmail.com', firstName: 'Ada', lastName: 'Lovelace' } };

function renderPage(entry: string) {
  return renderRoutes(
    [
      { path: '/login', element: <LoginPage /> },
      { path: '/signup', element: <SignupPage /> },
      { path: '/dashboard', element: <h1>Your Workspaces</h1> },
      { path: '/', element: <h1>Home</h1> },
    ],
    entry,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('GoogleButton', () => {
  it('posts the credential to /api/google-login, confirms and goes to `next`', async () => {
    const gis = fakeGoogleIdentity();
    const fetchMock = mockFetch({
      'GET /api/config': () => ({ json: { googleClientId: 'client-123' } }),
      'GET /api/me': () => ({ json: me }),
      'POST /api/google-login': () => ({ json: { token: 't', message: 'Google login successful!' } }),
    });
    const { router } = renderPage('/login?next=%2Fdashboard');

    await waitFor(() => expect(gis.callback).toBeDefined());
    expect(gis.clientId).toBe('client-123');
    gis.callback?.({ credential: 'header.payload.signature' });

    expect(await screen.findByRole('heading', { name: 'Your Workspaces' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(await screen.findByText('Google login successful!')).toBeTruthy();
    const sent = requestsOf(fetchMock).find((r) => r.route === 'POST /api/google-login');
    expect(sent?.body).toEqual({ credential: 'header.payload.signature', remember: false });
    expect(localStorage.getItem('email')).toBe('ada@gmail.com');
  });

  it('shows "Error: " and the server message when Google sign-up is refused', async () => {
    const gis = fakeGoogleIdentity();
    mockFetch({
      'GET /api/config': () => ({ json: { googleClientId: 'client-123' } }),
      'POST /api/google-signup': () => ({ status: 401, json: { message: 'Invalid Google credential' } }),
    });
    const { router } = renderPage('/signup');

    await waitFor(() => expect(gis.callback).toBeDefined());
    gis.callback?.({ credential: 'header.payload.signature' });

    expect(await screen.findByText('Error: Invalid Google credential')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/signup');
  });

  it('says Google login failed when the server cannot be reached', async () => {
    const gis = fakeGoogleIdentity();
    mockFetch({
      'GET /api/config': () => ({ json: { googleClientId: 'client-123' } }),
      'POST /api/google-login': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    renderPage('/login');
    await waitFor(() => expect(gis.callback).toBeDefined());
    gis.callback?.({ credential: 'header.payload.signature' });
    expect(await screen.findByText('Google login failed. Please try again.')).toBeTruthy();
  });
});
