import { expect, type Page, test } from '@playwright/test';
import { axeViolations } from './axe.ts';
import { createAccount, PASSWORD, uniqueEmail } from './fixtures.ts';

/**
 * Channel summary journey against the real server and the built-in summarizer: post messages in a
 * channel, open the summary panel, change the timeframe, read the summary.
 */

async function signedInWithChannel(page: Page) {
  const email = uniqueEmail();
  const request = page.context().request;
  await createAccount(request, email, PASSWORD, { firstName: 'Sam', lastName: 'Summary' });
  expect((await request.post('/api/login', { data: { email, password: PASSWORD } })).status()).toBe(200);
  const name = `Sum ${Math.random().toString(36).slice(2, 8)}`;
  expect(
    (
      await request.post('/api/workspaces', { data: { name, description: 'Summaries', members: [] } })
    ).status(),
  ).toBe(201);
  const channel = await request.post(`/api/workspaces/${encodeURIComponent(name)}/channels`, {
    data: { name: 'general', description: 'Everything', members: [] },
  });
  expect(channel.status()).toBe(201);
  const { _id } = (await channel.json()) as { _id: string };
  return `/workspace/${encodeURIComponent(name)}/channel/${_id}`;
}

test('post messages, open the summary, change the timeframe, read the summary', async ({ page }) => {
  const url = await signedInWithChannel(page);
  await page.goto(url);
  const log = page.getByRole('log', { name: 'Messages in general' });
  await expect(log).toHaveAttribute('aria-busy', 'false');

  const composer = page.getByRole('textbox', { name: 'Message general' });
  for (const text of [
    'We need to choose the hosting provider for the new website this week.',
    "Let's go with Fly.io for the website hosting.",
    "I'll set up the deployment pipeline tomorrow.",
    'Who owns the DNS records for the website domain?',
  ]) {
    await composer.fill(text);
    await composer.press('Enter');
    await expect(composer).toHaveValue('');
    await expect(log.getByText(text)).toBeVisible();
  }

  const first = page.waitForResponse((r) => r.url().includes('/summary?timeframe=24'));
  await page.getByRole('button', { name: 'Show Summary' }).click();
  const panel = page.getByRole('region', { name: 'Channel Conversation Summary' });
  await expect(panel).toBeVisible();
  expect((await first).status()).toBe(200);
  const timeframe = panel.getByRole('combobox', { name: 'Timeframe' });
  await expect(timeframe).toHaveValue('24');
  await expect(panel.getByText('Decisions:')).toBeVisible();
  await expect(
    panel
      .getByRole('listitem')
      .filter({ hasText: 'Sam Summary and the team will go with Fly.io for the website hosting.' }),
  ).toBeVisible();
  await expect(
    panel
      .getByRole('listitem')
      .filter({ hasText: 'Sam Summary will set up the deployment pipeline tomorrow.' }),
  ).toBeVisible();
  await expect(panel.getByText('4 messages · Participants: Sam Summary')).toBeVisible();

  const week = page.waitForResponse((r) => r.url().includes('/summary?timeframe=168'));
  await timeframe.selectOption({ label: 'Last week' });
  expect((await week).status()).toBe(200);
  await expect(timeframe).toHaveValue('168');
  await expect(timeframe).toBeEnabled();
  await expect(panel.getByText('Open questions:')).toBeVisible();
  await expect(
    panel.getByRole('listitem').filter({ hasText: 'Who owns the DNS records for the website domain?' }),
  ).toBeVisible();

  expect(
    await axeViolations(page, { include: `#${await panel.getAttribute('id')}`, everyImpact: true }),
  ).toEqual([]);

  await panel.getByRole('button', { name: 'Close summary' }).click();
  await expect(panel).toBeHidden();
  await expect(page.getByRole('button', { name: 'Show Summary' })).toBeVisible();
});
