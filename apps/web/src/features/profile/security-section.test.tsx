import { SECURITY_MESSAGES, type SessionItem, type TwoFactorStatus } from '@cohort/shared/security';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderAt, requestsOf } from '../../test/render.tsx';
import { SecuritySection } from './security-section.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

const session = (overrides: Partial<SessionItem>): SessionItem => ({
  _id: 's1',
  device: 'Firefox on Linux',
  ip: '203.0.113.7',
  createdAt: '2026-01-02T10:00:00.000Z',
  lastActiveAt: '2026-01-03T10:00:00.000Z',
  current: false,
  ...overrides,
});
const off: TwoFactorStatus = { enabled: false, recoveryCodesLeft: 0, hasPassword: true };
const on: TwoFactorStatus = { enabled: true, recoveryCodesLeft: 7, hasPassword: true };
const codes = Array.from({ length: 10 }, (_, i) => `abcd-efgh-jk${String(i).padStart(2, '2')}`);

describe('Profile → Security: sessions', () => {
  it('lists the sessions, marks this device, and revokes another one', async () => {
    let sessions = [
      session({ _id: 'mine', device: 'Chrome on macOS', current: true }),
      session({ _id: 'phone', device: 'Safari on iOS', ip: '198.51.100.9' }),
    ];
    const fetchMock = mockFetch({
      'GET /api/2fa': () => ({ json: off }),
      'GET /api/sessions': () => ({ json: sessions }),
      'DELETE /api/sessions/phone': () => {
        sessions = sessions.filter((s) => s._id !== 'phone');
        return { status: 204, json: null };
      },
    });
    renderAt('/profile', <SecuritySection />);
    const table = await screen.findByRole('table', { name: 'Your sessions' });
    const mine = within(table).getByRole('rowheader', { name: /Chrome on macOS/ });
    expect(within(mine).getByText('This device')).toBeTruthy();
    expect(within(table).getByText('198.51.100.9')).toBeTruthy();
    // This session signs out with Log out, not from here.
    expect(within(table).getAllByRole('button', { name: /^Revoke/ })).toHaveLength(1);

    await userEvent.click(within(table).getByRole('button', { name: /^Revoke Safari on iOS/ }));
    expect(await screen.findByText('Signed out Safari on iOS')).toBeTruthy();
    expect(requestsOf(fetchMock).map((r) => r.route)).toContain('DELETE /api/sessions/phone');
    await vi.waitFor(() => expect(within(table).queryByText('Safari on iOS')).toBeNull());
  });

  it('signs out everywhere else, and disables that when there is nowhere else', async () => {
    let sessions = [session({ _id: 'mine', current: true }), session({ _id: 'other' })];
    mockFetch({
      'GET /api/2fa': () => ({ json: off }),
      'GET /api/sessions': () => ({ json: sessions }),
      'POST /api/sessions/revoke-others': () => {
        sessions = sessions.filter((s) => s.current);
        return { json: { message: SECURITY_MESSAGES.othersRevoked, revoked: 1 } };
      },
    });
    renderAt('/profile', <SecuritySection />);
    const button = await screen.findByRole('button', { name: 'Sign out everywhere else' });
    await vi.waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
    await userEvent.click(button);
    expect(await screen.findByText(SECURITY_MESSAGES.othersRevoked)).toBeTruthy();
    await vi.waitFor(() => expect(button.hasAttribute('disabled')).toBe(true));
  });
});

