import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { hasJanus, type LocalJanus, startJanus } from '../scripts/janus-local.ts';
import { type Person, person, team } from './calls-helpers.ts';
import { fakeMediaOptions } from './chromium.ts';
import { type OwnServer, startOwnServer } from './own-server.ts';

/**
 * A channel meeting of eight on Janus (issue 23): Debian's Janus on loopback (scripts/janus-local.ts)
 * and a Cohort server of this journey's own pointed at it. Everyone sees decoded frames from the
 * seven others over two peer connections (publish, subscribe), not seven; one mutes and the others
 * see it; one is removed from the workspace and dropped from the meeting. `.ci/run` installs janus;
 * without it the journey is skipped outside CI and fails in CI.
 */
// Eight pages decoding seven streams each in one Chromium on a 2-core machine: on a slow day they
// starved the Cohort server (assets took 3 s, socket handshakes timed out) and the last joiners never
// got in. Fewer frames, no sound out, and Chromium below the servers' priority.
test.use({ launchOptions: fakeMediaOptions({ fps: 5, muteAudio: true, lowPriority: true }) });

const NAMES = ['Ada', 'Bob', 'Cyd', 'Dee', 'Eve', 'Fay', 'Gus', 'Hal'];

/** Counts the page's RTCPeerConnections (the mesh would need one per other participant). */
async function countPeerConnections(page: Page) {
  await page.addInitScript(() => {
    const Native = window.RTCPeerConnection;
    const made: RTCPeerConnection[] = [];
    (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs = made;
    window.RTCPeerConnection = class extends Native {
      constructor(config?: RTCConfiguration) {
        super(config);
        made.push(this);
      }
    };
  });
}

const openConnections = (page: Page) =>
  page.evaluate(
    () =>
      (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.filter(
        (pc) => pc.connectionState !== 'closed',
      ).length,
  );

/** How many remote tiles there are, and the names on those whose <video> has shown no decoded frame yet. */
const framesSeen = (page: Page) =>
  page.getByTestId('remote-tile').evaluateAll((tiles) => ({
    tiles: tiles.length,
    withoutFrames: tiles
      .filter((t) => (t.querySelector('video')?.getVideoPlaybackQuality().totalVideoFrames ?? 0) === 0)
      .map((t) => t.querySelector('figcaption')?.textContent ?? '?'),
  }));

/**
 * What a page receives, for the log when a tile stays black: each tile's <video> (its tracks, whether
 * it plays) and each open connection's transceivers with their inbound video counters. The CI log is
 * the only record a failed run on another machine leaves besides the trace.
 */
const receiving = (page: Page) =>
  page.evaluate(async () => {
    const tiles = Array.from(document.querySelectorAll('[data-testid="remote-tile"]')).map((t) => {
      const video = t.querySelector('video');
      const stream = video?.srcObject as MediaStream | null | undefined;
      return {
        name: t.querySelector('figcaption')?.textContent,
        connection: t.getAttribute('data-connection'),
        paused: video?.paused,
        readyState: video?.readyState,
        frames: video?.getVideoPlaybackQuality().totalVideoFrames,
        tracks: stream
          ?.getTracks()
          .map((k) => `${k.kind}:${k.readyState}${k.muted ? ':muted' : ''}:${k.id.slice(0, 8)}`),
      };
    });
    const pcs = (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.filter(
      (pc) => pc.connectionState !== 'closed',
    );
    const connections = await Promise.all(
      pcs.map(async (pc) => {
        const inbound = new Map<string, string>();
        (await pc.getStats()).forEach((r) => {
          if (r.type === 'inbound-rtp' && r.kind === 'video')
            inbound.set(
              r.mid,
              `pkts ${r.packetsReceived} frames ${r.framesReceived}/${r.framesDecoded} key ${r.keyFramesDecoded} pli ${r.pliCount} nack ${r.nackCount}`,
            );
        });
        return {
          state: `${pc.connectionState}/${pc.signalingState}`,
          transceivers: pc
            .getTransceivers()
            .map(
              (t) =>
                `${t.mid} ${t.receiver.track.kind} ${t.currentDirection} ${t.receiver.track.id.slice(0, 8)}${t.receiver.track.muted ? ' muted' : ''} ${inbound.get(t.mid ?? '') ?? ''}`,
            ),
        };
      }),
    );
    return { tiles, connections };
  });

test.describe('a channel meeting of eight on the SFU', () => {
  test.skip(
    !hasJanus() && !process.env.CI,
    'janus (Debian package janus) is not installed: the SFU journey is skipped',
  );

  let dir: string;
  let janus: LocalJanus;
  let app: OwnServer;
  const people: Person[] = [];

  test.beforeAll(async () => {
    test.setTimeout(90_000);
    if (!hasJanus()) throw new Error('janus is missing: CI must install it (.ci/run does)');
    dir = mkdtempSync(join(tmpdir(), 'cohort-sfu-'));
    janus = await startJanus();
    app = await startOwnServer(dir, janus.env);
  });

  test.afterAll(async () => {
    for (const p of people) await p.context.close();
    await app?.stop();
    await janus?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('everyone sees the seven others; a mute shows; someone removed is dropped', async ({ browser }) => {
    // About 40 s on a quiet 2-core machine; 8.6 min with its CPU capped at a fifth.
    test.setTimeout(900_000);
    people.push(...(await Promise.all(NAMES.map((name) => person(browser, name, app.baseURL, app.dataDir)))));
    const [ada, bob, ...rest] = people as [Person, Person, ...Person[]];
    const hal = people[7] as Person;
    const { workspaceName, channelId } = await team(ada, people.slice(1));
    const meeting = `/videocall?${new URLSearchParams({ room: channelId, workspace: workspaceName })}`;

    const started = Date.now();
    let janusLogged = false;
    const since = () => `+${Math.round((Date.now() - started) / 1000)} s`;
    for (const p of people) {
      await countPeerConnections(p.page);
      // The page's own errors and warnings (Janus retries, refused subscriptions, a subscriber
      // connection rebuilt for want of frames) go to the log: the CI log is the only record a failed
      // run on another machine leaves besides the trace.
      p.page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') console.log(`[${p.name} ${since()}] ${m.text()}`);
      });
    }
    // Everyone opens the meeting page first: on a starved machine a page load next to pages already
    // decoding video took a minute. Then they join one after another, as people drift into a meeting.
    await Promise.all(
      people.map(async (p) => {
        await p.page.goto(meeting);
        await expect(p.page.getByRole('button', { name: 'Start Call' })).toBeEnabled({ timeout: 60_000 });
      }),
    );
    for (const p of people) {
      await p.page.getByRole('button', { name: 'Start Call' }).click();
      await expect(p.page.getByTestId('mesh-call')).toHaveAttribute('data-status', 'in-call', {
        timeout: 120_000,
      });
    }

    // Everyone's screen is checked at once: on a starved machine each page answers slowly.
    await Promise.all(
      people.map(async (p) => {
        await expect(p.page.getByTestId('sfu-layout')).toHaveAttribute('data-layout', 'speaker');
        const tiles = p.page.getByTestId('remote-tile');
        await expect(tiles).toHaveCount(7, { timeout: 60_000 });
        const others = people.filter((o) => o !== p).map((o) => o.name);
        await expect
          .poll(async () => (await tiles.locator('figcaption').allInnerTexts()).map((t) => t.trim()).sort(), {
            timeout: 30_000,
          })
          .toEqual(others.sort());
        await expect
          .poll(() => framesSeen(p.page), {
            message: `${p.name}: seven tiles, each with decoded frames`,
            // With the machine's CPU capped at a fifth, the last screen had all its tiles after 162 s.
            timeout: 300_000,
          })
          .toEqual({ tiles: 7, withoutFrames: [] })
          .catch(async (err: unknown) => {
            console.log(
              `[${p.name} ${since()}] receiving:`,
              JSON.stringify(await receiving(p.page), null, 1),
            );
            if (!janusLogged) console.log(`Janus's log, its end:\n${janus.log().slice(-4000)}`);
            janusLogged = true;
            throw err;
          });
        // Publish and subscribe: two connections, where the mesh would hold seven.
        expect(await openConnections(p.page)).toBeLessThanOrEqual(2);
      }),
    );

    console.log(`[${since()}] everyone sees the seven others`);
    // Bob mutes: everyone else sees it on his tile. (The waits are long for a starved machine, where
    // a click alone took 20 s; the screens are watched at once.)
    await bob.page.getByRole('button', { name: 'Mute' }).click();
    await Promise.all(
      people
        .filter((o) => o !== bob)
        .map((p) =>
          expect(p.page.getByTestId('remote-tile').filter({ hasText: bob.name })).toContainText('muted', {
            timeout: 60_000,
          }),
        ),
    );

    console.log(`[${since()}] everyone sees Bob muted`);
    // Hal is removed from the workspace: his meeting ends and the others drop his tile.
    const membersUrl = `/api/workspaces/${encodeURIComponent(workspaceName)}/members`;
    const list = await ada.context.request.get(membersUrl);
    expect(list.ok()).toBe(true);
    const halId = ((await list.json()) as { _id: string | null; email: string }[]).find(
      (m) => m.email === hal.email,
    )?._id;
    expect(halId).toBeTruthy();
    const res = await ada.context.request.delete(`${membersUrl}/${halId}`);
    expect(res.ok()).toBe(true);
    await expect(hal.page.getByText('You were removed from this call')).toBeVisible({ timeout: 30_000 });
    await expect(hal.page.getByTestId('mesh-call')).toHaveAttribute('data-status', 'idle');
    await Promise.all(
      [ada, bob, ...rest]
        .filter((o) => o !== hal)
        .map(async (p) => {
          await expect(p.page.getByTestId('remote-tile')).toHaveCount(6, { timeout: 30_000 });
          await expect(p.page.getByTestId('remote-tile').filter({ hasText: hal.name })).toHaveCount(0);
        }),
    );
  });
});
