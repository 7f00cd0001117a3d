import { expect, test } from '@playwright/test';
import { acceptInvitations, person } from './fixtures.ts';

/**
 * Mentions and the notification centre between two real users: Bob mentions Ada through the
 * composer's autocomplete; Ada's bell counts it, the panel lists it, and opening it shows the message
 * in its channel.
 */

test('a mention picked with the autocomplete raises a notification that opens the message', async ({
  browser,
}) => {
  const ada = await person(browser, 'Ada', 'Lovelace');
  const bob = await person(browser, 'Bob', 'Builder');
  const name = `Notify ${Math.random().toString(36).slice(2, 8)}`;
  const created = await ada.context.request.post('/api/workspaces', {
    data: { name, description: 'Mentions', members: [{ email: bob.email, role: 'editor' }] },
  });
  expect(created.status()).toBe(201);
  await acceptInvitations(bob.context.request, { workspace: name });
  const res = await ada.context.request.post(`/api/workspaces/${encodeURIComponent(name)}/channels`, {
    data: { name: 'general', description: 'Talk', members: [] },
  });
  const { _id: channelId } = (await res.json()) as { _id: string };
  const channelUrl = `/workspace/${encodeURIComponent(name)}/channel/${channelId}`;

  // Ada waits elsewhere, signed in: the bell is quiet.
  await ada.page.goto('/dashboard');
  const bell = ada.page.getByRole('button', { name: /^Notifications/ });
  await expect(bell).toHaveAccessibleName('Notifications');

  // Bob types "@Ad", picks Ada from the list with the keyboard, and sends.
  await bob.page.goto(channelUrl);
  await expect(bob.page.getByRole('log', { name: 'Messages in general' })).toHaveAttribute(
    'aria-busy',
    'false',
  );
  const box = bob.page.getByRole('textbox', { name: 'Message general' });
  await box.click();
  await box.pressSequentially('Review this please @Ad');
  const suggestions = bob.page.getByRole('listbox', { name: 'Mention suggestions' });
  await expect(suggestions.getByRole('option', { name: /Ada Lovelace/ })).toBeVisible();
  await box.press('Enter');
  await expect(box).toHaveValue('Review this please @Ada Lovelace ');
  await box.press('Enter');
  await expect(box).toHaveValue('');
  const sent = bob.page.getByRole('log', { name: 'Messages in general' }).getByRole('listitem').last();
  await expect(sent.locator('[data-mention]')).toHaveText('@Ada Lovelace');

  // Ada's bell counts it live; the panel lists it.
  await expect(bell).toHaveAccessibleName('Notifications (1 unread)');
  await bell.click();
  const panel = ada.page.getByRole('region', { name: 'Notification centre' });
  const item = panel.getByRole('button', { name: /Bob Builder mentioned you/ });
  await expect(item).toContainText('Review this please @Ada Lovelace');

  // Opening it shows the message in its channel, and the notification is read.
  await item.click();
  await expect(ada.page).toHaveURL(new RegExp(`/channel/${channelId}\\?message=`));
  const log = ada.page.getByRole('log', { name: 'Messages in general' });
  await expect(log.getByText('Review this please')).toBeVisible();
  await expect(log.locator('[data-mention]')).toHaveText('@Ada Lovelace');
  await expect(bell).toHaveAccessibleName('Notifications');

  await ada.context.close();
  await bob.context.close();
});
