import { fileURLToPath } from 'node:url';
import type { LaunchOptions } from 'playwright-core';

/** How journeys and benches launch Debian's Chromium (scripts/test.sh may point CHROMIUM_PATH elsewhere). */
export const chromiumLaunchOptions: LaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

/**
 * The same, with a fake camera and microphone (a test pattern and a beep) granted without a prompt,
 * and a fake screen for getDisplayMedia: for the calls journeys and the meeting bench. `fps` sets the
 * fake camera's frame rate (Chromium's default 30; 5 is its lowest) and `muteAudio` silences the
 * browser's output: a meeting of eight in one Chromium on two cores decodes 56 streams. `lowPriority`
 * runs Chromium with a small CPU share (chromium-low-priority.sh), so the servers under test are not
 * starved.
 */
export function fakeMediaOptions(
  opts: { fps?: number; muteAudio?: boolean; lowPriority?: boolean } = {},
): LaunchOptions {
  return {
    ...chromiumLaunchOptions,
    ...(opts.lowPriority
      ? { executablePath: fileURLToPath(new URL('./chromium-low-priority.sh', import.meta.url)) }
      : {}),
    args: [
      ...(chromiumLaunchOptions.args ?? []),
      opts.fps ? `--use-fake-device-for-media-stream=fps=${opts.fps}` : '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      '--auto-select-desktop-capture-source=Entire screen',
      '--autoplay-policy=no-user-gesture-required',
      ...(opts.muteAudio ? ['--mute-audio'] : []),
    ],
  };
}

export const fakeMediaLaunchOptions = fakeMediaOptions();
