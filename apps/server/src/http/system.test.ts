import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
const webDist = mkdtempSync(join(tmpdir(), 'cohort-web-'));
writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Cohort</title><div id="root"></div>');
// A hashed build asset with the compressed copies the web build writes beside it.
mkdirSync(join(webDist, 'assets'));
const script = 'console.log("cohort");'.repeat(100);
writeFileSync(join(webDist, 'assets/index-AbC123.js'), script);
writeFileSync(join(webDist, 'assets/index-AbC123.js.br'), brotliCompressSync(script));
writeFileSync(join(webDist, 'assets/index-AbC123.js.gz'), gzipSync(script));

beforeAll(async () => {
  t = await createTestApp({ env: { WEB_DIST: webDist } });
});
afterAll(() => t.close());

describe('content security policy', () => {
  const connectSrc = (csp: string) => csp.split(';').find((d) => d.trim().startsWith('connect-src')) ?? '';

  it('lets pages open websockets to this server only, never to any host', async () => {
    const res = await t.app.inject({ url: '/', headers: { host: 'cohort.example.org:8443' } });
    const directive = connectSrc(String(res.headers['content-security-policy']));
    expect(directive).toContain('wss://cohort.example.org:8443');
    expect(directive.split(/\s+/)).not.toContain('ws:');
    expect(directive.split(/\s+/)).not.toContain('wss:');
  });

  it('ignores a Host header that would inject directives', async () => {
    const res = await t.app.inject({ url: '/', headers: { host: "evil.test; script-src 'unsafe-inline'" } });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).not.toContain('evil.test');
    expect(csp).not.toContain("script-src 'unsafe-inline'");
  });
});

describe('operability', () => {
  it('reports liveness and database readiness', async () => {
    expect((await t.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ready' });
  });

  it('publishes an OpenAPI document of the routes and a docs page', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
    expect(doc.openapi).toMatch(/^3\./);
    for (const path of ['/api/signup', '/api/login', '/api/logout', '/api/me', '/api/contact']) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
    expect(doc.paths['/api/signup'].post.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['firstName', 'lastName', 'email', 'password']),
    );
    const page = await t.app.inject({ url: '/api/docs' });
    expect([200, 302]).toContain(page.statusCode);
  });
});

describe('single-page app hosting', () => {
  const clientRoutes = [
    '/',
    '/mesh',
    '/login',
    '/signup',
    '/canvas',
    '/pricing',
    '/task',
    '/video',
    '/videocall',
    '/workspace/create',
    '/dashboard',
    '/workspace/Acme',
    '/workspace/Acme/create-channel',
    '/workspace/Acme/channel/123',
    '/chat',
    '/livechat',
    '/profile',
    '/about',
    '/contact',
    '/workspace/abc/projects',
    '/tasks/42',
  ];
  it.each(clientRoutes)('serves the app for %s', async (url) => {
    const res = await t.app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('<div id="root">');
  });

  it('sends the precompressed copy of an asset to a browser that accepts it, cached for good', async () => {
    const url = '/assets/index-AbC123.js';
    const br = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);

    const gz = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');

    const plain = await t.app.inject({ url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    // The page itself must always be revalidated: it names the current assets.
    expect((await t.app.inject({ url: '/login' })).headers['cache-control']).toBe('no-cache');
  });

  it('sends the page compressed to a browser that accepts it (it carries the inlined styles)', async () => {
    const br = await t.app.inject({ url: '/workspace/Acme', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toContain('<div id="root">');
    const gz = await t.app.inject({ url: '/login', headers: { 'accept-encoding': 'gzip, br;q=0' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toContain('<div id="root">');
    const plain = await t.app.inject({ url: '/login' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('<div id="root">');
  });

  it('keeps unknown API paths as JSON 404s', async () => {
    const res = await t.app.inject({ url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Not found' });
    expect((await t.app.inject({ method: 'POST', url: '/anything', payload: {} })).statusCode).toBe(404);
  });
});
