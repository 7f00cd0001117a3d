import { type Browser, expect, test } from '@playwright/test';
import { acceptInvitations, createAccount, PASSWORD, uniqueEmail } from './fixtures.ts';

/**
 * Presence between two real users: B opening the app turns B's dot in A's DM header green; B closing
 * it turns the dot grey once the server's grace period (5 s, so reloads do not flap) has passed.
 */

async function person(browser: Browser, firstName: string) {
  const email = uniqueEmail();
  const context = await browser.newContext();
  await createAccount(context.request, email, PASSWORD, { firstName, lastName: 'Tester' });
  const login = await context.request.post('/api/login', { data: { email, password: PASSWORD } });
  expect(login.status()).toBe(200);
  return { email, context };
}

test('A sees B online in the DM header while B has the app open, offline once B closes it', async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const ada = await person(browser, 'Ada');
  const bob = await person(browser, 'Bob');
  const name = `Presence ${Math.random().toString(36).slice(2, 8)}`;
  const created = await ada.context.request.post('/api/workspaces', {
    data: { name, description: 'Presence journey', members: [{ email: bob.email, role: 'editor' }] },
  });
  expect(created.status()).toBe(201);
  await acceptInvitations(bob.context.request, { workspace: name });

  const page = await ada.context.newPage();
  await page.goto('/chat');
  await page.getByRole('textbox', { name: 'Recipient e-mail' }).fill(bob.email);
  await page.getByRole('button', { name: 'Start Chat' }).click();
  const conversation = page.getByRole('region', { name: 'Bob Tester' });
  await expect(conversation.getByRole('img', { name: 'offline' })).toBeVisible();

  const bobPage = await bob.context.newPage();
  await bobPage.goto('/');
  await expect(conversation.getByRole('img', { name: 'online' })).toBeVisible({ timeout: 10_000 });

  // B also shows online in the workspace's People list, for A.
  const other = await ada.context.newPage();
  await other.goto(`/workspace/${encodeURIComponent(name)}`);
  const people = other.getByRole('region', { name: 'People' });
  await expect(
    people.getByRole('listitem').filter({ hasText: 'Bob Tester' }).getByRole('img'),
  ).toHaveAccessibleName('online');
  await other.close();

  await bobPage.close();
  await expect(conversation.getByRole('img', { name: 'offline' })).toBeVisible({ timeout: 15_000 });

  await ada.context.close();
  await bob.context.close();
});
