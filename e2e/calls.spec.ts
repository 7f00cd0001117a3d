import { expect, test } from '@playwright/test';
import { io } from 'socket.io-client';
import { axeViolations } from './axe.ts';
import {
  callScreen,
  dial,
  expectConnected,
  expectFrames,
  openVideo,
  type Person,
  person,
  team,
} from './calls-helpers.ts';
import { fakeMediaLaunchOptions } from './chromium.ts';

/**
 * Video calls between real users in separate browser contexts of Debian's Chromium with a fake camera
 * and microphone, against the real server: one-to-one calls on /video (connect, frames, mute, end,
 * reject, busy, a third user's candidates), and a channel's meeting on /videocall with three people.
 */
test.use({ launchOptions: fakeMediaLaunchOptions });

async function expectTornDown(p: Person) {
  await expect(callScreen(p.page)).toHaveAttribute('data-phase', 'idle');
  await expect(callScreen(p.page)).toHaveAttribute('data-connection', 'none');
  // The tiles (and their streams) are gone: the page shows its idle state instead.
  await expect(p.page.getByRole('heading', { name: 'No call in progress' })).toBeVisible();
  await expect(p.page.locator('video')).toHaveCount(0);
  await expect(p.page.getByRole('button', { name: 'Call', exact: true })).toBeEnabled();
}

