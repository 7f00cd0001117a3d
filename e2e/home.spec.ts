import { expect, test } from '@playwright/test';
import { uniqueEmail } from './fixtures.ts';

test('the features carousel advances by itself', async ({ page }) => {
  await page.goto('/');
  const carousel = page.getByRole('region', { name: 'Features' });
  await expect(carousel).toHaveAttribute('aria-roledescription', 'carousel');
  await expect(carousel.getByRole('group')).toHaveCount(6);
  await expect(carousel.getByRole('group', { name: '1 of 6' })).toContainText('Channels');
  const first = await carousel.getAttribute('data-selected-index');
  expect(first).toBe('0');

  // Autoplay moves every 3000 ms.
  await expect(carousel).not.toHaveAttribute('data-selected-index', '0', { timeout: 7_000 });
});

test('the landing page has the spec sections and footer anchors', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  for (const step of ['Sign Up', 'Create a Workspace', 'Start Collaborating']) {
    await expect(page.getByRole('heading', { name: step, exact: true })).toBeVisible();
  }
  await expect(page.getByRole('link', { name: 'Get Started Today' })).toHaveAttribute('href', '/signup');
  const quickLinks = page.getByRole('navigation', { name: 'Quick links' });
  for (const id of ['home', 'features', 'pricing', 'about', 'contact']) {
    await expect(quickLinks.locator(`a[href="#${id}"]`)).toHaveCount(1);
    await expect(page.locator(`#${id}`)).toHaveCount(1);
  }
  await expect(page.getByRole('contentinfo')).toContainText('2024');
});

test('the contact form stores a message and confirms', async ({ page }) => {
  await page.goto('/contact');
  await expect(page.getByRole('heading', { level: 1, name: 'Contact Us' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Ada Lovelace');
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(uniqueEmail());
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Hello from the end-to-end tests.');
  const response = page.waitForResponse((res) => res.url().endsWith('/api/contact'));
  await page.getByRole('button', { name: 'Send Message' }).click();

  expect((await response).status()).toBe(201);
  await expect(page.getByRole('status').filter({ hasText: 'We have received your message' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Message', exact: true })).toHaveValue('');
});

test('the newsletter box subscribes an e-mail', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('textbox', { name: 'Newsletter e-mail address' }).fill(uniqueEmail());
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByText('You are subscribed.')).toBeVisible();
});
