import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';

/**
 * The SPA's index.html, per client route, with `<link rel="modulepreload">` for the chunks that route
 * will import. Without them a phone on a slow network fetches index.js, runs it, and only then learns
 * it needs the page's chunk and its imports: one more round trip before anything useful paints
 * (Lighthouse mobile, issue 19). A wrong or stale entry costs one unused preload, nothing more.
 */

/** Hot client routes → the page module the web router lazily loads for them (apps/web/src/app/router.tsx). */
export interface RoutePage {
  pattern: RegExp;
  module: string;
  signedIn: boolean;
  /** The API reads the page starts with, built from the path's parameters exactly as the web app builds them. */
  data?: (params: string[]) => string[];
}

const api = (...segments: string[]) => `/api/${segments.map(encodeURIComponent).join('/')}`;

const HOME_MODULE = 'src/features/home/home-page.tsx';

export const ROUTE_PAGES: readonly RoutePage[] = [
  { pattern: /^\/$/, module: HOME_MODULE, signedIn: false },
  { pattern: /^\/login\/?$/, module: 'src/features/accounts/login-page.tsx', signedIn: false },
  { pattern: /^\/signup\/?$/, module: 'src/features/accounts/signup-page.tsx', signedIn: false },
  { pattern: /^\/dashboard\/?$/, module: 'src/features/workspaces/dashboard-page.tsx', signedIn: true },
  {
    pattern: /^\/workspace\/(?!create\/?$)([^/]+)(?:\/channel\/([^/]+))?\/?$/,
    module: 'src/features/workspaces/workspace-page.tsx',
    signedIn: true,
    // The channel pane's first read: the latest page (conversation-store.ts, pageSize 50).
    data: ([workspace = '', channel]) => [
      api('workspaces', workspace),
      ...(channel ? [`${api('workspaces', workspace, 'channels', channel, 'messages')}?limit=50`] : []),
    ],
  },
  {
    pattern: /^\/task(\/board\/[^/]+)?\/?$/,
    module: 'src/features/tasks/taskboard-page.tsx',
    signedIn: true,
  },
  { pattern: /^\/tasks\/[^/]+\/?$/, module: 'src/features/tasks/task-page.tsx', signedIn: true },
  { pattern: /^\/messages\/?$/, module: 'src/features/direct/messages-page.tsx', signedIn: true },
  {
    pattern: /^\/saved\/?$/,
    module: 'src/features/saved/saved-page.tsx',
    signedIn: true,
    data: () => [api('saved')],
  },
  { pattern: /^\/(chat|livechat)\/?$/, module: 'src/features/direct/chat-page.tsx', signedIn: true },
];

/**
 * The server-state cache (TanStack Query), the session guard and the session's part of the layout:
 * every screen but the landing page waits for it (apps/web/src/app/router.tsx). On `/` it is left to
 * load after the first render, so it does not compete with what the landing page paints.
 */
export const SESSION_MODULE = 'src/app/session.tsx';

/**
 * What every signed-in page loads: the user menu, the quick switcher's key, and the live client (the Socket.IO client and the
 * shared schemas) that presence and every live view load right after their first render.
 */
export const SIGNED_IN_MODULES = [
  // First: a live view's first page of messages waits for it (on HTTP/1.1 the order of the preloads
  // is the order of the requests, six at a time). lib/live.ts imports the chat schemas on their own
  // first (their own small entry chunk), then the live client.
  '../../packages/shared/src/chat.ts',
  'src/lib/live-client.ts',
  'src/app/user-menu.tsx',
  // Ctrl/Cmd+K answers from the first moment (its dialog loads on first use).
  'src/features/switcher/switcher-hotkey.tsx',
];

/**
 * The session's extras (navbar counters and bell, presence, the call listener). A first load of a
 * conversation or the task board renders them only after its content (apps/web/src/lib/first-content.ts,
 * same paths as CONTENT_FIRST): there they are not preloaded, so they do not take the phone's
 * bandwidth from the page's own chunks and reads.
 */
export const SESSION_EXTRAS = [
  'src/features/notifications/notification-bell.tsx',
  'src/features/direct/messages-link.tsx',
  'src/features/invitations/invitations-link.tsx',
  'src/features/presence/presence-connection.tsx',
  'src/features/calls/call-listener.tsx',
];
const CONTENT_FIRST = /^\/(workspace\/[^/]+\/channel\/[^/]+\/?|task(\/.*)?|chat\/?|livechat\/?)$/;

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/** Every file `module` needs before it runs (its chunk, static imports, their CSS), `skip`'s excluded. */
function filesOf(manifest: Manifest, module: string, skip: Set<string>): { js: string[]; css: string[] } {
  const js: string[] = [];
  const css: string[] = [];
  const seen = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.add(key);
    if (!skip.has(chunk.file)) js.push(chunk.file);
    for (const c of chunk.css ?? []) if (!css.includes(c) && !skip.has(c)) css.push(c);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  visit(module);
  return { js, css };
}

