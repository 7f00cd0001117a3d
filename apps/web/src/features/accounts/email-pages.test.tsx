import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderAt, renderRoutes, requestsOf } from '../../test/render.tsx';
import ConfirmEmailPage from './confirm-email-page.tsx';
import ForgotPasswordPage from './forgot-password-page.tsx';
import ResetPasswordPage from './reset-password-page.tsx';
import SignupPage from './signup-page.tsx';
import { VerifyEmailBanner } from './verify-email-banner.tsx';
import VerifyEmailPage from './verify-email-page.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const ME = { _id: 'u1', email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' };
const TOKEN = 'a'.repeat(43);

describe('password strength in the sign-up form', () => {
  it('shows the reason under the field and sends nothing for a weak password', async () => {
    const fetchMock = mockFetch({ 'GET /api/config': () => ({ json: { googleClientId: null } }) });
    renderAt('/signup', <SignupPage />);
    await userEvent.type(screen.getByRole('textbox', { name: 'First name' }), 'Ada');
    await userEvent.type(screen.getByRole('textbox', { name: 'Last name' }), 'Lovelace');
    await userEvent.type(screen.getByRole('textbox', { name: 'E-mail' }), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'password123');
    await userEvent.type(screen.getByLabelText('Confirm password'), 'password123');
    await userEvent.click(screen.getByRole('checkbox', { name: /Terms of Service and Privacy Policy/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));

    const field = screen.getByLabelText('Password');
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    const reason = document.getElementById(String(field.getAttribute('aria-describedby')));
    expect(reason?.textContent).toMatch(/too easy to guess.*commonly used password/);
    expect(requestsOf(fetchMock).some((r) => r.route === 'POST /api/signup')).toBe(false);
  });
});

describe('ForgotPasswordPage', () => {
  it('sends the address and shows the one answer the server gives', async () => {
    const fetchMock = mockFetch({
      'POST /api/account/password/forgot': () => ({
        json: { message: 'If an account exists for that address, we sent a link to reset its password.' },
      }),
    });
    renderAt('/forgot-password', <ForgotPasswordPage />);
    await userEvent.type(screen.getByRole('textbox', { name: 'E-mail' }), ' Ada@Example.com ');
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect((await screen.findByRole('status')).textContent).toContain(
      'If an account exists for that address, we sent a link to reset its password.',
    );
    expect(requestsOf(fetchMock)).toEqual([
      { route: 'POST /api/account/password/forgot', body: { email: 'ada@example.com' } },
    ]);
  });

  it('asks for a valid address before sending', async () => {
    const fetchMock = mockFetch({});
    renderAt('/forgot-password', <ForgotPasswordPage />);
    await userEvent.type(screen.getByRole('textbox', { name: 'E-mail' }), 'nope');
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('Enter a valid e-mail address')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('ResetPasswordPage', () => {
  const fill = async (password: string, confirmation = password) => {
    await userEvent.type(screen.getByLabelText('New password'), password);
    await userEvent.type(screen.getByLabelText('Confirm new password'), confirmation);
    await userEvent.click(screen.getByRole('button', { name: 'Set new password' }));
  };

  it('sets the password with the token of the link, then signs in', async () => {
    const fetchMock = mockFetch({
      'POST /api/account/password/reset': () => ({
        json: { token: 'session', message: 'Your password was reset.' },
      }),
      'GET /api/me': () => ({ json: { user: { ...ME, emailVerified: true } } }),
    });
    const { router } = renderRoutes(
      [
        { path: '/reset-password', element: <ResetPasswordPage /> },
        { path: '/dashboard', element: <p>Dashboard</p> },
      ],
      `/reset-password?token=${TOKEN}`,
    );
    await fill('a completely new passphrase');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(requestsOf(fetchMock)[0]).toEqual({
      route: 'POST /api/account/password/reset',
      body: { token: TOKEN, password: 'a completely new passphrase' },
    });
    expect(localStorage.getItem('email')).toBe(ME.email);
  });

  it('sends an account with two-factor sign-in to /login instead', async () => {
    mockFetch({
      'POST /api/account/password/reset': () => ({
        json: { message: 'Log in with a code.', twoFactorRequired: true },
      }),
    });
    const { router } = renderRoutes(
      [
        { path: '/reset-password', element: <ResetPasswordPage /> },
        { path: '/login', element: <p>Login</p> },
      ],
      `/reset-password?token=${TOKEN}`,
    );
    await fill('a completely new passphrase');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('refuses a weak or mistyped password before sending, and shows a spent link', async () => {
    const fetchMock = mockFetch({
      'POST /api/account/password/reset': () => ({
        status: 400,
        json: {
          message: 'This link was already used. Ask for a new one if you still need it.',
          field: 'token',
        },
      }),
    });
    renderAt(`/reset-password?token=${TOKEN}`, <ResetPasswordPage />);
    await fill('qwertyuiop');
    await waitFor(() =>
      expect(screen.getByLabelText('New password').getAttribute('aria-invalid')).toBe('true'),
    );
    expect(fetchMock).not.toHaveBeenCalled();

    await userEvent.clear(screen.getByLabelText('New password'));
    await userEvent.clear(screen.getByLabelText('Confirm new password'));
    await fill('a completely new passphrase');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This link was already used');
    expect(screen.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe(
      '/forgot-password',
    );
  });
});

describe('VerifyEmailPage', () => {
  it('posts the token once and says the address is verified', async () => {
    const fetchMock = mockFetch({
      'GET /api/me': () => ({ json: { user: { ...ME, emailVerified: false } } }),
      'POST /api/account/verify-email': () => ({ json: { message: 'Your e-mail address is verified.' } }),
    });
    renderAt(`/verify-email?token=${TOKEN}`, <VerifyEmailPage />);
    expect(await screen.findByText('Your e-mail address is verified.')).toBeTruthy();
    const posts = requestsOf(fetchMock).filter((r) => r.route === 'POST /api/account/verify-email');
    expect(posts).toEqual([{ route: 'POST /api/account/verify-email', body: { token: TOKEN } }]);
  });

  it('reads the session again after the change, not a read answered before it', async () => {
    // The page's first session read reaches the server before the verification and is answered after it.
    let verified = false;
    let answerFirstRead = () => {};
    const reads: boolean[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const json = (body: unknown) =>
          new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
        if (new URL(String(input), 'http://localhost').pathname === '/api/account/verify-email') {
          verified = true;
          setTimeout(answerFirstRead, 20);
          return json({ message: 'Your e-mail address is verified.' });
        }
        const seen = verified;
        reads.push(seen);
        if (reads.length === 1) await new Promise<void>((resolve) => (answerFirstRead = resolve));
        if (init?.signal?.aborted) throw new DOMException('aborted', 'AbortError');
        return json({ user: { ...ME, emailVerified: seen } });
      }),
    );
    const { client } = renderAt(`/verify-email?token=${TOKEN}`, <VerifyEmailPage />);
    expect(await screen.findByText('Your e-mail address is verified.')).toBeTruthy();
    await waitFor(() =>
      expect(client.getQueryData<{ emailVerified: boolean }>(['me'])?.emailVerified).toBe(true),
    );
    expect(reads).toEqual([false, true]);
  });

  it('shows why a link did not work, with a way to get a new one', async () => {
    mockFetch({
      'GET /api/me': () => ({ json: { user: { ...ME, emailVerified: false } } }),
      'POST /api/account/verify-email': () => ({
        status: 400,
        json: { message: 'This link has expired. Ask for a new one.', field: 'token' },
      }),
    });
    renderAt(`/verify-email?token=${TOKEN}`, <VerifyEmailPage />);
    expect((await screen.findByRole('alert')).textContent).toContain('This link has expired.');
    expect(await screen.findByRole('button', { name: 'Resend verification e-mail' })).toBeTruthy();
  });
});

describe('ConfirmEmailPage', () => {
  it('confirms the new address and updates the stored display address', async () => {
    let confirmed = false;
    mockFetch({
      'POST /api/account/email/confirm': () => {
        confirmed = true;
        return { json: { message: 'Your e-mail address was changed.' } };
      },
      'GET /api/me': () => ({
        json: { user: { ...ME, email: confirmed ? 'new@example.com' : ME.email, emailVerified: true } },
      }),
    });
    renderAt(`/confirm-email?token=${TOKEN}`, <ConfirmEmailPage />);
    expect(await screen.findByText('Your e-mail address was changed.')).toBeTruthy();
    await waitFor(() => expect(localStorage.getItem('email')).toBe('new@example.com'));
  });
});

describe('VerifyEmailBanner', () => {
  it('says where the link went and resends it, showing the server refusal when limited', async () => {
    let calls = 0;
    mockFetch({
      'POST /api/account/verification/resend': () =>
        ++calls === 1
          ? { json: { message: 'We sent a verification link to your e-mail address.' } }
          : {
              status: 429,
              json: {
                message: 'Too many verification e-mails. Please wait a while before asking for another.',
              },
            },
    });
    renderAt('/', <VerifyEmailBanner email="ada@example.com" />);
    const banner = screen.getByRole('region', { name: 'E-mail verification' });
    expect(banner.textContent).toContain('ada@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Resend verification e-mail' }));
    expect(await screen.findByText('We sent a verification link to your e-mail address.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Resend verification e-mail' }));
    expect(await screen.findByText(/Too many verification e-mails/)).toBeTruthy();
  });
});
