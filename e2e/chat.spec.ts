import { expect, type Page, test } from '@playwright/test';
import { axeViolations } from './axe.ts';
import { acceptInvitations, type Person, person } from './fixtures.ts';

/**
 * Channel and direct chat between two real users in two browser contexts against the real server:
 * both ways, typing, reloads, and a connection that drops while a message is being written.
 */

/** Signs up with a distinct name and signs the browser context in through the API (its cookie jar). */

/** A workspace of `admin` with `member` as editor, and one public channel in it. */
async function workspaceWithChannel(admin: Person, member: Person) {
  const name = `Chat ${Math.random().toString(36).slice(2, 8)}`;
  const created = await admin.context.request.post('/api/workspaces', {
    data: { name, description: 'Chat journeys', members: [{ email: member.email, role: 'editor' }] },
  });
  expect(created.status()).toBe(201);
  await acceptInvitations(member.context.request, { workspace: name });
  const channel = await admin.context.request.post(`/api/workspaces/${encodeURIComponent(name)}/channels`, {
    data: { name: 'general', description: 'Everything', members: [] },
  });
  expect(channel.status()).toBe(201);
  const { _id } = (await channel.json()) as { _id: string };
  return { name, channelUrl: `/workspace/${encodeURIComponent(name)}/channel/${_id}` };
}

const log = (page: Page) => page.getByRole('log', { name: 'Messages in general' });
const composer = (page: Page, label = 'Message general') => page.getByRole('textbox', { name: label });

/** Opens the channel and waits until its socket is in the room (the first backfill has run). */
async function openChannel(page: Page, url: string) {
  await page.goto(url);
  await expect(page.getByRole('heading', { name: 'general Chat' })).toBeVisible();
  await expect(log(page)).toHaveAttribute('aria-busy', 'false');
}

async function send(page: Page, text: string, label?: string) {
  await composer(page, label).fill(text);
  await composer(page, label).press('Enter');
  await expect(composer(page, label)).toHaveValue('');
}

test.describe('channel chat', () => {
  let ada: Person;
  let bob: Person;
  let channelUrl: string;

  test.beforeEach(async ({ browser }) => {
    ada = await person(browser, 'Ada', 'Lovelace');
    bob = await person(browser, 'Bob', 'Builder');
    ({ channelUrl } = await workspaceWithChannel(ada, bob));
  });

  test.afterEach(async () => {
    await ada.context.close();
    await bob.context.close();
  });

  test('two members chat both ways, see each other typing, and keep the history on reload', async () => {
    await openChannel(ada.page, channelUrl);
    await openChannel(bob.page, channelUrl);
    await expect(log(ada.page)).toContainText('No messages yet.');

    await send(ada.page, 'Hello Bob, launch is on Friday');
    await expect(log(bob.page).getByText('Hello Bob, launch is on Friday')).toBeVisible();
    await expect(log(bob.page).getByText('Ada Lovelace')).toBeVisible();
    await expect(log(ada.page).getByText('Sending…')).toHaveCount(0);

    // Typing shows on the other side while the input is non-blank, and clears when it is blank again.
    await composer(bob.page).pressSequentially('Great, I will');
    await expect(ada.page.getByText('Bob Builder is typing...')).toBeVisible();
    await composer(bob.page).fill('');
    await expect(ada.page.getByText('Bob Builder is typing...')).toHaveCount(0);

    // And after sending.
    await composer(bob.page).pressSequentially('Great, I will prepare the demo');
    await expect(ada.page.getByText('Bob Builder is typing...')).toBeVisible();
    await composer(bob.page).press('Enter');
    await expect(log(ada.page).getByText('Great, I will prepare the demo')).toBeVisible();
    await expect(ada.page.getByText('Bob Builder is typing...')).toHaveCount(0);

    await expect(log(ada.page).getByRole('heading', { name: 'Today' })).toBeVisible();
    const items = log(ada.page).getByRole('listitem');
    await expect(items).toHaveCount(2);
    await expect(items.nth(0)).toContainText('You');
    await expect(items.nth(1)).toContainText('Bob Builder');

    await ada.page.reload();
    await expect(log(ada.page).getByRole('listitem')).toHaveCount(2);
    await expect(log(ada.page).getByRole('listitem').nth(0)).toContainText('Hello Bob, launch is on Friday');
    await expect(log(ada.page).getByRole('listitem').nth(1)).toContainText('Great, I will prepare the demo');
  });

  test('a message written offline is shown as sending and delivered exactly once after reconnecting', async () => {
    await openChannel(ada.page, channelUrl);
    await openChannel(bob.page, channelUrl);

    await ada.context.setOffline(true);
    await expect(ada.page.getByRole('status').filter({ hasText: 'Reconnecting…' })).toBeVisible();
    await send(ada.page, 'Written on the train');
    const pending = log(ada.page).getByRole('listitem').filter({ hasText: 'Written on the train' });
    await expect(pending).toContainText('Sending…');
    // Meanwhile Bob writes too: Ada must get it through the backfill, since she missed the broadcast.
    await send(bob.page, 'Are you there?');
    await ada.page.waitForTimeout(1000);
    await expect(pending).toContainText('Sending…');
    await expect(log(bob.page).getByText('Written on the train')).toHaveCount(0);

    await ada.context.setOffline(false);
    await expect(ada.page.getByRole('status').filter({ hasText: 'Reconnecting…' })).toHaveCount(0, {
      timeout: 15_000,
    });
    await expect(log(ada.page).getByText('Sending…')).toHaveCount(0);
    await expect(log(bob.page).getByText('Written on the train')).toHaveCount(1);
    await expect(log(ada.page).getByText('Written on the train')).toHaveCount(1);
    await expect(log(ada.page).getByText('Are you there?')).toHaveCount(1);

    // Both reload to one identical history: nothing lost, nothing twice.
    await ada.page.reload();
    await bob.page.reload();
    for (const page of [ada.page, bob.page]) {
      await expect(log(page).getByRole('listitem')).toHaveCount(2);
    }
    const adaItems = await log(ada.page).locator('li p').allTextContents();
    const bobItems = await log(bob.page).locator('li p').allTextContents();
    expect(adaItems.filter((t) => !t.includes('Builder') && !t.includes('Lovelace'))).toEqual(
      bobItems.filter((t) => !t.includes('Builder') && !t.includes('Lovelace')),
    );
  });

  test('the channel view has no serious accessibility violations', async () => {
    await openChannel(ada.page, channelUrl);
    await openChannel(bob.page, channelUrl);
    await send(bob.page, 'A message from Bob');
    await send(ada.page, 'A reply from Ada');
    await expect(log(ada.page).getByText('A message from Bob')).toBeVisible();
    await ada.page.getByRole('button', { name: 'Show Summary' }).click();
    await expect(ada.page.getByRole('region', { name: 'Channel Conversation Summary' })).toBeVisible();

    expect(await axeViolations(ada.page)).toEqual([]);
  });

  test('the sidebar counts unread messages of channels not open', async () => {
    const random = await ada.context.request.post(
      `${channelUrl.replace(/\/channel\/.*$/, '').replace('/workspace/', '/api/workspaces/')}/channels`,
      { data: { name: 'random', description: 'Off-topic', members: [] } },
    );
    expect(random.status()).toBe(201);
    const { _id: randomId } = (await random.json()) as { _id: string };
    const randomUrl = channelUrl.replace(/channel\/.*$/, `channel/${randomId}`);

    await openChannel(ada.page, channelUrl);
    await bob.page.goto(randomUrl);
    await expect(bob.page.getByRole('heading', { name: 'random Chat' })).toBeVisible();
    await send(bob.page, 'First', 'Message random');
    await send(bob.page, 'Second', 'Message random');

    const sidebar = ada.page.getByRole('navigation', { name: 'Channels' });
    const randomLink = sidebar.getByRole('link', { name: /random/ });
    await expect(randomLink).toContainText('2 unread');
    await randomLink.click();
    await expect(ada.page.getByRole('log', { name: 'Messages in random' }).getByText('Second')).toBeVisible();
    await expect(randomLink).not.toContainText('unread');
  });
});