/**
 * `<link rel="preload" as="fetch">` for the session and the route's first reads: they then travel
 * while the scripts download instead of after they ran. `crossorigin="anonymous"` is the credentials
 * mode of the app's own fetches (same-origin), so the browser hands them the preloaded answers.
 */
function dataTags(route: RoutePage, path: string): string {
  let params: string[];
  try {
    params = (route.pattern.exec(path) ?? [])
      .slice(1)
      .map((p) => (p === undefined ? p : decodeURIComponent(p))) as string[];
  } catch {
    return ''; // a malformed escape in the URL: the app shows its own error for it
  }
  const urls = ['/api/me', ...(route.signedIn ? (route.data?.(params) ?? []) : [])];
  return urls
    .map((url) => `<link rel="preload" as="fetch" crossorigin="anonymous" href="${escapeAttr(url)}">`)
    .join('');
}

const escapeAttr = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The entry's stylesheets written into index.html (`<style>`), not linked: a linked stylesheet blocks
 * the first paint for one more round trip (on a phone's network the app bar then appeared after the
 * scripts had downloaded, issue 19). ~10 KB compressed, sent with each page load (the HTML is
 * compressed, see `compressHtml`). A file missing, or holding what would end the style element, stays
 * linked.
 */
function inlineEntryStyles(html: string, webDist: string, files: string[]): string {
  let page = html;
  for (const file of files) {
    const path = join(webDist, file);
    if (!existsSync(path)) continue;
    const css = readFileSync(path, 'utf8');
    if (/<\/style/i.test(css)) continue;
    const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const link = new RegExp(`<link rel="stylesheet"(?: crossorigin)? href="/${escaped}">`);
    page = page.replace(link, () => `<style>${css}</style>`);
  }
  return page;
}

/** Encodings the page is sent in, best first, and how fast they compress (HTML is made per request). */
const htmlEncodings = [
  {
    name: 'br',
    encode: (body: string) =>
      brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } }),
  },
  { name: 'gzip', encode: (body: string) => gzipSync(body, { level: 6 }) },
] as const;

/**
 * The page compressed in the best encoding the browser accepts (`accept-encoding`), or as it is: with
 * its styles inlined it is ~65 KB of text, ~10 KB compressed.
 */
export function compressHtml(
  html: string,
  acceptEncoding: string | undefined,
): { body: string | Buffer; encoding?: string } {
  const accepted = (acceptEncoding ?? '')
    .split(',')
    .map((part) => part.trim().split(';'))
    .filter(([, q]) => q?.trim() !== 'q=0')
    .map(([name]) => name?.trim().toLowerCase());
  const encoding = htmlEncodings.find((e) => accepted.includes(e.name));
  return encoding ? { body: encoding.encode(html), encoding: encoding.name } : { body: html };
}

export interface WebShell {
  /** index.html for a client route, with that route's preloads. */
  htmlFor(path: string): string;
}

/** Reads index.html and the build manifest once; without a manifest every route gets the plain page. */
export function createWebShell(webDist: string): WebShell {
  const built = readFileSync(join(webDist, 'index.html'), 'utf8');
  const manifestPath = join(webDist, '.vite', 'manifest.json');
  if (!existsSync(manifestPath)) return { htmlFor: () => built };
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  const entryKey = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
  // The entry, its static imports (transitively) and their CSS are already in index.html.
  const inPage = entryKey ? filesOf(manifest, entryKey, new Set()) : { js: [], css: [] };
  const html = inlineEntryStyles(built, webDist, inPage.css);
  const skip = new Set([...inPage.js, ...inPage.css]);

  const pages = new Map<string, string>();
  const tagsFor = (modules: string[]) => {
    const js = new Set<string>();
    const css = new Set<string>();
    for (const module of modules) {
      const files = filesOf(manifest, module, skip);
      for (const f of files.js) js.add(f);
      for (const f of files.css) css.add(f);
    }
    return [
      ...[...css].map((f) => `<link rel="stylesheet" href="/${f}">`),
      ...[...js].map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`),
    ].join('');
  };
  return {
    htmlFor(path) {
      const route = ROUTE_PAGES.find((r) => r.pattern.test(path));
      if (!route) return html;
      const contentFirst = CONTENT_FIRST.test(path);
      const key = `${route.module}${contentFirst ? ' content first' : ''}`;
      let head = pages.get(key);
      if (head === undefined) {
        const session = route.module === HOME_MODULE ? [] : [SESSION_MODULE];
        const signedIn = route.signedIn
          ? [...SIGNED_IN_MODULES, ...(contentFirst ? [] : SESSION_EXTRAS)]
          : [];
        head = tagsFor([route.module, ...session, ...signedIn]);
        pages.set(key, head);
      }
      return html.replace('</head>', `${head}${dataTags(route, path)}</head>`);
    },
  };
}
