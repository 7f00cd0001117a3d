import { expect, type Page, test } from '@playwright/test';
import { acceptInvitations, type Person, person } from './fixtures.ts';

/**
 * Unread state kept by the server: Bob posts in a channel Ada is not looking at, Ada's sidebar counts
 * it (in both of her tabs); Ada opens the channel and sees the "New messages" line above Bob's
 * message; the count clears in her other tab too, and stays cleared after a reload.
 */

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Channels' });
const channelLink = (page: Page, channel: string) =>
  sidebar(page).getByRole('link', { name: new RegExp(`^(Private channel: )?${channel}`) });
const log = (page: Page, channel: string) => page.getByRole('log', { name: `Messages in ${channel}` });

/** Opens a channel and waits until the sidebar's read state has loaded (it marks channels seen). */
async function openChannel(page: Page, url: string, channel: string) {
  const listing = page.waitForResponse((r) => r.url().endsWith('/unread') && r.ok());
  await page.goto(url);
  // The first load of a lazy route can be slow on a busy machine.
  await expect(page.getByRole('heading', { name: `${channel} Chat` })).toBeVisible({ timeout: 20_000 });
  await expect(log(page, channel)).toHaveAttribute('aria-busy', 'false', { timeout: 10_000 });
  await listing;
}

test.describe('unread', () => {
  let ada: Person;
  let bob: Person;

  test.beforeEach(async ({ browser }) => {
    ada = await person(browser, 'Ada');
    bob = await person(browser, 'Bob');
  });

  test.afterEach(async () => {
    await ada.context.close();
    await bob.context.close();
  });

  test('counts what others post, draws the New messages line, and clears in every tab', async () => {
    // Three pages in two browsers on a shared 2-CPU machine.
    test.setTimeout(120_000);
    const name = `Unread ${Math.random().toString(36).slice(2, 8)}`;
    const created = await ada.context.request.post('/api/workspaces', {
      data: { name, description: 'Unread journeys', members: [{ email: bob.email, role: 'editor' }] },
    });
    expect(created.status()).toBe(201);
    await acceptInvitations(bob.context.request, { workspace: name });
    const urls: Record<string, string> = {};
    for (const channel of ['general', 'random']) {
      const res = await ada.context.request.post(`/api/workspaces/${encodeURIComponent(name)}/channels`, {
        data: { name: channel, description: `About ${channel}`, members: [] },
      });
      expect(res.status()).toBe(201);
      urls[channel] =
        `/workspace/${encodeURIComponent(name)}/channel/${((await res.json()) as { _id: string })._id}`;
    }
    const adaTab2 = await ada.context.newPage();

    // Ada reads #general in two tabs; some history in #random from before is not news to her.
    await openChannel(ada.page, urls.general as string, 'general');
    await openChannel(adaTab2, urls.general as string, 'general');
    await expect(channelLink(ada.page, 'random')).not.toContainText('unread');

    // Bob posts in #random.
    await openChannel(bob.page, urls.random as string, 'random');
    const composer = bob.page.getByRole('textbox', { name: 'Message random' });
    await composer.fill('Lunch at noon?');
    await composer.press('Enter');
    await expect(composer).toHaveValue('');
    await expect(log(bob.page, 'random').getByText('Lunch at noon?')).toBeVisible();

    for (const page of [ada.page, adaTab2]) {
      await expect(channelLink(page, 'random')).toContainText('1 unread');
    }
    await expect(channelLink(ada.page, 'general')).not.toContainText('unread');

    // Ada opens #random in her first tab: the line sits right above Bob's message.
    await channelLink(ada.page, 'random').click();
    const randomLog = log(ada.page, 'random');
    const line = randomLog.getByRole('separator', { name: 'New messages' });
    await expect(line).toBeVisible();
    await expect(randomLog.locator('li:has(> hr[aria-label="New messages"]) + li')).toContainText(
      'Lunch at noon?',
    );
    await expect(channelLink(ada.page, 'random')).not.toContainText('unread');

    // Her other tab, still on #general, hears about it from the server.
    await expect(channelLink(adaTab2, 'random')).not.toContainText('unread');
    // Bob writes more while Ada reads: no new line, the first one stays where it was.
    await composer.fill('Or 1 pm?');
    await composer.press('Enter');
    await expect(randomLog.getByText('Or 1 pm?')).toBeVisible();
    await expect(randomLog.getByRole('separator', { name: 'New messages' })).toHaveCount(1);
    await expect(channelLink(adaTab2, 'random')).not.toContainText('unread');

    // The mark is on the server: a reload (another device, as good as) shows nothing unread.
    await adaTab2.reload();
    await expect(adaTab2.getByRole('heading', { name: 'general Chat' })).toBeVisible({ timeout: 20_000 });
    await expect(channelLink(adaTab2, 'random')).toBeVisible();
    await expect(channelLink(adaTab2, 'random')).not.toContainText('unread');

    // Muting from the header dims the channel and hides its count in every tab.
    await ada.page.getByRole('button', { name: 'Mute', exact: true }).click();
    await expect(ada.page.getByRole('button', { name: 'Unmute' })).toBeVisible();
    await expect(channelLink(adaTab2, 'random')).toContainText('(muted)');
  });

  test('counts direct messages in the conversation list and marks them read when shown', async () => {
    test.setTimeout(120_000);
    const created = await ada.context.request.post('/api/workspaces', {
      data: {
        name: `DM ${Math.random().toString(36).slice(2, 8)}`,
        description: 'Where Ada and Bob meet',
        members: [{ email: bob.email, role: 'viewer' }],
      },
    });
    expect(created.status()).toBe(201);
    await acceptInvitations(bob.context.request, {
      workspace: ((await created.json()) as { _id: string })._id,
    });

    await bob.page.goto('/chat');
    const recipient = bob.page.getByRole('textbox', { name: 'Recipient e-mail' });
    await expect(recipient).toBeVisible({ timeout: 20_000 });
    await recipient.fill(ada.email);
    await bob.page.getByRole('button', { name: 'Start Chat' }).click();
    const composer = bob.page.getByRole('textbox', { name: /^Message Ada / });
    await composer.fill('Hello Ada');
    await composer.press('Enter');
    await expect(composer).toHaveValue('');

    await ada.page.goto('/chat');
    await expect(ada.page.getByRole('textbox', { name: 'Recipient e-mail' })).toBeVisible({
      timeout: 20_000,
    });
    const conversations = ada.page.getByRole('navigation', { name: 'Conversations' });
    const withBob = conversations.getByRole('button', { name: /Bob Tester/ });
    await expect(withBob).toContainText('1 unread', { timeout: 10_000 });
    await withBob.click();
    const dmLog = ada.page.getByRole('log', { name: /^Messages with Bob Tester/ });
    await expect(dmLog.getByRole('separator', { name: 'New messages' })).toBeVisible();
    await expect(dmLog.locator('li:has(> hr[aria-label="New messages"]) + li')).toContainText('Hello Ada');

    // Back to the list (Close leaves the conversation, not the session): nothing unread any more.
    await ada.page.getByRole('button', { name: 'Close' }).click();
    await expect(conversations.getByRole('button', { name: /Bob Tester/ })).toBeVisible();
    await expect(conversations.getByRole('button', { name: /Bob Tester/ })).not.toContainText('unread');
  });
});
