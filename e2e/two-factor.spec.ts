import { expect, type Page, test } from '@playwright/test';
import { generate } from 'otplib';
import { axeViolations } from './axe.ts';
import { createAccount, navbar, PASSWORD, uniqueEmail } from './fixtures.ts';

/**
 * Two-factor sign-in end to end: the test is the person's authenticator app. It reads the secret
 * shown on Profile → Security and computes the codes with otplib, as a phone app would.
 */

const STEP_SECONDS = 30;
/**
 * The code for the time step after the current one: the server accepts one step of clock drift, and
 * a step later than the one used to turn 2FA on is never refused as a reused code.
 */
const nextStepCode = (secret: string) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + STEP_SECONDS });

async function logInWithPassword(page: Page, email: string) {
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
}

test('turn on two-factor sign-in, sign out, sign in with the password and a code', async ({
  page,
  request,
}) => {
  const email = uniqueEmail();
  await createAccount(request, email);

  await logInWithPassword(page, email);
  await expect(page.getByText('Login successful!')).toBeVisible();
  const menuButton = navbar(page).getByRole('button', { name: `${email.slice(0, 15)}…`, exact: true });
  await expect(menuButton).toBeVisible();

  // Profile → Security: this browser is listed as this device.
  await page.goto('/profile#security');
  const security = page.getByRole('region', { name: 'Security' });
  await expect(security.getByRole('table', { name: 'Your sessions' }).getByText('This device')).toBeVisible();

  await security.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
  await expect(security.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await security.getByTestId('totp-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  expect(await axeViolations(page)).toEqual([]);
  await security
    .getByRole('textbox', { name: '6-digit code' })
    .fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) }));
  await security.getByRole('button', { name: 'Confirm and turn on' }).click();

  const codes = security.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  await security.getByRole('button', { name: 'I have saved my codes' }).click();
  await expect(security.getByText(/10 of 10 recovery codes left/)).toBeVisible();

  await menuButton.click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);

  // The password alone no longer signs in: it asks for a code, and no session exists meanwhile.
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  const code = page.getByRole('textbox', { name: 'Authentication code' });
  await expect(code).toBeVisible();
  await expect(
    page.getByText('Enter the 6-digit code from your authenticator app, or a recovery code.'),
  ).toBeVisible();
  expect((await page.request.get('/api/me')).status()).toBe(401);
  expect(await axeViolations(page)).toEqual([]);

  await code.fill('000000' === (await nextStepCode(secret)) ? '111111' : '000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('That code is not valid.', { exact: false })).toBeVisible();

  await code.fill(await nextStepCode(secret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('Login successful!')).toBeVisible();
  await expect(menuButton).toBeVisible();
  expect((await page.request.get('/api/me')).status()).toBe(200);
});

test('a recovery code signs in once instead of the authenticator code', async ({ page, request }) => {
  const email = uniqueEmail();
  await createAccount(request, email);
  // Turned on through the API (the first journey covers the page); the request context keeps the cookie.
  const login = await request.post('/api/login', { data: { email, password: PASSWORD } });
  expect(login.status()).toBe(200);
  const { secret } = await (await request.post('/api/2fa/setup', { data: {} })).json();
  const enabled = await request.post('/api/2fa/enable', {
    data: { code: await generate({ secret, epoch: Math.floor(Date.now() / 1000) }) },
  });
  const { recoveryCodes } = (await enabled.json()) as { recoveryCodes: string[] };
  const recovery = recoveryCodes[0] ?? '';

  for (const attempt of ['first', 'second'] as const) {
    await logInWithPassword(page, email);
    await page.getByRole('textbox', { name: 'Authentication code' }).fill(recovery);
    await page.getByRole('button', { name: 'Verify' }).click();
    if (attempt === 'first') {
      await expect(page.getByText('Login successful!')).toBeVisible();
      await page.context().clearCookies();
    } else {
      await expect(page.getByText('That code is not valid.', { exact: false })).toBeVisible();
      expect((await page.request.get('/api/me')).status()).toBe(401);
    }
  }
});
