import { expect, type Page, test } from '@playwright/test';
import { axeViolations } from './axe.ts';
import { fakeMediaLaunchOptions } from './chromium.ts';
import { acceptInvitations, type Person, person } from './fixtures.ts';

/**
 * The composer in a channel between two real users: toolbar formatting, an emoji, a PDF and an
 * image (annotated before sending), a voice note from the fake microphone; the other person sees
 * all of it and can open the files. And the Canvas: kept locally, then posted to a channel.
 */

// The fake microphone (a beep) is granted without a prompt.
test.use({ launchOptions: fakeMediaLaunchOptions });

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAEAAAAAwCAIAAAAuKetIAAAAWklEQVR42u3XsQ0AIAgEQCZxTkdkJisXkIpG4xFKCq76fKxixszj3nYfAAAAAAAtwCuPVvcAAAAAAD2AJAYAAADQByQxAAAAgD4giQEAAAD0AUkMAAAA8B1gAz6+yXj/cmasAAAAAElFTkSuQmCC',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

async function workspaceWithChannel(admin: Person, member: Person) {
  const name = `Compose ${Math.random().toString(36).slice(2, 8)}`;
  expect(
    (
      await admin.context.request.post('/api/workspaces', {
        data: { name, description: 'Composer journeys', members: [{ email: member.email, role: 'viewer' }] },
      })
    ).status(),
  ).toBe(201);
  await acceptInvitations(member.context.request, { workspace: name });
  const channel = await admin.context.request.post(`/api/workspaces/${encodeURIComponent(name)}/channels`, {
    data: { name: 'general', description: 'Everything', members: [] },
  });
  const { _id } = (await channel.json()) as { _id: string };
  return { name, channelUrl: `/workspace/${encodeURIComponent(name)}/channel/${_id}` };
}

const log = (page: Page) => page.getByRole('log', { name: 'Messages in general' });
const composer = (page: Page) => page.getByRole('textbox', { name: 'Message general' });

async function openChannel(page: Page, url: string) {
  await page.goto(url);
  await expect(page.getByRole('heading', { name: 'general Chat' })).toBeVisible();
  await expect(log(page)).toHaveAttribute('aria-busy', 'false');
}

/** Selects `text` inside the composer (as a user dragging over it would). */
async function select(page: Page, text: string) {
  await composer(page).evaluate((node, wanted) => {
    const area = node as HTMLTextAreaElement;
    const start = area.value.indexOf(wanted);
    area.focus();
    area.setSelectionRange(start, start + wanted.length);
  }, text);
}

