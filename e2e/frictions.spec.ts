import { expect, type Page, test } from '@playwright/test';
import {
  acceptInvitations,
  createAccount,
  messageAction,
  PASSWORD,
  type Person,
  person,
  uniqueEmail,
} from './fixtures.ts';

// Two browsers and the server share a busy 2-core machine: journeys of several pages get more time.
test.describe.configure({ timeout: 120_000 });

/**
 * Issue 19, the frictions of everyday use: signing in lands on the dashboard (and a workspace's Exit
 * goes back there), the login form keeps what was typed while the session check is still running, a
 * picked @mention reads "@Name" in the composer yet notifies, `:smi` completes to 😄, any emoji of
 * the picker is a reaction, and the channel summary is a compact, collapsible strip.
 */

async function workspaceWithChannel(admin: Person, member: Person) {
  const name = `Friction ${Math.random().toString(36).slice(2, 8)}`;
  const created = await admin.context.request.post('/api/workspaces', {
    data: { name, description: 'Issue 19', members: [{ email: member.email, role: 'editor' }] },
  });
  expect(created.status()).toBe(201);
  await acceptInvitations(member.context.request, { workspace: name });
  const res = await admin.context.request.post(`/api/workspaces/${encodeURIComponent(name)}/channels`, {
    data: { name: 'general', description: 'Talk', members: [] },
  });
  expect(res.status()).toBe(201);
  const { _id } = (await res.json()) as { _id: string };
  return { name, url: `/workspace/${encodeURIComponent(name)}/channel/${_id}` };
}

const log = (page: Page) => page.getByRole('log', { name: 'Messages in general' });
const composer = (page: Page) => page.getByRole('textbox', { name: 'Message general' });

async function openChannel(page: Page, url: string) {
  await page.goto(url);
  // A busy machine can take a while to load the channel's chunk and history.
  await expect(page.getByRole('heading', { name: 'general Chat' })).toBeVisible({ timeout: 30_000 });
  await expect(log(page)).toHaveAttribute('aria-busy', 'false');
}

