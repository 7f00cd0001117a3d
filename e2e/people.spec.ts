import { expect as baseExpect, type Page, test } from '@playwright/test';
import { acceptInvitations, navbar, person, uniqueEmail } from './fixtures.ts';

/**
 * People, direct messages and calls one click away (issue 19): the navbar's Messages with its unread
 * count, the conversation list (names, newest first), a people search limited to co-members, and a
 * profile card from a channel message's sender that opens the direct conversation or a call.
 */

// Five signed-in pages of three people on a shared 2-core machine: waits are generous (not timings).
const expect = baseExpect.configure({ timeout: 30_000 });

async function sendIn(page: Page, label: string, text: string) {
  const composer = page.getByRole('textbox', { name: label });
  await composer.fill(text);
  await composer.press('Enter');
  await expect(composer).toHaveValue('');
}

test('find a co-member, message them, see it unread in the navbar, and reach a DM from a message sender', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const ada = await person(browser, 'Ada', 'Lovelace');
  const bob = await person(browser, 'Bob', 'Builder');
  const cy = await person(browser, 'Cy', 'Clerk');
  const workspace = `People ${Math.random().toString(36).slice(2, 8)}`;
  const created = await ada.context.request.post('/api/workspaces', {
    data: {
      name: workspace,
      description: 'People journey',
      members: [
        { email: bob.email, role: 'editor' },
        { email: cy.email, role: 'viewer' },
      ],
    },
  });
  expect(created.status()).toBe(201);
  await acceptInvitations(bob.context.request, { workspace });
  await acceptInvitations(cy.context.request, { workspace });
  const channel = await ada.context.request.post(
    `/api/workspaces/${encodeURIComponent(workspace)}/channels`,
    {
      data: { name: 'general', description: 'Everything', members: [] },
    },
  );
  expect(channel.status()).toBe(201);
  const { _id: channelId } = (await channel.json()) as { _id: string };

  // Bob is somewhere else in the app, with nothing unread.
  await bob.page.goto('/dashboard');
  const bobMessages = navbar(bob.page).getByRole('link', { name: /^Messages/ });
  await expect(bobMessages).toHaveAccessibleName('Messages', { timeout: 30_000 });

  // Cy writes to Bob first (from Cy's own Messages page).
  await cy.page.goto('/messages');
  await expect(cy.page.getByRole('heading', { name: 'Messages' })).toBeVisible({ timeout: 30_000 });
  await cy.page.getByRole('searchbox', { name: 'Start a conversation' }).fill('builder');
  await cy.page
    .getByRole('list', { name: 'People found' })
    .getByRole('button', { name: /Bob Builder/ })
    .click();
  await expect(cy.page.getByRole('heading', { name: 'Bob Builder' })).toBeVisible();
  await sendIn(cy.page, 'Message Bob Builder', 'An older note from Cy');
  await expect(navbar(bob.page).getByRole('link', { name: 'Messages (1 unread)' })).toBeVisible();

  // Ada: the navbar's Messages, a search (a stranger is not found), then Bob.
  await ada.page.goto('/dashboard');
  await navbar(ada.page)
    .getByRole('link', { name: /^Messages/ })
    .click();
  await expect(ada.page.getByRole('heading', { name: 'Messages' })).toBeVisible();
  const search = ada.page.getByRole('searchbox', { name: 'Start a conversation' });
  await search.fill('nobody-we-share');
  await expect(ada.page.getByText('Nobody in your workspaces matches')).toBeVisible();
  await search.fill('Bob');
  await ada.page
    .getByRole('list', { name: 'People found' })
    .getByRole('button', { name: /Bob Builder/ })
    .click();
  await expect(ada.page).toHaveURL(/\/chat\?with=/);
  const adaDm = ada.page.getByRole('region', { name: 'Bob Builder' });
  await expect(adaDm.getByRole('heading', { name: 'Bob Builder' })).toBeVisible();
  await expect(ada.page.getByText(`Chatting as: ${ada.name}`)).toBeVisible();
  await sendIn(ada.page, 'Message Bob Builder', 'Lunch at noon?');
  // Names, not addresses, in the conversation.
  await expect(adaDm.getByRole('log', { name: 'Messages with Bob Builder' })).toContainText('Lunch at noon?');
  await expect(adaDm).not.toContainText(bob.email);

  // Bob sees both unread on the navbar entry, opens the list: newest first, names not e-mails.
  await expect(navbar(bob.page).getByRole('link', { name: 'Messages (2 unread)' })).toBeVisible();
  const bobBell = bob.page.getByRole('button', { name: /^Notifications/ });
  await expect(bobBell).toHaveAccessibleName('Notifications (2 unread)');
  await bobMessages.click();
  await expect(bob.page.getByRole('heading', { name: 'Messages' })).toBeVisible();
  const conversations = bob.page.getByRole('navigation', { name: 'Conversations' }).getByRole('button');
  await expect(conversations).toHaveCount(2);
  await expect(conversations.nth(0)).toContainText('Ada Lovelace');
  await expect(conversations.nth(0)).toContainText('Lunch at noon?');
  await expect(conversations.nth(0)).toContainText('1 unread');
  await expect(conversations.nth(1)).toContainText('Cy Clerk');
  await expect(conversations.nth(1)).toContainText('An older note from Cy');
  await expect(bob.page.getByRole('navigation', { name: 'Conversations' })).not.toContainText(ada.email);
  await conversations.nth(0).click();
  const bobLog = bob.page.getByRole('log', { name: 'Messages with Ada Lovelace' });
  await expect(bobLog).toContainText('Lunch at noon?');
  await sendIn(bob.page, 'Message Ada Lovelace', 'Sure, see you there');
  await expect(ada.page.getByRole('log', { name: 'Messages with Bob Builder' })).toContainText(
    'Sure, see you there',
  );
  // Read on opening: only Cy's message is still unread.
  await expect(navbar(bob.page).getByRole('link', { name: 'Messages (1 unread)' })).toBeVisible();
  // Reading Ada's conversation read its notification too: the bell counts Cy's alone.
  await expect(bobBell).toHaveAccessibleName('Notifications (1 unread)');

  // Bob writes in the channel; Ada clicks his name on that message: his card, then Message.
  const posted = await bob.context.request.post(
    `/api/workspaces/${encodeURIComponent(workspace)}/channels/${channelId}/messages`,
    { data: { clientId: crypto.randomUUID(), content: 'Standup notes are in the doc' } },
  );
  expect(posted.status()).toBe(201);
  await ada.page.goto(`/workspace/${encodeURIComponent(workspace)}/channel/${channelId}`);
  const channelLog = ada.page.getByRole('log', { name: 'Messages in general' });
  await expect(channelLog).toContainText('Standup notes are in the doc', { timeout: 30_000 });
  await channelLog.getByRole('button', { name: 'Bob Builder' }).click();
  const card = ada.page.getByRole('dialog', { name: 'Bob Builder' });
  await expect(card).toContainText(bob.email);
  await expect(card).toContainText(workspace);
  await expect(card.getByRole('button', { name: 'Call' })).toBeEnabled();
  await card.getByRole('button', { name: 'Message' }).click();
  await expect(ada.page).toHaveURL(/\/chat\?with=/);
  await expect(ada.page.getByRole('log', { name: 'Messages with Bob Builder' })).toContainText(
    'Sure, see you there',
  );

  // The sidebar's People open the same card; Call goes to /video with Bob as the callee.
  await ada.page.goto(`/workspace/${encodeURIComponent(workspace)}/channel/${channelId}`);
  await ada.page
    .getByRole('region', { name: 'People' })
    .getByRole('button', { name: 'Cy Clerk' })
    .click({ timeout: 30_000 });
  const cyCard = ada.page.getByRole('dialog', { name: 'Cy Clerk' });
  await cyCard.getByRole('button', { name: 'Call' }).click();
  await expect(ada.page).toHaveURL(/\/video/);
  await expect(ada.page.getByRole('textbox', { name: 'E-mail to call' })).toHaveValue(cy.email, {
    timeout: 30_000,
  });

  // Someone I share no workspace with is refused when picked on /chat, before anything is typed.
  await ada.page.goto('/chat');
  await ada.page.getByRole('button', { name: 'Close' }).click({ timeout: 30_000 });
  await ada.page.getByRole('textbox', { name: 'Recipient e-mail' }).fill(uniqueEmail());
  await ada.page.getByRole('button', { name: 'Start Chat' }).click();
  await expect(
    ada.page.getByText('You can only message people who share a workspace with you'),
  ).toBeVisible();
  await expect(ada.page.getByRole('textbox', { name: /^Message / })).toHaveCount(0);

  for (const p of [ada, bob, cy]) await p.context.close();
});
