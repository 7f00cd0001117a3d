import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderRoutes, requestsOf } from '../test/render.tsx';
import { Navbar } from './navbar.tsx';
import { truncateEmail } from './truncate-email.ts';

const user = (email: string) => ({ user: { _id: 'u1', email, firstName: 'Ada', lastName: 'Lovelace' } });

function renderNavbar() {
  return renderRoutes(
    [
      { path: '/', element: <Navbar /> },
      { path: '/login', element: <h1>Log in screen</h1> },
    ],
    '/',
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('truncateEmail', () => {
  it('keeps e-mails of 15 characters or fewer whole', () => {
    expect(truncateEmail('abc@example.com')).toBe('abc@example.com');
  });
  it('cuts longer e-mails to their first 15 characters plus an ellipsis', () => {
    expect(truncateEmail('ada.lovelace@example.com')).toBe('ada.lovelace@ex…');
  });
});

describe('Navbar', () => {
  it('shows Sign In and Sign Up when the server says nobody is signed in', async () => {
    mockFetch({ 'GET /api/me': () => ({ status: 401, json: { message: 'Not signed in' } }) });
    renderNavbar();
    expect(await screen.findByRole('link', { name: 'Sign In' })).toHaveProperty('pathname', '/login');
    expect(screen.getByRole('link', { name: 'Sign Up' })).toHaveProperty('pathname', '/signup');
    expect(screen.getByRole('search', { name: 'Search' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Create Workspace' })).toHaveProperty(
      'pathname',
      '/workspace/create',
    );
  });

  it('shows the signed-in e-mail cut to 15 characters plus an ellipsis', async () => {
    mockFetch({ 'GET /api/me': () => ({ json: user('ada.lovelace@example.com') }) });
    renderNavbar();
    const button = await screen.findByRole('button', { name: /ada\.lovelace@ex…/ });
    expect(button.textContent).toContain('ada.lovelace@ex…');
    expect(button.textContent).not.toContain('ada.lovelace@exa');
    expect(screen.queryByRole('link', { name: 'Sign In' })).toBeNull();
  });

  it('opens the menu from the keyboard and closes it with Escape', async () => {
    mockFetch({ 'GET /api/me': () => ({ json: user('ada@example.com') }) });
    renderNavbar();
    const button = await screen.findByRole('button', { name: /ada@example\.com/ });
    expect(button.getAttribute('aria-expanded')).toBe('false');

    button.focus();
    await userEvent.keyboard('{ArrowDown}');
    const menu = screen.getByRole('menu');
    expect(button.getAttribute('aria-expanded')).toBe('true');
    await waitFor(() =>
      expect(document.activeElement).toBe(within(menu).getByRole('menuitem', { name: 'Profile' })),
    );
    await userEvent.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(within(menu).getByRole('menuitem', { name: 'Saved' }));
    expect(within(menu).getByRole('menuitem', { name: 'Saved' }).getAttribute('href')).toBe('/saved');
    await userEvent.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(within(menu).getByRole('menuitem', { name: 'Log out' }));

    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('logs out: tells the server, forgets the stored e-mail and name, goes to /login', async () => {
    let signedIn = true;
    const fetchMock = mockFetch({
      'GET /api/me': () =>
        signedIn ? { json: user('ada@example.com') } : { status: 401, json: { message: 'x' } },
      'POST /api/logout': () => {
        signedIn = false;
        return { json: { message: 'Logged out' } };
      },
    });
    localStorage.setItem('email', 'ada@example.com');
    localStorage.setItem('userName', 'Ada Lovelace');
    const { router } = renderNavbar();

    await userEvent.click(await screen.findByRole('button', { name: /ada@example\.com/ }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Log out' }));

    await screen.findByRole('heading', { name: 'Log in screen' });
    expect(router.state.location.pathname).toBe('/login');
    expect(requestsOf(fetchMock).map((r) => r.route)).toContain('POST /api/logout');
    expect(localStorage.getItem('email')).toBeNull();
    expect(localStorage.getItem('userName')).toBeNull();
  });
});
