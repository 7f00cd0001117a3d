import { crc32, deflateSync } from 'node:zlib';
import { expect as baseExpect, type Page, test } from '@playwright/test';
import { acceptInvitations, messageAction, navbar, type Person, person } from './fixtures.ts';

/**
 * Team boards (issue 20): two members of a workspace work on its board live (add, move, assign,
 * comment with a mention → notification, attach an image); a viewer reads and comments but cannot
 * change the board; a non-member's link is the 404 page; a task made from a channel message links back
 * to it, and its link pasted in the channel shows a preview card.
 *
 * One workspace is seeded for the whole file (an admin, an editor, a viewer, and a stranger); each
 * journey works on lists or a board of its own, so none depends on another's leftovers.
 */

// Several signed-in pages on a shared 2-core machine: waits are generous (not timings).
const expect = baseExpect.configure({ timeout: 20_000 });

const suffix = () => Math.random().toString(36).slice(2, 8);

/** A small, real PNG (solid colour), made here rather than read from a fixture file. */
function png(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array(width).fill([r, g, b]).flat())]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array(height).fill(row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const list = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const cardIn = (page: Page, listName: string, title: string) =>
  list(page, listName).getByRole('button', { name: title, exact: true });

/** The board page once its lists have loaded (a board with no list yet shows none). */
async function openBoard(page: Page, boardId: string) {
  await page.goto(`/task/board/${boardId}`);
  await expect(page.getByRole('heading', { name: 'Boards', level: 1 })).toBeVisible();
  await expect(page.getByText('Loading task lists...')).toHaveCount(0);
}

/** A board, a list on it and (optionally) a card, through the API as `who`. */
async function seedBoard(who: Person, workspace: string, title: string) {
  const res = await who.context.request.post(`/api/workspaces/${encodeURIComponent(workspace)}/boards`, {
    data: { title },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { _id: string })._id;
}

async function seedList(who: Person, boardId: string, title: string) {
  const res = await who.context.request.post('/api/tasklists', { data: { title, boardId } });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { _id: string })._id;
}

async function seedCard(who: Person, taskListId: string, title: string) {
  const res = await who.context.request.post('/api/tasks', {
    data: { title, description: '', priority: 'Medium', taskListId },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { _id: string })._id;
}

let ada: Person; // workspace admin (its creator)
let bob: Person; // editor
let vic: Person; // viewer
let nat: Person; // in no shared workspace
let workspace: string;
let teamBoardId: string;
let channelId: string;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(90_000);
  [ada, bob, vic, nat] = await Promise.all([
    person(browser, 'Ada', 'Lovelace'),
    person(browser, 'Bob', 'Builder'),
    person(browser, 'Vic', 'Viewer'),
    person(browser, 'Nat', 'Outsider'),
  ]);
  workspace = `Boards ${suffix()}`;
  const created = await ada.context.request.post('/api/workspaces', {
    data: {
      name: workspace,
      description: 'Team boards journeys',
      members: [
        { email: bob.email, role: 'editor' },
        { email: vic.email, role: 'viewer' },
      ],
    },
  });
  expect(created.status()).toBe(201);
  await acceptInvitations(bob.context.request, { workspace });
  await acceptInvitations(vic.context.request, { workspace });
  const boards = await ada.context.request.get('/api/boards');
  expect(boards.status()).toBe(200);
  const team = (
    (await boards.json()) as Array<{ _id: string; title: string; workspace: { name: string } | null }>
  ).find((b) => b.workspace?.name === workspace && b.title === 'Team board');
  if (!team) throw new Error('the new workspace has no Team board');
  teamBoardId = team._id;
  const channel = await ada.context.request.post(
    `/api/workspaces/${encodeURIComponent(workspace)}/channels`,
    {
      data: { name: 'general', description: 'Everything', members: [] },
    },
  );
  expect(channel.status()).toBe(201);
  channelId = ((await channel.json()) as { _id: string })._id;
});

test.afterAll(async () => {
  for (const p of [ada, bob, vic, nat]) await p?.context.close();
});

