import type { LaunchOptions } from '@playwright/test';

/** How every journey launches Debian's Chromium (scripts/test.sh may point CHROMIUM_PATH elsewhere). */
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
 * and a fake screen for getDisplayMedia: for the calls journeys only.
 */
export const fakeMediaLaunchOptions: LaunchOptions = {
  ...chromiumLaunchOptions,
  args: [
    ...(chromiumLaunchOptions.args ?? []),
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
    '--auto-select-desktop-capture-source=Entire screen',
    '--autoplay-policy=no-user-gesture-required',
  ],
};
