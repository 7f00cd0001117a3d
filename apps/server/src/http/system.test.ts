import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
const webDist = mkdtempSync(join(tmpdir(), 'cohort-web-'));
writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Cohort</title><div id="root"></div>');

beforeAll(async () => {
  t = await createTestApp({ env: { WEB_DIST: webDist } });
});
afterAll(() => t.close());

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

  it('keeps unknown API paths as JSON 404s', async () => {
    const res = await t.app.inject({ url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Not found' });
    expect((await t.app.inject({ method: 'POST', url: '/anything', payload: {} })).statusCode).toBe(404);
  });
});