test('a formatted message with an emoji, a PDF, an annotated image and a voice note reaches the other person', async ({
  browser,
}) => {
  const alice = await person(browser, 'Alice');
  const bob = await person(browser, 'Bob');
  const { name, channelUrl } = await workspaceWithChannel(alice, bob);
  await openChannel(alice.page, channelUrl);
  await openChannel(bob.page, channelUrl);
  const page = alice.page;
  const toolbar = page.getByRole('toolbar', { name: 'Formatting and attachments' });

  // Formatting: the toolbar and the shortcuts wrap the selection.
  await composer(page).fill('Plan: bold italic under code');
  await select(page, 'bold');
  await toolbar.getByRole('button', { name: 'Bold' }).click();
  await select(page, 'italic');
  await toolbar.getByRole('button', { name: 'Italic' }).click();
  await select(page, 'under');
  await composer(page).press('Control+u');
  await select(page, 'code');
  await toolbar.getByRole('button', { name: 'Insert Code' }).click();
  await expect(composer(page)).toHaveValue('Plan: **bold** *italic* __under__ `code`');

  // An emoji from the searchable picker, at the end.
  await composer(page).press('End');
  await composer(page).press('Space');
  await toolbar.getByRole('button', { name: 'Emojis' }).click();
  await page.getByRole('searchbox', { name: 'Search emojis' }).fill('rocket');
  await page.getByRole('button', { name: 'rocket launch ship' }).click();
  await expect(composer(page)).toHaveValue('Plan: **bold** *italic* __under__ `code` 🚀');

  // A PDF and an image; the image is annotated (a box) before sending.
  await page.getByLabel('Choose files').setInputFiles([
    { name: 'plan.pdf', mimeType: 'application/pdf', buffer: PDF },
    { name: 'chart.png', mimeType: 'image/png', buffer: PNG },
  ]);
  const files = page.getByRole('list', { name: 'Files to send' });
  await expect(files.getByText('plan.pdf')).toBeVisible();
  await toolbar.getByRole('button', { name: 'Annotate' }).click();
  const dialog = page.getByRole('dialog', { name: 'Annotate image' });
  await dialog.getByRole('button', { name: 'Box' }).click();
  const canvas = dialog.locator('canvas');
  const box = await canvas.boundingBox();
  if (!box) throw new Error('no canvas');
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height * 0.2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.7, box.y + box.height * 0.8, { steps: 4 });
  await page.mouse.up();
  await dialog.getByRole('button', { name: 'Attach annotated image' }).click();
  await expect(files.getByText('chart-annotated.png')).toBeVisible();
  await expect(files.getByText('chart.png', { exact: true })).toHaveCount(0);

  // A voice note from the fake microphone.
  await toolbar.getByRole('button', { name: 'Voice Note' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Recording' })).toBeVisible();
  await page.waitForTimeout(1200);
  await toolbar.getByRole('button', { name: 'Stop recording' }).click();
  await expect(files.getByText(/^voice-note-/)).toBeVisible();
  await expect(files.getByLabel('Uploading')).toHaveCount(0);

  await composer(page).press('Enter');
  await expect(composer(page)).toHaveValue('');
  await expect(files).toHaveCount(0);

  // Bob sees the formatted text and every file.
  const message = log(bob.page).getByRole('listitem').filter({ hasText: 'Plan:' });
  await expect(message.locator('strong')).toHaveText('bold');
  await expect(message.locator('em')).toHaveText('italic');
  await expect(message.locator('u')).toHaveText('under');
  await expect(message.locator('code')).toHaveText('code');
  await expect(message).toContainText('🚀');
  const image = message.getByRole('img', { name: 'chart-annotated.png' });
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(64);
  const pdfLink = message.getByRole('link', { name: /plan\.pdf/ });
  await expect(pdfLink).toBeVisible();
  await expect(message.getByText(/^Voice note · 0:0[1-9]$/)).toBeVisible();
  const audio = message.locator('audio');
  await expect(audio).toHaveCount(1);

  // …and can open them: the PDF in place, the image, the recording (audio/webm).
  const pdf = await bob.context.request.get((await pdfLink.getAttribute('href')) ?? '');
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  expect(pdf.headers()['content-disposition']).toMatch(/^inline;/);
  expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
  const voice = await bob.context.request.get((await audio.getAttribute('src')) ?? '');
  expect(voice.status()).toBe(200);
  expect(voice.headers()['content-type']).toBe('audio/webm');
  expect((await voice.body()).length).toBeGreaterThan(1000);
  await expect
    .poll(() => audio.evaluate((node) => (node as HTMLAudioElement).readyState), { timeout: 5000 })
    .toBeGreaterThan(0);
  await bob.page.screenshot({ path: test.info().outputPath('bob-sees-composer-message.png') });

  // The image replaced by its annotated copy was deleted: three files are stored, all on the message.
  const storage = await alice.context.request.get(`/api/workspaces/${encodeURIComponent(name)}/storage`);
  expect(((await storage.json()) as { files: number }).files).toBe(3);

  // Someone outside the workspace cannot open them.
  const stranger = await person(browser, 'Eve');
  expect((await stranger.context.request.get((await pdfLink.getAttribute('href')) ?? '')).status()).toBe(404);

  await Promise.all([alice.context.close(), bob.context.close(), stranger.context.close()]);
});

test('the Canvas keeps a message locally, then posts it to a channel', async ({ browser }) => {
  const alice = await person(browser, 'Alice');
  const bob = await person(browser, 'Bob');
  const { name, channelUrl } = await workspaceWithChannel(alice, bob);
  await openChannel(bob.page, channelUrl);
  const page = alice.page;

  await page.goto('/canvas');
  const box = page.getByRole('textbox', { name: 'Message' });
  const logged = page.waitForEvent('console', (m) => m.text() === 'Draft with **care**');
  await box.fill('Draft with care');
  await box.evaluate((node) => (node as HTMLTextAreaElement).setSelectionRange(11, 15));
  await page.getByRole('button', { name: 'Bold' }).click();
  await page.getByRole('button', { name: 'Send' }).click();
  await logged;
  await expect(box).toHaveValue('');
  const kept = page.getByRole('region', { name: 'Kept on this device' });
  await expect(kept.locator('strong')).toHaveText('care');

  await kept.getByRole('button', { name: 'Post to channel…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Post to channel' });
  await dialog.getByLabel('Workspace').selectOption(name);
  await dialog.getByLabel('Channel').selectOption({ label: '#general' });
  await dialog.getByRole('button', { name: 'Post' }).click();
  await expect(kept.getByRole('link', { name: 'Posted to #general' })).toBeVisible();

  const message = log(bob.page).getByRole('listitem').filter({ hasText: 'Draft with' });
  await expect(message.locator('strong')).toHaveText('care');

  // The Canvas, with the emoji picker open, has no serious accessibility violations.
  await page.getByRole('button', { name: 'Emojis' }).click();
  await expect(page.getByRole('searchbox', { name: 'Search emojis' })).toBeFocused();
  expect(await axeViolations(page)).toEqual([]);
  await Promise.all([alice.context.close(), bob.context.close()]);
});
