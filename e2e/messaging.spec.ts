import { expect, type Page, test } from '@playwright/test';
import { acceptInvitations, messageAction, type Person, person } from './fixtures.ts';

/**
 * Messaging depth between two real users in two browser contexts: edit and delete, a reaction, a
 * thread, live on the other side and still right after a reload.
 */

async function workspaceWithChannels(admin: Person, member: Person, channels: string[]) {
  const name = `Msg ${Math.random().toString(36).slice(2, 8)}`;
  const created = await admin.context.request.post('/api/workspaces', {
    data: { name, description: 'Messaging journeys', members: [{ email: member.email, role: 'editor' }] },
  });
  expect(created.status()).toBe(201);
  await acceptInvitations(member.context.request, { workspace: name });
  const urls: Record<string, string> = {};
  for (const channel of channels) {
    const res = await admin.context.request.post(`/api/workspaces/${encodeURIComponent(name)}/channels`, {
      data: { name: channel, description: `About ${channel}`, members: [] },
    });
    expect(res.status()).toBe(201);
    const { _id } = (await res.json()) as { _id: string };
    urls[channel] = `/workspace/${encodeURIComponent(name)}/channel/${_id}`;
  }
  return { name, urls };
}

const log = (page: Page, channel = 'general') => page.getByRole('log', { name: `Messages in ${channel}` });
const composer = (page: Page, label = 'Message general') => page.getByRole('textbox', { name: label });

async function openChannel(page: Page, url: string, channel = 'general') {
  await page.goto(url);
  await expect(page.getByRole('heading', { name: `${channel} Chat` })).toBeVisible();
  await expect(log(page, channel)).toHaveAttribute('aria-busy', 'false');
}

async function send(page: Page, text: string, label?: string) {
  await composer(page, label).fill(text);
  await composer(page, label).press('Enter');
  await expect(composer(page, label)).toHaveValue('');
}

/** One of a message's action buttons, revealed (they show on hover and focus). */
function action(page: Page, text: string, name: string, channel = 'general') {
  return messageAction(log(page, channel).getByRole('listitem').filter({ hasText: text }).first(), name);
}

test.describe('messaging', () => {
  let ada: Person;
  let bob: Person;
  let urls: Record<string, string>;

  test.beforeEach(async ({ browser }) => {
    ada = await person(browser, 'Ada', 'Lovelace');
    bob = await person(browser, 'Bob', 'Builder');
    ({ urls } = await workspaceWithChannels(ada, bob, ['general', 'random']));
  });

  test.afterEach(async () => {
    await ada.context.close();
    await bob.context.close();
  });

  test('edit, delete, a reaction and a thread reach the other member live and survive a reload', async () => {
    const general = urls.general as string;
    await openChannel(ada.page, general);
    await openChannel(bob.page, general);

    // Edit: Ada fixes a typo; Bob sees the new words and the marker.
    await send(ada.page, 'Lunch at noon tomorow');
    await expect(log(bob.page).getByText('Lunch at noon tomorow')).toBeVisible();
    await (await action(ada.page, 'Lunch at noon tomorow', 'Edit message')).click();
    const editor = ada.page.getByRole('textbox', { name: 'Edit message' });
    await editor.fill('Lunch at noon tomorrow');
    await editor.press('Enter');
    const bobLunch = log(bob.page).getByRole('listitem').filter({ hasText: 'Lunch at noon tomorrow' });
    await expect(bobLunch).toContainText('(edited)');

    // Reaction: Bob reacts; Ada sees the count, and who reacted on hover (title).
    await (await action(bob.page, 'Lunch at noon tomorrow', 'Add reaction')).click();
    await bob.page.getByRole('button', { name: 'React with 👍' }).click();
    const adaReaction = log(ada.page).getByRole('button', { name: /^👍 1: Bob Builder reacted with 👍/ });
    await expect(adaReaction).toBeVisible();
    await expect(adaReaction).toHaveAttribute('title', 'Bob Builder reacted with 👍');
    await expect(adaReaction).toHaveAttribute('aria-pressed', 'false');
    // Ada adds hers by clicking the reaction: 2.
    await adaReaction.click();
    await expect(
      log(bob.page).getByRole('button', { name: /^👍 2: Bob Builder, Ada Lovelace/ }),
    ).toBeVisible();

    // Thread: Bob replies in the side panel; Ada sees the reply count and opens the thread.
    await (await action(bob.page, 'Lunch at noon tomorrow', 'Reply in thread')).click();
    const bobThread = bob.page.getByRole('complementary', { name: 'Thread' });
    await send(bob.page, 'Count me in', 'Reply in thread');
    await expect(bobThread.getByRole('list', { name: 'Replies' })).toContainText('Count me in');
    // The reply is not in the channel's flow.
    await expect(log(bob.page).getByText('Count me in')).toHaveCount(0);
    const summary = log(ada.page).getByRole('button', { name: /^1 reply/ });
    await expect(summary).toBeVisible();
    await summary.click();
    const adaThread = ada.page.getByRole('complementary', { name: 'Thread' });
    await expect(adaThread.getByRole('list', { name: 'Replies' })).toContainText('Count me in');
    await send(ada.page, 'Great, see you there', 'Reply in thread');
    await expect(bobThread.getByRole('list', { name: 'Replies' })).toContainText('Great, see you there');
    await expect(log(bob.page).getByRole('button', { name: /^2 replies/ })).toBeVisible();

    // Delete: Ada deletes a message; Bob sees the placeholder in its place.
    await send(ada.page, 'Wrong channel, sorry');
    await expect(log(bob.page).getByText('Wrong channel, sorry')).toBeVisible();
    await (await action(ada.page, 'Wrong channel, sorry', 'Delete message')).click();
    await ada.page
      .getByRole('alertdialog', { name: 'Delete message?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect(log(bob.page).getByText('Wrong channel, sorry')).toHaveCount(0);
    await expect(log(bob.page).getByText('message deleted')).toBeVisible();

    // After a reload everything is as it was left.
    await bob.page.reload();
    await expect(log(bob.page).getByText('message deleted')).toBeVisible();
    await expect(
      log(bob.page).getByRole('listitem').filter({ hasText: 'Lunch at noon tomorrow' }),
    ).toContainText('(edited)');
    await expect(log(bob.page).getByRole('button', { name: /^👍 2/ })).toBeVisible();
    await expect(log(bob.page).getByRole('button', { name: /^2 replies/ })).toBeVisible();
  });

  test('an edit made while the other member is offline arrives with the reconnection', async () => {
    const general = urls.general as string;
    await openChannel(ada.page, general);
    await openChannel(bob.page, general);
    await send(ada.page, 'Meeting in room 1');
    await expect(log(bob.page).getByText('Meeting in room 1')).toBeVisible();

    await bob.context.setOffline(true);
    await expect(bob.page.getByRole('status').filter({ hasText: 'Reconnecting…' })).toBeVisible();
    await (await action(ada.page, 'Meeting in room 1', 'Edit message')).click();
    await ada.page.getByRole('textbox', { name: 'Edit message' }).fill('Meeting in room 2');
    await ada.page.getByRole('button', { name: 'Save' }).click();
    await expect(log(ada.page).getByText('Meeting in room 2')).toBeVisible();
    await bob.page.waitForTimeout(500);
    await expect(log(bob.page).getByText('Meeting in room 1')).toBeVisible();

    await bob.context.setOffline(false);
    await expect(log(bob.page).getByText('Meeting in room 2')).toBeVisible({ timeout: 15_000 });
    await expect(log(bob.page).getByText('Meeting in room 1')).toHaveCount(0);
  });
});