test('two members work on the team board live: add, move, assign, mention, attach an image', async () => {
  const todo = `To do ${suffix()}`;
  const doing = `Doing ${suffix()}`;
  const title = `Write the launch post ${suffix()}`;
  const adaPage = await ada.context.newPage();
  const bobPage = await bob.context.newPage();

  // Bob has the team board open first (and stays on it: nothing below reloads his page).
  await openBoard(bobPage, teamBoardId);
  await expect(bobPage.getByText(`Team board in ${workspace}`)).toBeVisible();

  // Ada opens the taskboard and picks the workspace's Team board in the switcher: the URL names it.
  await adaPage.goto('/task');
  await expect(adaPage.getByText('Pick a section from the sidebar to get started.')).toBeVisible();
  await adaPage
    .getByRole('navigation', { name: 'Boards list' })
    .getByRole('region', { name: workspace })
    .getByRole('link', { name: 'Team board' })
    .click();
  await expect(adaPage).toHaveURL(new RegExp(`/task/board/${teamBoardId}$`));
  await expect(adaPage.getByText(`Team board in ${workspace}`)).toBeVisible();

  // Two lists and a card.
  for (const name of [todo, doing]) {
    await adaPage.getByRole('button', { name: 'Add another list' }).click();
    const input = adaPage.getByRole('textbox', { name: 'List name' });
    await input.fill(name);
    await input.press('Enter');
    await expect(list(adaPage, name)).toBeVisible();
  }
  await list(adaPage, todo).getByRole('button', { name: 'Add Task' }).click();
  const form = list(adaPage, todo).getByRole('form', { name: 'Add Task' });
  await form.getByRole('textbox', { name: 'Title' }).fill(title);
  await form.getByRole('button', { name: 'Add Task' }).click();
  await expect(cardIn(adaPage, todo, title)).toBeVisible();

  // Bob sees the lists and the card appear without a reload.
  await expect(cardIn(bobPage, todo, title)).toBeVisible();
  await expect(list(bobPage, doing).getByText('No tasks available')).toBeVisible();

  // Bob moves it to the other list from the card's Move panel; Ada sees it moved.
  await cardIn(bobPage, todo, title).click();
  const bobDialog = bobPage.getByRole('dialog', { name: title, exact: true });
  await bobDialog.getByRole('button', { name: 'Move', exact: true }).click();
  await bobDialog.getByRole('region', { name: 'Move panel' }).getByRole('button', { name: doing }).click();
  await expect(bobDialog).toHaveCount(0);
  await expect(cardIn(bobPage, doing, title)).toBeVisible();
  await expect(cardIn(adaPage, doing, title)).toBeVisible();
  await expect(list(adaPage, todo).getByText('No tasks available')).toBeVisible();

  // Ada makes Bob a member of the card: his initials on its front, on both screens.
  await cardIn(adaPage, doing, title).click();
  const adaDialog = adaPage.getByRole('dialog', { name: title, exact: true });
  await adaDialog.getByRole('button', { name: 'Assignees', exact: true }).click();
  // The box ticks once the server has saved it (no optimistic update): click, then wait for it.
  const bobBox = adaDialog
    .getByRole('region', { name: 'Assignees panel' })
    .getByRole('checkbox', { name: bob.name });
  await bobBox.click();
  await expect(bobBox).toBeChecked();
  await expect(cardIn(adaPage, doing, title)).toContainText(`Members: ${bob.name}`);
  await expect(cardIn(bobPage, doing, title)).toContainText(`Members: ${bob.name}`);
  await expect(cardIn(bobPage, doing, title)).toContainText('BB');

  // Ada mentions Bob in a comment, picking him from the suggestions.
  const comment = adaDialog.getByRole('textbox', { name: 'Write a comment' });
  await comment.click();
  await comment.pressSequentially('Can you proofread this, @Bo');
  const suggestions = adaPage.getByRole('listbox', { name: 'Mention suggestions' });
  await expect(suggestions.getByRole('option', { name: new RegExp(bob.name) })).toBeVisible();
  await comment.press('Enter');
  await expect(comment).toHaveValue(`Can you proofread this, @${bob.name} `);
  await comment.press('Enter');
  await expect(comment).toHaveValue('');
  const comments = adaDialog.getByRole('region', { name: 'Comments' });
  await expect(comments.locator('[data-mention]')).toHaveText(`@${bob.name}`);

  // Bob's bell: the mention is in his notification centre.
  const bell = navbar(bobPage).getByRole('button', { name: /^Notifications/ });
  await expect(bell).toHaveAccessibleName(/^Notifications \(\d+ unread\)$/);
  await bell.click();
  const centre = bobPage.getByRole('region', { name: 'Notification centre' });
  await expect(centre.getByRole('button', { name: new RegExp(`${ada.name} mentioned you`) })).toContainText(
    title,
  );
  await bell.click();

  // Ada attaches an image: its thumbnail shows in the card and on the card's front, for Bob too.
  await adaDialog.getByLabel('Attach a file').setInputFiles({
    name: 'mock-up.png',
    mimeType: 'image/png',
    buffer: png(48, 32, [79, 70, 229]),
  });
  const attachments = adaDialog.getByRole('region', { name: 'Attachments' });
  await expect(attachments.getByRole('img', { name: 'mock-up.png' })).toBeVisible();
  await expect(cardIn(adaPage, doing, title)).toContainText('1 attachment');
  const cover = cardIn(bobPage, doing, title).locator('img');
  await expect(cover).toBeVisible();
  // Loaded, with Bob's session (the file service lets a board member read it).
  await expect
    .poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBe(48);
  await bobPage.screenshot({ path: test.info().outputPath('team-board-live.png') });

  // Opening the mention from the bell shows the card, with the comment.
  await bell.click();
  await centre.getByRole('button', { name: new RegExp(`${ada.name} mentioned you`) }).click();
  await expect(bobPage).toHaveURL(/\/tasks\/[0-9a-f-]{36}$/);
  const opened = bobPage.getByRole('dialog', { name: title, exact: true });
  await expect(opened.getByRole('region', { name: 'Comments' })).toContainText('Can you proofread this');

  await adaPage.close();
  await bobPage.close();
});

