import { expect, test } from '@playwright/test';
import { createAccount, navbar, PASSWORD, uniqueEmail } from './fixtures.ts';

test('sign up, log in, see the cut e-mail, open the profile menu, log out', async ({ page }) => {
  const email = uniqueEmail();

  await page.goto('/signup');
  await page.getByRole('textbox', { name: 'First name' }).fill('Ada');
  await page.getByRole('textbox', { name: 'Last name' }).fill('Lovelace');
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
  await page.getByRole('checkbox', { name: /Terms of Service and Privacy Policy/ }).check();
  await page.getByRole('button', { name: 'Create Account' }).click();

  // Signing up confirms but neither signs in nor redirects (SPEC §4).
  await expect(page.getByText('Account created successfully!')).toBeVisible();
  await expect(page).toHaveURL(/\/signup$/);
  await expect(navbar(page).getByRole('link', { name: 'Sign In' })).toBeVisible();

  await navbar(page).getByRole('link', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();

  await expect(page.getByText('Login successful!')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  const menuButton = navbar(page).getByRole('button', { name: `${email.slice(0, 15)}…`, exact: true });
  await expect(menuButton).toBeVisible();
  await expect(navbar(page).getByRole('link', { name: 'Sign In' })).toHaveCount(0);
  // The token never reaches script-readable storage; the e-mail is kept for display only.
  expect(await page.evaluate(() => localStorage.getItem('email'))).toBe(email);
  expect(await page.evaluate(() => document.cookie)).not.toContain('cohort_session');

  await menuButton.click();
  await expect(menuButton).toHaveAttribute('aria-expanded', 'true');
  await page.getByRole('menuitem', { name: 'Profile' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();

  await menuButton.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Profile' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toHaveCount(0);
  await expect(menuButton).toBeFocused();

  await menuButton.click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(navbar(page).getByRole('link', { name: 'Sign In' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('email'))).toBeNull();
  expect((await page.request.get('/api/me')).status()).toBe(401);
});

test('a wrong password shows the server message', async ({ page, request }) => {
  const email = uniqueEmail();
  await createAccount(request, email);

  await page.goto('/login');
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill('not the password');
  await page.getByRole('button', { name: 'Log in' }).click();

  await expect(page.getByText('Invalid e-mail or password')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await expect(navbar(page).getByRole('link', { name: 'Sign In' })).toBeVisible();
});

test('a protected page sends a signed-out visitor to log in and back again', async ({ page, request }) => {
  const email = uniqueEmail();
  await createAccount(request, email);

  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login\?next=%2Fdashboard$/);
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('checkbox', { name: 'Remember me' }).check();
  await page.getByRole('button', { name: 'Log in' }).click();

  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Your Workspaces' })).toBeVisible();
  // Remember me asks for a persistent cookie (Max-Age set), not a browser-session one.
  const session = (await page.context().cookies()).find((cookie) => cookie.name === 'cohort_session');
  expect(session?.expires).toBeGreaterThan(Date.now() / 1000);
});

test('passwords that differ are refused before anything is sent', async ({ page }) => {
  let signupRequests = 0;
  page.on('request', (req) => {
    if (req.url().endsWith('/api/signup')) signupRequests += 1;
  });
  await page.goto('/signup');
  await page.getByRole('textbox', { name: 'First name' }).fill('Ada');
  await page.getByRole('textbox', { name: 'Last name' }).fill('Lovelace');
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(uniqueEmail());
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password', { exact: true }).fill(`${PASSWORD}!`);
  await page.getByRole('checkbox', { name: /Terms of Service and Privacy Policy/ }).check();
  await page.getByRole('button', { name: 'Create Account' }).click();

  await expect(page.getByText('Passwords do not match')).toBeVisible();
  expect(signupRequests).toBe(0);
});
