import { expect, test } from '@playwright/test';
import { createAccount, navbar, PASSWORD, uniqueEmail } from './fixtures.ts';
import { linkTo, listMail, waitForMail } from './mail.ts';

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
  // Cold: the password-strength dictionaries load lazily before the form may be sent.
  await expect(page.getByText('Account created successfully!')).toBeVisible({ timeout: 30_000 });
  await expect(page).toHaveURL(/\/signup$/);
  await expect(navbar(page).getByRole('link', { name: 'Sign In' })).toBeVisible();

  await navbar(page).getByRole('link', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/login$/);
  // The URL changes before the lazily loaded page replaces the sign-up form (same field names).
  await expect(page.getByRole('heading', { name: 'Log in to Cohort' })).toBeVisible();
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();

  await expect(page.getByText('Login successful!')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
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

test('sign up, open the link from the captured e-mail, and the address is verified', async ({ page }) => {
  const email = uniqueEmail();
  await page.goto('/signup');
  await page.getByRole('textbox', { name: 'First name' }).fill('Ada');
  await page.getByRole('textbox', { name: 'Last name' }).fill('Lovelace');
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
  await page.getByRole('checkbox', { name: /Terms of Service and Privacy Policy/ }).check();
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByRole('status').filter({ hasText: `We sent a link to ${email}` })).toBeVisible({
    timeout: 30_000,
  });
  const first = await waitForMail(email, { kind: 'verify_email' });
  expect(first.subject).toBe('Verify your e-mail address for Cohort');

  // Signed in but unverified: the banner is on every page, and it can send the link again.
  await page.getByRole('link', { name: 'Log in to get started' }).click();
  // The lazily loaded login page replaces a form with the same field names: wait for it.
  await expect(page.getByRole('heading', { name: 'Log in to Cohort' })).toBeVisible();
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  const banner = page.getByRole('region', { name: 'E-mail verification' });
  await expect(banner).toContainText(email);
  await page.goto('/dashboard');
  await expect(banner).toBeVisible();
  const before = await listMail(email);
  await banner.getByRole('button', { name: 'Resend verification e-mail' }).click();
  await expect(page.getByText('We sent a verification link to your e-mail address.')).toBeVisible();
  const resent = await waitForMail(email, { kind: 'verify_email', after: before });

  // The first link was replaced; the newest one verifies.
  await page.goto(linkTo(first, '/verify-email'));
  await expect(page.getByRole('alert')).toContainText('This link was already used');
  await page.goto(linkTo(resent, '/verify-email'));
  await expect(page.getByText('Your e-mail address is verified.')).toBeVisible();
  await page.getByRole('link', { name: 'Go to your workspaces' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Your Workspaces' })).toBeVisible();
  await expect(banner).toHaveCount(0);
  const me = (await (await page.request.get('/api/me')).json()) as { user: { emailVerified: boolean } };
  expect(me.user.emailVerified).toBe(true);
});

test('forgot password, reset from the e-mail: old sessions are signed out', async ({
  page,
  browser,
  request,
}) => {
  const email = uniqueEmail();
  await createAccount(request, email);
  // Another browser, signed in with the old password.
  const other = await browser.newContext();
  try {
    expect((await other.request.post('/api/login', { data: { email, password: PASSWORD } })).status()).toBe(
      200,
    );
    const otherPage = await other.newPage();
    await otherPage.goto('/dashboard');
    await expect(otherPage.getByRole('heading', { level: 1, name: 'Your Workspaces' })).toBeVisible();

    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot Password?' }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
    await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('status')).toContainText(
      'If an account exists for that address, we sent a link',
    );

    const mail = await waitForMail(email, { kind: 'reset_password' });
    expect(mail.subject).toBe('Reset your Cohort password');
    await page.goto(linkTo(mail, '/reset-password'));
    const newPassword = 'a brand new passphrase for ada';
    // A weak one is refused with the reason under the field.
    await page.getByLabel('New password', { exact: true }).fill('password123');
    await page.getByLabel('Confirm new password', { exact: true }).fill('password123');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByText(/too easy to guess/)).toBeVisible();
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Set new password' }).click();

    // Signed in here with the new password…
    await expect(page.getByText('Your password was reset.')).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard$/);
    expect((await page.request.get('/api/me')).status()).toBe(200);
    // …and the other browser is signed out.
    expect((await other.request.get('/api/me')).status()).toBe(401);
    await otherPage.goto('/dashboard');
    await expect(otherPage).toHaveURL(/\/login\?next=%2Fdashboard$/);
    expect((await request.post('/api/login', { data: { email, password: PASSWORD } })).status()).toBe(401);
    expect((await request.post('/api/login', { data: { email, password: newPassword } })).status()).toBe(200);
  } finally {
    await other.close();
  }
});

test('change the e-mail address from the profile: it moves when the new address confirms', async ({
  page,
  request,
}) => {
  const email = uniqueEmail();
  const newEmail = uniqueEmail();
  await createAccount(request, email);
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto('/profile');
  const section = page.getByRole('region', { name: 'E-mail address' });
  await section.getByRole('textbox', { name: 'New e-mail address' }).fill(newEmail);
  await section.getByLabel('Your password').fill(PASSWORD);
  await section.getByRole('button', { name: 'Send confirmation link' }).click();
  await expect(section.getByRole('status')).toContainText(newEmail);
  expect(((await (await page.request.get('/api/me')).json()) as { user: { email: string } }).user.email).toBe(
    email,
  );

  const mail = await waitForMail(newEmail, { kind: 'change_email' });
  await page.goto(linkTo(mail, '/confirm-email'));
  await expect(page.getByText('Your e-mail address was changed.')).toBeVisible();
  const me = (await (await page.request.get('/api/me')).json()) as {
    user: { email: string; emailVerified: boolean };
  };
  expect(me.user).toMatchObject({ email: newEmail, emailVerified: true });
  const notice = await waitForMail(email, { kind: 'email_changed' });
  expect(notice.text).toContain(newEmail);
});
