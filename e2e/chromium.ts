// The launch options live in scripts/chromium.ts, shared with the benches.
export { chromiumLaunchOptions, fakeMediaLaunchOptions, fakeMediaOptions } from '../scripts/chromium.ts';