describe('Profile → Security: two-factor sign-in', () => {
  it('sets it up with the QR code and secret, confirms a code, and shows the recovery codes once', async () => {
    let status = off;
    const fetchMock = mockFetch({
      'GET /api/sessions': () => ({ json: [session({ current: true })] }),
      'GET /api/2fa': () => ({ json: status }),
      'POST /api/2fa/setup': () => ({
        json: {
          otpauthUri: 'otpauth://totp/x',
          secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
          qrCode: 'data:image/svg+xml;base64,PHN2Zy8+',
        },
      }),
      'POST /api/2fa/enable': () => {
        status = { enabled: true, recoveryCodesLeft: 10, hasPassword: true };
        return { json: { message: SECURITY_MESSAGES.enabled, recoveryCodes: codes } };
      },
    });
    renderAt('/profile', <SecuritySection />);
    await userEvent.click(await screen.findByRole('button', { name: 'Turn on two-factor sign-in' }));

    const qr = await screen.findByRole('img', { name: 'QR code for your authenticator app' });
    expect(qr.getAttribute('src')).toBe('data:image/svg+xml;base64,PHN2Zy8+');
    expect(screen.getByTestId('totp-secret').textContent).toBe('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');

    // A malformed code is caught before it is sent.
    const field = screen.getByRole('textbox', { name: '6-digit code' });
    await userEvent.type(field, '12ab');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm and turn on' }));
    expect(await screen.findByText('Enter the 6-digit code from your authenticator app')).toBeTruthy();
    expect(requestsOf(fetchMock).some((r) => r.route === 'POST /api/2fa/enable')).toBe(false);

    await userEvent.clear(field);
    await userEvent.type(field, '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm and turn on' }));
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(codes);
    expect(requestsOf(fetchMock).find((r) => r.route === 'POST /api/2fa/enable')?.body).toEqual({
      code: '123456',
    });
    expect(screen.getByRole('button', { name: 'Copy' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download' })).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'I have saved my codes' }));
    expect(await screen.findByText(/10 of 10 recovery codes left/)).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).toBeNull();
  });

  it('shows a refused first code under the field', async () => {
    mockFetch({
      'GET /api/sessions': () => ({ json: [] }),
      'GET /api/2fa': () => ({ json: off }),
      'POST /api/2fa/setup': () => ({
        json: { otpauthUri: 'otpauth://totp/x', secret: 'S', qrCode: 'data:,' },
      }),
      'POST /api/2fa/enable': () => ({
        status: 400,
        json: { message: SECURITY_MESSAGES.invalidCode, field: 'code' },
      }),
    });
    renderAt('/profile', <SecuritySection />);
    await userEvent.click(await screen.findByRole('button', { name: 'Turn on two-factor sign-in' }));
    await userEvent.type(await screen.findByRole('textbox', { name: '6-digit code' }), '654321');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm and turn on' }));
    expect(await screen.findByText(SECURITY_MESSAGES.invalidCode)).toBeTruthy();
  });

  it('turns it off with the password and a code, showing the server refusal under its field', async () => {
    let status = on;
    let attempts = 0;
    const fetchMock = mockFetch({
      'GET /api/sessions': () => ({ json: [] }),
      'GET /api/2fa': () => ({ json: status }),
      'POST /api/2fa/disable': () => {
        attempts++;
        if (attempts === 1)
          return { status: 400, json: { message: SECURITY_MESSAGES.wrongPassword, field: 'password' } };
        status = off;
        return { json: { message: SECURITY_MESSAGES.disabled } };
      },
    });
    renderAt('/profile', <SecuritySection />);
    expect(await screen.findByText(/7 of 10 recovery codes left/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Turn off two-factor sign-in' }));
    const form = screen.getByRole('form', { name: 'Turn off two-factor sign-in' });
    await userEvent.click(within(form).getByRole('button', { name: 'Turn off' }));
    expect(await within(form).findByText(SECURITY_MESSAGES.passwordRequired)).toBeTruthy();
    expect(within(form).getByText(SECURITY_MESSAGES.codeRequired)).toBeTruthy();

    await userEvent.type(within(form).getByLabelText('Password'), 'wrong one');
    await userEvent.type(within(form).getByRole('textbox', { name: 'Code' }), 'abcd-efgh-jkmn');
    await userEvent.click(within(form).getByRole('button', { name: 'Turn off' }));
    expect(await within(form).findByText(SECURITY_MESSAGES.wrongPassword)).toBeTruthy();

    await userEvent.click(within(form).getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByRole('button', { name: 'Turn on two-factor sign-in' })).toBeTruthy();
    expect(
      requestsOf(fetchMock)
        .filter((r) => r.route === 'POST /api/2fa/disable')
        .at(-1)?.body,
    ).toEqual({
      password: 'wrong one',
      code: 'abcd-efgh-jkmn',
    });
  });

  it('asks a Google-only account for the code alone', async () => {
    mockFetch({
      'GET /api/sessions': () => ({ json: [] }),
      'GET /api/2fa': () => ({ json: { ...on, hasPassword: false } }),
    });
    renderAt('/profile', <SecuritySection />);
    await userEvent.click(await screen.findByRole('button', { name: 'Turn off two-factor sign-in' }));
    const form = screen.getByRole('form', { name: 'Turn off two-factor sign-in' });
    expect(within(form).queryByLabelText('Password')).toBeNull();
    expect(within(form).getByRole('textbox', { name: 'Code' })).toBeTruthy();
  });
});
