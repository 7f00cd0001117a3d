import { expect as baseExpect, type Page, test } from '@playwright/test';
import { callScreen, expectConnected, expectFrames, type Person, person, team } from './calls-helpers.ts';
import { fakeMediaLaunchOptions } from './chromium.ts';

/**
 * Issue 19, "A call rings wherever the callee is": calls ring on every signed-in page (any tab),
 * accepting in one tab stops the others, an unanswered call becomes a missed-call notification and
 * "No answer", and a channel shows "Meeting in progress" with a one-click Join. Real Chromium with a
 * fake camera, the real server (its ring timeout is CALL_RING_TIMEOUT_MS in playwright.config.ts).
 */
test.use({ launchOptions: fakeMediaLaunchOptions });

// Several browsers with fake cameras on a shared two-core machine: pages can take many seconds to
// load, so every wait here is on a condition with a generous ceiling (nothing asserts a duration).
const expect = baseExpect.configure({ timeout: 60_000 });

/**
 * Counts the WebAudio oscillators that are playing in a page (the ringtone is synthesised), so a
 * journey can tell a ringing tab from a silent one.
 */
async function countOscillators(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __playing: number };
    w.__playing = 0;
    const proto = OscillatorNode.prototype;
    const start = proto.start;
    const stop = proto.stop;
    proto.start = function (...args: Parameters<typeof start>) {
      w.__playing += 1;
      return start.apply(this, args);
    };
    proto.stop = function (...args: Parameters<typeof stop>) {
      w.__playing -= 1;
      return stop.apply(this, args);
    };
  });
}
const playing = (page: Page) => page.evaluate(() => (window as unknown as { __playing: number }).__playing);

const incomingDialog = (page: Page, caller: Person) =>
  page.getByRole('alertdialog', { name: `Incoming call from ${caller.name}` });

/** A signed-in page that has its call connection up (the navbar shows the user's menu). */
async function onDashboard(page: Page) {
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Your Workspaces' })).toBeVisible();
}

test.describe('calls ring on every page', () => {
  let ada: Person;
  let bob: Person;

  test.beforeAll(async ({ browser }) => {
    [ada, bob] = await Promise.all([person(browser, 'Ada'), person(browser, 'Bob')]);
    await team(ada, [bob]);
  });
  test.afterAll(async () => {
    for (const p of [ada, bob]) await p.context.close();
  });

  test('from the DM header to both of Bob’s dashboard tabs; accepting in one stops the other; frames flow', async () => {
    test.setTimeout(240_000);
    const tab1 = bob.page;
    const tab2 = await bob.context.newPage();
    for (const tab of [tab1, tab2]) await countOscillators(tab);
    await Promise.all([onDashboard(tab1), onDashboard(tab2)]);
    await expect(tab1).toHaveTitle('Your Workspaces · Cohort');

    // Ada opens the conversation with Bob and presses Call in its header.
    await ada.page.goto(`/chat?with=${encodeURIComponent(bob.email)}`);
    await expect(ada.page.getByRole('heading', { level: 2, name: bob.name })).toBeVisible();
    await ada.page.getByRole('button', { name: `Call ${bob.email}` }).click();
    await expect(ada.page).toHaveURL(/\/video$/);
    await expect(ada.page).toHaveTitle('Video call · Cohort');
    await expect(callScreen(ada.page)).toHaveAttribute('data-phase', 'calling');

    // Both of Bob's tabs ring: the dialog names Ada, and the ringtone plays.
    for (const tab of [tab1, tab2]) {
      const dialog = incomingDialog(tab, ada);
      await expect(dialog).toBeVisible();
      await expect(dialog.getByTestId('incoming-call')).toHaveAttribute('data-ringing', 'true');
      await expect.poll(() => playing(tab)).toBeGreaterThan(0);
    }

    await incomingDialog(tab1, ada).getByRole('button', { name: 'Accept' }).click();
    await expect(tab1).toHaveURL(/\/video$/);
    // The other tab stops ringing (answered elsewhere): no dialog, no ringtone.
    await expect(incomingDialog(tab2, ada)).toHaveCount(0);
    await expect.poll(() => playing(tab2)).toBe(0);
    await expect.poll(() => playing(tab1)).toBe(0);

    await expectConnected(ada, { ...bob, page: tab1 });
    await expectFrames(tab1.getByTestId('remote-video'));

    await ada.page.getByRole('button', { name: 'End Call' }).click();
    await expect(callScreen(tab1)).toHaveAttribute('data-phase', 'idle');
    await expect(tab1.getByRole('heading', { name: 'No call in progress' })).toBeVisible();
    await tab2.close();
  });

  test('an unanswered call becomes "No answer" for the caller and a missed call in the callee’s bell', async () => {
    test.setTimeout(240_000);
    await countOscillators(bob.page);
    await onDashboard(bob.page);
    // The profile card's Call (another feature) navigates to /video?call=<email>.
    await ada.page.goto(`/video?call=${encodeURIComponent(bob.email)}`);
    await expect(callScreen(ada.page)).toHaveAttribute('data-phase', 'calling');
    await expect(ada.page).toHaveURL(/\/video$/);
    await expect(incomingDialog(bob.page, ada)).toBeVisible();

    // Nobody answers: it rings out.
    await expect(ada.page.getByText('No answer')).toBeVisible({ timeout: 120_000 });
    await expect(callScreen(ada.page)).toHaveAttribute('data-phase', 'idle');
    await expect(incomingDialog(bob.page, ada)).toHaveCount(0);
    await expect.poll(() => playing(bob.page)).toBe(0);

    const bell = bob.page.getByRole('button', { name: /^Notifications \(\d+ unread\)$/ });
    await expect(bell).toBeVisible();
    await bell.click();
    const item = bob.page
      .getByRole('list', { name: 'Notifications' })
      .getByRole('button', { name: new RegExp(`${ada.name} called you`) });
    await expect(item).toBeVisible();
    await expect(item).toContainText('Missed call');
    // Opening it calls Ada back.
    await item.click();
    await expect(callScreen(bob.page)).toHaveAttribute('data-phase', 'calling');
    await expect(incomingDialog(ada.page, bob)).toHaveCount(0); // Ada is on /video: its own panel rings.
    await expect(ada.page.getByRole('region', { name: `Incoming call from ${bob.name}` })).toBeVisible();
    await bob.page.getByRole('button', { name: 'End Call' }).click();
    await expect(callScreen(ada.page)).toHaveAttribute('data-phase', 'idle');
  });
});

