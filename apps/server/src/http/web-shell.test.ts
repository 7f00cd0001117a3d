import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressHtml, createWebShell } from './web-shell.ts';

const page = '<html><head><script type="module" crossorigin src="/assets/index-1.js"></script></head></html>';

function dist(manifest?: object, html = page, files: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'web-shell-'));
  writeFileSync(join(dir, 'index.html'), html);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, 'assets'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  if (manifest) {
    mkdirSync(join(dir, '.vite'));
    writeFileSync(join(dir, '.vite', 'manifest.json'), JSON.stringify(manifest));
  }
  return dir;
}

const manifest = {
  'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_react.js'] },
  '_react.js': { file: 'assets/react-1.js' },
  '_socket.js': { file: 'assets/socket-1.js', imports: ['_react.js'] },
  'src/features/workspaces/workspace-page.tsx': {
    file: 'assets/workspace-page-1.js',
    imports: ['index.html', '_socket.js', '_react.js'],
    css: ['assets/workspace-page-1.css'],
  },
  'src/features/notifications/notification-bell.tsx': { file: 'assets/bell-1.js', imports: ['_socket.js'] },
};

describe('web shell', () => {
  it('preloads a route’s page chunk, its imports and the signed-in layout’s, once each, not the entry’s', () => {
    const html = createWebShell(dist(manifest)).htmlFor('/workspace/Acme');
    const preloads = [...html.matchAll(/rel="modulepreload" crossorigin href="([^"]+)"/g)].map((m) => m[1]);
    expect(preloads).toEqual(['/assets/workspace-page-1.js', '/assets/socket-1.js', '/assets/bell-1.js']);
    expect(html).toContain('<link rel="stylesheet" href="/assets/workspace-page-1.css">');
    expect(html.indexOf('modulepreload')).toBeLessThan(html.indexOf('</head>'));
  });

  it('leaves the session’s extras (the bell…) to load after a conversation’s or the board’s first render', () => {
    const shell = createWebShell(dist(manifest));
    for (const path of ['/workspace/Acme/channel/0b7f', '/task', '/task/board/b1', '/chat']) {
      const html = shell.htmlFor(path);
      expect(html, path).not.toContain('/assets/bell-1.js');
    }
    expect(shell.htmlFor('/workspace/Acme/channel/0b7f')).toContain('/assets/workspace-page-1.js');
    expect(shell.htmlFor('/dashboard')).toContain('/assets/bell-1.js');
  });

  it('skips what index.html already loads: the entry’s imports, transitively, and their CSS', () => {
    const split = {
      // Rolldown's inlined common chunks: the entry is a facade over the app chunk, which imports more.
      'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_web.js'] },
      '_web.js': { file: 'assets/web-1.js', imports: ['_runtime.js'], css: ['assets/web-1.css'] },
      '_runtime.js': { file: 'assets/runtime-1.js' },
      'src/features/tasks/taskboard-page.tsx': {
        file: 'assets/taskboard-page-1.js',
        imports: ['_runtime.js', '_web.js', '_board.js'],
      },
      '_board.js': { file: 'assets/board-1.js', imports: ['_web.js'], css: ['assets/web-1.css'] },
    };
    const html = createWebShell(dist(split)).htmlFor('/task');
    const preloads = [...html.matchAll(/rel="modulepreload" crossorigin href="([^"]+)"/g)].map((m) => m[1]);
    expect(preloads).toEqual(['/assets/taskboard-page-1.js', '/assets/board-1.js']);
    expect(html).not.toContain('stylesheet');
  });

  it('preloads the query cache’s chunk on every route but the landing page, after the page’s own', () => {
    const withSession = {
      ...manifest,
      '_query.js': { file: 'assets/query-1.js' },
      'src/app/session.tsx': { file: 'assets/session-1.js', imports: ['_query.js', '_react.js'] },
      'src/features/home/home-page.tsx': { file: 'assets/home-page-1.js', imports: ['_react.js'] },
      'src/features/accounts/login-page.tsx': { file: 'assets/login-page-1.js', imports: ['_query.js'] },
    };
    const preloads = (path: string) =>
      [
        ...createWebShell(dist(withSession))
          .htmlFor(path)
          .matchAll(/rel="modulepreload" crossorigin href="([^"]+)"/g),
      ].map((m) => m[1]);
    expect(preloads('/')).toEqual(['/assets/home-page-1.js']);
    expect(preloads('/login')).toEqual([
      '/assets/login-page-1.js',
      '/assets/query-1.js',
      '/assets/session-1.js',
    ]);
    expect(preloads('/workspace/Acme/channel/0b7f').slice(0, 3)).toEqual([
      '/assets/workspace-page-1.js',
      '/assets/socket-1.js',
      '/assets/session-1.js',
    ]);
  });

  it('leaves other routes, and a build without a manifest, as the plain page', () => {
    expect(createWebShell(dist(manifest)).htmlFor('/workspace/create')).toBe(page);
    expect(createWebShell(dist(manifest)).htmlFor('/about')).toBe(page);
    expect(createWebShell(dist()).htmlFor('/workspace/Acme')).toBe(page);
  });

  it('writes the entry’s stylesheet into the page, unless it could end the style element', () => {
    const styled = page.replace(
      '</head>',
      '<link rel="stylesheet" crossorigin href="/assets/index-1.css"><link rel="stylesheet" crossorigin href="/assets/extra-1.css"></head>',
    );
    const entry = {
      'index.html': {
        file: 'assets/index-1.js',
        isEntry: true,
        css: ['assets/index-1.css', 'assets/extra-1.css'],
      },
    };
    const shell = createWebShell(
      dist(entry, styled, {
        'assets/index-1.css': '.a{color:red}',
        'assets/extra-1.css': '.b::after{content:"</style><script>"}',
      }),
    );
    for (const html of [shell.htmlFor('/'), shell.htmlFor('/about'), shell.htmlFor('/workspace/Acme')]) {
      expect(html).toContain('<style>.a{color:red}</style>');
      expect(html).not.toContain('href="/assets/index-1.css"');
      expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/extra-1.css">');
      expect(html).not.toContain('</style><script>');
    }
  });
});

describe('compressHtml', () => {
  const html = `<html>${'<p>Cohort</p>'.repeat(200)}</html>`;
  it('picks brotli, then gzip, as the browser accepts, and sends plain text otherwise', () => {
    const br = compressHtml(html, 'gzip, deflate, br, zstd');
    expect(br.encoding).toBe('br');
    expect(brotliDecompressSync(br.body as Buffer).toString()).toBe(html);
    const gz = compressHtml(html, 'gzip;q=1.0, br;q=0');
    expect(gz.encoding).toBe('gzip');
    expect(gunzipSync(gz.body as Buffer).toString()).toBe(html);
    expect(compressHtml(html, undefined)).toEqual({ body: html });
    expect(compressHtml(html, 'identity, deflate')).toEqual({ body: html });
  });
});