test('a viewer reads the board live and comments, with no add, move or drag controls', async () => {
  const boardTitle = `Roadmap ${suffix()}`;
  const boardId = await seedBoard(ada, workspace, boardTitle);

  // A new board without lists says so (not a blank page) and offers the viewer nothing to add.
  const page = await vic.context.newPage();
  await openBoard(page, boardId);
  await expect(page.getByText(`${boardTitle} in ${workspace} (view only)`)).toBeVisible();
  await expect(page.getByText(/This board has no lists yet\./)).toBeVisible();

  // The admin fills it in; the viewer sees it arrive.
  const backlog = await seedList(ada, boardId, 'Backlog');
  const shipped = await seedList(ada, boardId, 'Shipped');
  const title = `Pick a date ${suffix()}`;
  const taskId = await seedCard(ada, backlog, title);
  await expect(cardIn(page, 'Backlog', title)).toBeVisible();
  await expect(list(page, 'Shipped')).toBeVisible();
  await expect(page.getByText(/This board has no lists yet\./)).toHaveCount(0);

  // Nothing that changes the board.
  await expect(page.getByRole('button', { name: 'Add another list' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Add Task' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Move / })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^(Rename|Delete) (list|board) / })).toHaveCount(0);
  await expect(page.locator('[draggable="true"]')).toHaveCount(0);

  // The card opens read-only: no Move, Archive or edit panels; comments work.
  await cardIn(page, 'Backlog', title).click();
  const dialog = page.getByRole('dialog', { name: title, exact: true });
  await expect(dialog.getByText('in list Backlog')).toBeVisible();
  for (const name of ['Move', 'Archive', 'Labels', 'Checklist', 'Dates', 'Edit description']) {
    await expect(dialog.getByRole('button', { name, exact: true })).toHaveCount(0);
  }
  await expect(dialog.getByText('Attach a file')).toHaveCount(0);
  const comment = dialog.getByRole('textbox', { name: 'Write a comment' });
  await comment.fill('Looks good from here');
  await comment.press('Enter');
  await expect(comment).toHaveValue('');
  const comments = dialog.getByRole('region', { name: 'Comments' });
  await expect(comments.getByText('Looks good from here')).toBeVisible();
  await expect(comments.getByText(vic.name)).toBeVisible();

  // The server agrees: the comment is stored, and a move asked for directly is refused.
  const moved = await vic.context.request.put(`/api/tasks/${taskId}/move`, {
    data: { newTaskListId: shipped },
  });
  expect(moved.status()).toBe(403);
  const stored = await ada.context.request.get(`/api/task/${taskId}`);
  const task = (await stored.json()) as { taskListId: string; comments: Array<{ text: string }> };
  expect(task.taskListId).toBe(backlog);
  expect(task.comments.map((c) => c.text)).toEqual(['Looks good from here']);
  await page.close();
});

test("a non-member opening a team board's link gets the 404 page", async () => {
  const page = await nat.context.newPage();
  await page.goto(`/task/board/${teamBoardId}`);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.getByText('Team board')).toHaveCount(0);
  await page.close();
});

test('create a task from a channel message; it links back, and its link previews in the channel', async () => {
  const boardTitle = `Intake ${suffix()}`;
  const boardId = await seedBoard(ada, workspace, boardTitle);
  await seedList(ada, boardId, 'Inbox');
  await seedList(ada, boardId, 'Triage');
  const text = `The export button is broken on Safari ${suffix()}`;
  const posted = await bob.context.request.post(
    `/api/workspaces/${encodeURIComponent(workspace)}/channels/${channelId}/messages`,
    { data: { clientId: crypto.randomUUID(), content: text } },
  );
  expect(posted.status()).toBe(201);
  const { _id: messageId } = (await posted.json()) as { _id: string };
  const channelUrl = `/workspace/${encodeURIComponent(workspace)}/channel/${channelId}`;

  const page = await ada.context.newPage();
  await page.goto(channelUrl);
  const log = page.getByRole('log', { name: 'Messages in general' });
  await expect(log).toHaveAttribute('aria-busy', 'false');
  const message = log.getByRole('listitem').filter({ hasText: text });
  await (await messageAction(message, 'Create task from message')).click();

  const dialog = page.getByRole('dialog', { name: 'Create task from message' });
  await dialog
    .getByRole('combobox', { name: 'Board' })
    .selectOption({ label: `${workspace} / ${boardTitle}` });
  await expect(dialog.getByRole('combobox', { name: 'List' })).toHaveValue(/.+/);
  await dialog.getByRole('combobox', { name: 'List' }).selectOption({ label: 'Triage' });
  await expect(dialog.getByRole('textbox', { name: 'Title' })).toHaveValue(text);
  await dialog.getByRole('button', { name: 'Create task' }).click();
  await expect(dialog).toHaveCount(0);
  await page.getByRole('button', { name: 'Open task' }).click();
  await expect(page).toHaveURL(/\/tasks\/[0-9a-f-]{36}$/);
  const taskId = new URL(page.url()).pathname.split('/').pop() as string;

  // The card is on the chosen board and list, and its detail links back to the message.
  const card = page.getByRole('dialog', { name: text, exact: true });
  await expect(card.getByText('in list Triage')).toBeVisible();
  const back = card.getByRole('link', { name: 'Open the message this task came from' });
  await expect(back).toHaveAttribute('href', new RegExp(`/channel/${channelId}\\?message=${messageId}$`));
  await page.keyboard.press('Escape');
  await openBoard(page, boardId);
  await expect(cardIn(page, 'Triage', text)).toBeVisible();
  await cardIn(page, 'Triage', text).click();
  await page.getByRole('link', { name: 'Open the message this task came from' }).click();
  await expect(page).toHaveURL(new RegExp(`/channel/${channelId}\\?message=${messageId}$`));
  await expect(page.getByRole('log', { name: 'Messages in general' }).getByText(text)).toBeVisible();

  // Ada pastes the task's link in the channel; Bob (a member) sees a preview card under it.
  const composer = page.getByRole('textbox', { name: 'Message general' });
  await composer.fill(`Tracking it here: ${new URL(page.url()).origin}/tasks/${taskId}`);
  await composer.press('Enter');
  await expect(composer).toHaveValue('');
  const bobPage = await bob.context.newPage();
  await bobPage.goto(channelUrl);
  const preview = bobPage
    .getByRole('log', { name: 'Messages in general' })
    .getByRole('link', { name: `Task ${text}` });
  await expect(preview).toContainText(`${boardTitle} · Triage`);
  await preview.click();
  await expect(bobPage).toHaveURL(new RegExp(`/tasks/${taskId}$`));
  await expect(bobPage.getByRole('dialog', { name: text, exact: true })).toBeVisible();
  await bobPage.close();
  await page.close();
});