test.describe('direct chat', () => {
  test('two users chat one-to-one on /chat, and the pair and history survive a reload', async ({
    browser,
  }) => {
    const ada = await person(browser, 'Ada', 'Lovelace');
    const bob = await person(browser, 'Bob', 'Builder');
    // Direct messages need a shared workspace.
    await workspaceWithChannel(ada, bob);

    await ada.page.goto('/chat');
    await ada.page.getByRole('textbox', { name: 'Recipient e-mail' }).fill(bob.email);
    await ada.page.getByRole('button', { name: 'Start Chat' }).click();
    await expect(ada.page.getByText(`Chatting as: ${ada.name}`)).toBeVisible();
    await expect(ada.page.getByRole('heading', { name: bob.name })).toBeVisible();

    await bob.page.goto('/livechat');
    await bob.page.getByRole('textbox', { name: 'Recipient e-mail' }).fill(ada.email);
    await bob.page.getByRole('button', { name: 'Start Chat' }).click();
    const bobLog = bob.page.getByRole('log', { name: `Messages with ${ada.name}` });
    await expect(bobLog).toHaveAttribute('aria-busy', 'false');

    await send(ada.page, 'Hi Bob, got a minute?', `Message ${bob.name}`);
    await expect(bobLog.getByText('Hi Bob, got a minute?')).toBeVisible();
    await send(bob.page, 'Sure, call me', `Message ${ada.name}`);
    const adaLog = ada.page.getByRole('log', { name: `Messages with ${bob.name}` });
    await expect(adaLog.getByText('Sure, call me')).toBeVisible();
    await expect(adaLog.getByText('Sending…')).toHaveCount(0);
    // Ada read Bob's reply as it arrived: the server has her mark, so the reload shows no "New messages".
    await expect
      .poll(async () => {
        const listing = (await (await ada.page.request.get('/api/direct/unread')).json()) as {
          email: string;
          unread: number;
        }[];
        return listing.find((c) => c.email === bob.email)?.unread;
      })
      .toBe(0);

    await ada.page.reload();
    await expect(ada.page.getByText(`Chatting as: ${ada.name}`)).toBeVisible();
    await expect(adaLog.getByRole('listitem')).toHaveCount(2);
    await expect(adaLog.getByRole('listitem').nth(0)).toContainText('Hi Bob, got a minute?');
    await expect(adaLog.getByRole('listitem').nth(1)).toContainText('Sure, call me');
    expect(await ada.page.evaluate(() => JSON.parse(localStorage.getItem('chatState') ?? 'null'))).toEqual({
      myEmail: ada.email,
      recipientEmail: bob.email,
    });

    // Close ends this chat only: the start step is back, the session stays.
    await ada.page.getByRole('button', { name: 'Close' }).click();
    await expect(ada.page.getByRole('textbox', { name: 'Recipient e-mail' })).toBeVisible();
    await ada.page.reload();
    await expect(ada.page.getByRole('textbox', { name: 'Recipient e-mail' })).toBeVisible();

    await ada.context.close();
    await bob.context.close();
  });
});