test('signing in lands on the dashboard, and a workspace’s Exit goes back to it', async ({
  page,
  request,
}) => {
  const email = uniqueEmail();
  await createAccount(request, email);
  const created = await request.post('/api/login', { data: { email, password: PASSWORD } });
  expect(created.status()).toBe(200);
  const name = `Exit ${Math.random().toString(36).slice(2, 8)}`;
  expect(
    (await request.post('/api/workspaces', { data: { name, description: 'x', members: [] } })).status(),
  ).toBe(201);

  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Log in to Cohort' })).toBeVisible();
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Your Workspaces' })).toBeVisible();

  await page.goto(`/workspace/${encodeURIComponent(name)}`);
  // The workspace chunk and its data can take a while on a busy machine.
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('link', { name: 'Exit', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Your Workspaces' })).toBeVisible();
});

test('the login form keeps what was typed when the session check answers late', async ({ page }) => {
  // The session check is held until the form has been filled, as with a slow network or a
  // password manager that fills at once.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let checks = 0;
  await page.route('**/api/me', async (route) => {
    checks += 1;
    await held;
    await route.continue();
  });
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Log in to Cohort' })).toBeVisible();
  const email = page.getByRole('textbox', { name: 'E-mail', exact: true });
  await email.fill('early@example.com');
  await page.getByLabel('Password', { exact: true }).fill('typed before the check');
  await expect.poll(() => checks).toBeGreaterThan(0);
  release();
  // The check answered (signed out: the navbar offers Sign In) and nothing was reset.
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign In' }),
  ).toBeVisible();
  await expect(email).toHaveValue('early@example.com');
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue('typed before the check');
});

test.describe('composer and reactions', () => {
  let ada: Person;
  let bob: Person;
  let url: string;

  test.beforeAll(async ({ browser }) => {
    ada = await person(browser, 'Ada', 'Lovelace');
    bob = await person(browser, 'Bob', 'Builder');
    ({ url } = await workspaceWithChannel(ada, bob));
  });
  test.afterAll(async () => {
    await ada?.context.close();
    await bob?.context.close();
  });

  test('a picked mention reads @Name in the composer and still notifies', async () => {
    await openChannel(bob.page, url);
    const box = composer(bob.page);
    await box.click();
    await box.pressSequentially('Ping @Ad');
    await expect(
      bob.page
        .getByRole('listbox', { name: 'Mention suggestions' })
        .getByRole('option', { name: /Ada Lovelace/ }),
    ).toBeVisible();
    await box.press('Enter');
    await expect(box).toHaveValue('Ping @Ada Lovelace ');
    await box.pressSequentially('about the release');
    await box.press('Enter');
    await expect(box).toHaveValue('');
    const sent = log(bob.page).getByRole('listitem').filter({ hasText: 'about the release' });
    await expect(sent.locator('[data-mention]')).toHaveText('@Ada Lovelace');
    // The message carries the mention: Ada is notified.
    await ada.page.goto('/dashboard');
    await expect(ada.page.getByRole('button', { name: /^Notifications/ })).toHaveAccessibleName(
      /Notifications \(\d+ unread\)/,
    );
  });

  test(':smi suggests emojis, smile first, and Enter inserts 😄', async () => {
    await openChannel(bob.page, url);
    const box = composer(bob.page);
    await box.click();
    await box.pressSequentially('Ship it :smi');
    const list = bob.page.getByRole('listbox', { name: 'Emoji suggestions' });
    await expect(list.getByRole('option').first()).toHaveText('😄:smile:');
    await box.press('Enter');
    await expect(box).toHaveValue('Ship it 😄');
    await box.press('Enter');
    await expect(log(bob.page).getByRole('listitem').filter({ hasText: 'Ship it 😄' })).toHaveCount(1);
  });

  test('any emoji of the picker is a reaction that everyone sees', async () => {
    await openChannel(ada.page, url);
    await openChannel(bob.page, url);
    await composer(ada.page).fill('React to this with something rare');
    await composer(ada.page).press('Enter');
    const target = log(bob.page)
      .getByRole('listitem')
      .filter({ hasText: 'React to this with something rare' });
    await (await messageAction(target, 'Add reaction')).click();
    await bob.page.getByRole('button', { name: 'More emojis' }).click();
    const dialog = bob.page.getByRole('dialog', { name: 'Add reaction' });
    await dialog.getByRole('searchbox', { name: 'Search emojis' }).fill('unicorn');
    await dialog.getByRole('button', { name: 'unicorn' }).click();
    await expect(dialog).toBeHidden();
    const seen = log(ada.page)
      .getByRole('listitem')
      .filter({ hasText: 'React to this with something rare' })
      .getByRole('button', { name: /^🦄 1: Bob Builder reacted with 🦄/ });
    await expect(seen).toBeVisible();
  });

  test('the summary is a compact strip that collapses to one row', async () => {
    await openChannel(ada.page, url);
    for (const text of [
      'Should we launch the beta on March 3?',
      'Agreed.',
      "I'll send the invite for the launch review.",
    ]) {
      await composer(ada.page).fill(text);
      await composer(ada.page).press('Enter');
      await expect(log(ada.page).getByText(text)).toBeVisible();
    }
    // Shown is not stored: the summary reads what the server has, so wait for every send's ack.
    await expect(log(ada.page).getByText('Sending…')).toHaveCount(0);
    await ada.page.getByRole('button', { name: 'Show Summary' }).click();
    const panel = ada.page.getByRole('region', { name: 'Channel Conversation Summary' });
    await expect(
      panel
        .getByRole('listitem')
        .filter({ hasText: 'Ada Lovelace will send the invite for the launch review.' }),
    ).toBeVisible();
    const chat = ada.page.getByRole('region', { name: 'general Chat' });
    // At its tallest (the text box full, scrolling inside) the panel takes under 40% of the channel.
    const tallest = await panel.evaluate((node) => {
      // The text box is what the Collapse button controls.
      const id = node.querySelector('button[aria-controls]')?.getAttribute('aria-controls');
      const body = id ? document.getElementById(id) : null;
      const fixed = node.getBoundingClientRect().height - (body?.getBoundingClientRect().height ?? 0);
      return fixed + Number.parseFloat(body ? getComputedStyle(body).maxHeight : '0');
    });
    const chatBox = await chat.boundingBox();
    expect(tallest).toBeGreaterThan(0);
    expect(tallest / (chatBox?.height ?? 1)).toBeLessThan(0.4);
    await panel.getByRole('button', { name: 'Collapse' }).click();
    await expect(panel.getByText('Action items:')).toBeHidden();
    await expect(panel.getByRole('button', { name: 'Expand' })).toHaveAttribute('aria-expanded', 'false');
    await panel.getByRole('button', { name: 'Expand' }).click();
    await expect(panel.getByText('Action items:')).toBeVisible();
  });
});
