/**
 * "Chrome on macOS" from a User-Agent header: enough for a person to tell their sessions apart.
 * A small ordered rule list rather than a parsing library (the maintained one, ua-parser-js 2, is
 * AGPL); order matters because most browsers also claim to be the ones they descend from
 * (Edge says Chrome and Safari, Chrome says Safari).
 */

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bVivaldi\//, 'Vivaldi'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\bCriOS\//, 'Chrome'],
  [/\bHeadlessChrome\//, 'Headless Chrome'],
  [/\bChromium\//, 'Chromium'],
  [/\bChrome\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/^curl\//, 'curl'],
  [/^node(?:-fetch)?\b|\bundici\b/i, 'Node.js'],
  [/^python-requests\//, 'Python requests'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\biPad\b/, 'iPadOS'],
  [/\b(?:iPhone|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
];

const first = (rules: [RegExp, string][], ua: string) => rules.find(([re]) => re.test(ua))?.[1];

export function describeDevice(userAgent: string | null): string {
  const ua = userAgent?.trim();
  if (!ua) return 'Unknown device';
  const browser = first(BROWSERS, ua);
  const system = first(SYSTEMS, ua);
  if (browser && system) return `${browser} on ${system}`;
  if (browser) return browser;
  if (system) return `Browser on ${system}`;
  return 'Unknown device';
}