test.describe('one-to-one calls on /video', () => {
  let ada: Person;
  let bob: Person;
  let carol: Person;

  test.beforeAll(async ({ browser }) => {
    [ada, bob, carol] = await Promise.all([
      person(browser, 'Ada'),
      person(browser, 'Bob'),
      person(browser, 'Carol'),
    ]);
    await team(ada, [bob, carol]);
  });

  test.afterAll(async () => {
    for (const p of [ada, bob, carol]) await p.context.close();
  });

  test('call → accept connects both with frames; mute flips the sent tracks; busy; a third user cannot inject; end tears both down', async ({
    baseURL,
  }) => {
    // Three browsers with fake cameras: on a busy two-core machine this takes over a minute.
    test.setTimeout(180_000);
    // Everything Bob's page receives on its signalling connection.
    const bobFrames: string[] = [];
    bob.page.on('websocket', (ws) =>
      ws.on('framereceived', ({ payload }) => bobFrames.push(String(payload))),
    );
    await Promise.all([openVideo(ada), openVideo(bob), openVideo(carol)]);

    await dial(ada, bob);
    await expect(ada.page.getByRole('button', { name: 'Call', exact: true })).toBeDisabled();
    await expect(callScreen(ada.page)).toHaveAttribute('data-phase', 'calling');
    const incoming = bob.page.getByRole('region', { name: `Incoming call from ${ada.name}` });
    await expect(incoming).toBeVisible();
    await incoming.getByRole('button', { name: 'Accept' }).click();
    await expectConnected(ada, bob);

    // Mute flips what the connection really sends, audio and video independently.
    const screen = callScreen(ada.page);
    await expect(screen).toHaveAttribute('data-audio-sending', 'true');
    await ada.page.getByRole('button', { name: 'Mute Audio' }).click();
    await expect(screen).toHaveAttribute('data-audio-sending', 'false');
    await expect(screen).toHaveAttribute('data-video-sending', 'true');
    await ada.page.getByRole('button', { name: 'Mute Video' }).click();
    await expect(screen).toHaveAttribute('data-video-sending', 'false');
    await expect(ada.page.getByRole('button', { name: 'Mute Audio' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await ada.page.getByRole('button', { name: 'Mute Audio' }).click();
    await expect(screen).toHaveAttribute('data-audio-sending', 'true');
    await expect(screen).toHaveAttribute('data-video-sending', 'false');

    // Carol (same workspace) finds Bob busy.
    await dial(carol, bob);
    await expect(carol.page.getByRole('alert')).toHaveText(`${bob.email} is busy in another call`);
    await expect(callScreen(carol.page)).toHaveAttribute('data-phase', 'idle');

    // Carol, with her own session on a raw client, tries to slip candidates into the call.
    const cookies = await carol.context.cookies();
    const raw = io(`${baseURL}/video`, {
      transports: ['websocket'],
      extraHeaders: { cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; '), origin: baseURL ?? '' },
    });
    try {
      await new Promise<void>((resolve, reject) => {
        raw.on('connect', () => resolve());
        raw.on('connect_error', reject);
      });
      const candidate = {
        candidate: 'candidate:1 1 udp 2122260223 203.0.113.9 9 typ host',
        sdpMid: '0',
        sdpMLineIndex: 0,
      };
      for (const to of [bob.email, ada.email]) {
        expect(await raw.timeout(5000).emitWithAck('candidate', { to, candidate })).toEqual({
          ok: false,
          reason: 'no call',
        });
      }
      expect(await raw.timeout(5000).emitWithAck('end-call', { to: bob.email })).toEqual({
        ok: false,
        reason: 'no call',
      });
    } finally {
      raw.disconnect();
    }
    expect(bobFrames.filter((f) => f.includes(carol.email))).toEqual([]);
    await expect(callScreen(bob.page)).toHaveAttribute('data-connection', 'connected');

    // Ada ends the call: both sides tear down, Bob is told.
    await ada.page.getByRole('button', { name: 'End Call' }).click();
    await expectTornDown(ada);
    await expectTornDown(bob);
    await expect(bob.page.getByRole('status').filter({ hasText: 'Call ended' })).toBeVisible();
  });

  test('reject tells the caller; a blank callee and a failing camera are explained', async () => {
    await Promise.all([openVideo(ada), openVideo(bob)]);
    await dial(ada, bob);
    await expect(bob.page.getByRole('button', { name: 'Reject' })).toBeVisible();
    expect(await axeViolations(bob.page)).toEqual([]);
    await bob.page.getByRole('button', { name: 'Reject' }).click();
    await expect(
      ada.page.getByRole('status').filter({ hasText: `${bob.email} rejected the call` }),
    ).toBeVisible();
    await expectTornDown(ada);
    await expectTornDown(bob);

    await ada.page.getByPlaceholder('Enter email ID to call').fill('   ');
    await ada.page.getByRole('button', { name: 'Call', exact: true }).click();
    await expect(ada.page.getByRole('alert')).toHaveText('Please enter a user ID to call');

    // No camera: the browser refuses getUserMedia.
    await ada.page.evaluate(() => {
      navigator.mediaDevices.getUserMedia = () =>
        Promise.reject(new DOMException('denied', 'NotAllowedError'));
    });
    await dial(ada, bob);
    await expect(ada.page.getByRole('alert')).toHaveText('Cannot access camera or microphone');
    await expect(callScreen(ada.page)).toHaveAttribute('data-phase', 'idle');
    await expect(bob.page.getByRole('button', { name: 'Accept' })).toHaveCount(0);
  });
});

test.describe('a channel meeting on /videocall', () => {
  test('three members see each other by name with frames; one leaves; a non-member is refused', async ({
    browser,
  }) => {
    // Four people, three cameras encoding for two peers each: slow on a busy two-core machine.
    test.setTimeout(120_000);
    const [ada, bob, carol, dave] = await Promise.all([
      person(browser, 'Ada'),
      person(browser, 'Bob'),
      person(browser, 'Carol'),
      person(browser, 'Dave'),
    ]);
    const { workspaceName, channelId } = await team(ada, [bob, carol]);

    // Ada gets there from the channel's Video Meeting button.
    await ada.page.goto(`/workspace/${encodeURIComponent(workspaceName)}/channel/${channelId}`);
    await ada.page.getByRole('button', { name: 'Video Meeting' }).click();
    await expect(ada.page).toHaveURL(/\/videocall\?/);
    const url = new URL(ada.page.url());
    expect(url.searchParams.get('room')).toBe(channelId);
    expect(url.searchParams.get('workspace')).toBe(workspaceName);
    const meeting = `${url.pathname}${url.search}`;

    const members = [ada, bob, carol];
    await Promise.all([bob, carol].map((p) => p.page.goto(meeting)));
    for (const p of members) {
      await expect(p.page.getByRole('heading', { name: 'Video meeting' })).toBeVisible();
      await p.page.getByRole('button', { name: 'Start Call' }).click();
      await expect(p.page.getByTestId('mesh-call')).toHaveAttribute('data-status', 'in-call');
    }
    await Promise.all(
      members.map(async (p) => {
        const tiles = p.page.getByTestId('remote-tile');
        await expect(tiles).toHaveCount(2);
        const others = members.filter((o) => o !== p).map((o) => o.name);
        await expect
          .poll(async () => (await tiles.locator('figcaption').allInnerTexts()).sort())
          .toEqual(others.sort());
        for (let i = 0; i < 2; i++) {
          await expect(tiles.nth(i)).toHaveAttribute('data-connection', 'connected', { timeout: 10_000 });
          await expectFrames(tiles.nth(i).getByTestId('remote-video'));
        }
        expect(await tiles.first().evaluate((el) => el.getBoundingClientRect().width)).toBe(200);
        expect(await p.page.getByTestId('local-video').evaluate((v: HTMLVideoElement) => v.muted)).toBe(true);
      }),
    );

    expect(await axeViolations(carol.page)).toEqual([]);
    await carol.page.getByRole('button', { name: 'Leave Call' }).click();
    for (const p of [ada, bob]) {
      await expect(p.page.getByTestId('remote-tile')).toHaveCount(1);
      await expect(p.page.getByTestId('remote-tile').locator('figcaption')).toHaveText(
        p === ada ? bob.name : ada.name,
      );
    }

    // Dave is in no workspace of theirs: the channel's room refuses him.
    await dave.page.goto(meeting);
    await dave.page.getByRole('button', { name: 'Start Call' }).click();
    await expect(dave.page.getByRole('alert')).toContainText('You cannot join this call');
    await expect(dave.page.getByRole('button', { name: 'Start Call' })).toBeVisible();
    await expect(ada.page.getByTestId('remote-tile')).toHaveCount(1);

    for (const p of [ada, bob, carol, dave]) await p.context.close();
  });
});