test.describe('a channel shows its meeting', () => {
  test('Meeting in progress with the participants and a one-click Join; mute is shown; it goes when the last leaves', async ({
    browser,
  }) => {
    test.setTimeout(300_000);
    const [ada, bob, carol] = await Promise.all([
      person(browser, 'Ada'),
      person(browser, 'Bob'),
      person(browser, 'Carol'),
    ]);
    const { workspaceName, channelId } = await team(ada, [bob, carol]);
    const channelPath = `/workspace/${encodeURIComponent(workspaceName)}/channel/${channelId}`;
    const banner = (page: Page) => page.getByTestId('meeting-banner');

    await Promise.all([bob.page.goto(channelPath), carol.page.goto(channelPath)]);
    await expect(carol.page.getByRole('heading', { name: 'general Chat' })).toBeVisible();
    await expect(carol.page).toHaveTitle(`#general · ${workspaceName} · Cohort`);

    // Ada starts the channel's meeting: the channel shows it, with her name.
    await ada.page.goto(channelPath);
    await ada.page.getByRole('button', { name: 'Video Meeting' }).click();
    await expect(ada.page.getByRole('heading', { name: 'Video meeting' })).toBeVisible();
    await expect(ada.page).toHaveTitle('Video meeting · Cohort');
    await ada.page.getByRole('button', { name: 'Start Call' }).click();
    await expect(ada.page.getByTestId('mesh-call')).toHaveAttribute('data-status', 'in-call');
    for (const p of [bob, carol]) {
      await expect(banner(p.page)).toContainText('Meeting in progress');
      await expect(banner(p.page)).toContainText(ada.name);
    }

    // Bob joins with one click and is in the call at once.
    await banner(bob.page).getByRole('button', { name: 'Join' }).click();
    await expect(bob.page.getByTestId('mesh-call')).toHaveAttribute('data-status', 'in-call');
    await expect(banner(carol.page)).toContainText(bob.name);
    const adaSeesBob = ada.page.getByTestId('remote-tile');
    await expect(adaSeesBob).toHaveCount(1);
    await expect(adaSeesBob).toHaveAttribute('data-connection', 'connected', { timeout: 30_000 });
    await expectFrames(adaSeesBob.getByTestId('remote-video'));

    // Bob mutes his microphone and turns his camera off: Ada sees it on his tile.
    await bob.page.getByRole('button', { name: 'Mute', exact: true }).click();
    await expect(adaSeesBob).toHaveAttribute('data-audio-muted', 'true');
    await expect(adaSeesBob.locator('figcaption')).toHaveText(`${bob.name} (muted)`);
    await bob.page.getByRole('button', { name: 'Camera off' }).click();
    await expect(adaSeesBob).toHaveAttribute('data-video-muted', 'true');
    await expect(adaSeesBob.locator('figcaption')).toHaveText(`${bob.name} (muted, camera off)`);
    await bob.page.getByRole('button', { name: 'Mute', exact: true }).click();
    await expect(adaSeesBob).toHaveAttribute('data-audio-muted', 'false');
    await expect(adaSeesBob.locator('figcaption')).toHaveText(`${bob.name} (camera off)`);

    // Both leave: the banner goes.
    await ada.page.getByRole('button', { name: 'Leave Call' }).click();
    await expect(banner(carol.page)).not.toContainText(ada.name);
    await bob.page.getByRole('button', { name: 'Leave Call' }).click();
    await expect(banner(carol.page)).toHaveCount(0);

    for (const p of [ada, bob, carol]) await p.context.close();
  });
});
