import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../src/http/session.ts';
import { createUser, type TestUser } from '../factories.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import {
  deeplyNested,
  FUZZ_RUNS,
  FUZZ_SEED,
  junkObject,
  junkValue,
  nastyStrings,
  pollutionBodies,
  rowCounts,
  uniformObject,
} from './fuzz-kit.ts';

/**
 * Property-based fuzzing of every HTTP API route the app registers (enumerated at runtime, so a
 * route added later is fuzzed without touching this file), as anonymous and as a workspace admin:
 * never a 5xx, always `{message}` on a 4xx, and a refused request changes no table.
 */

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t.app, { firstName: 'Fuzz', lastName: 'Admin' });
});
afterAll(() => t.close());

interface OpenApiOperation {
  parameters?: { in: string; name: string }[];
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
}

/** The API routes (docs UI and static files aside), with the field names their schemas declare. */
function apiRoutes() {
  const spec = t.app.swagger() as { paths?: Record<string, Record<string, OpenApiOperation>> };
  const seen = new Set<string>();
  return t.routes
    .filter((r) => r.method !== 'HEAD' && r.url.startsWith('/api/') && !r.url.startsWith('/api/docs'))
    .filter((r) => {
      const key = `${r.method} ${r.url}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .map((r) => {
      const op = spec.paths?.[r.url.replace(/:(\w+)/g, '{$1}')]?.[r.method.toLowerCase()];
      const params = [...r.url.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
      const query = (op?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      const bodyKeys = Object.keys(op?.requestBody?.content?.['application/json']?.schema?.properties ?? {});
      return {
        method: r.method as InjectOptions['method'],
        url: r.url,
        bodyLimit: r.bodyLimit,
        params,
        query,
        bodyKeys,
      };
    });
}

type Route = ReturnType<typeof apiRoutes>[number];

/**
 * A fresh session, workspace, channel, message, task list and task for each route: a route that
 * succeeds destructively (logout, delete) cannot starve the routes fuzzed after it.
 */
async function fixture(): Promise<{ auth: Record<string, string>; values: Record<string, string> }> {
  const token = await createSession(t.ctx, admin.id, false);
  const auth = { authorization: `Bearer ${token}` };
  const call = async (method: InjectOptions['method'], url: string, payload?: object) => {
    const res = await t.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });
    if (res.statusCode >= 300) throw new Error(`fixture ${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const ws = await call('POST', '/api/workspaces', {
    name: `fz-${randomUUID().slice(0, 8)}`,
    description: 'fuzz',
    members: [],
  });
  const channel = await call('POST', `/api/workspaces/${ws.name}/channels`, {
    name: 'fuzz',
    description: 'fuzz',
  });
  const message = await call('POST', `/api/workspaces/${ws.name}/channels/${channel._id}/messages`, {
    content: 'hello',
    clientId: randomUUID(),
  });
  const list = await call('POST', '/api/tasklists', { name: `Fuzz list ${ws.name}` });
  const task = await call('POST', '/api/tasks', { title: 'Fuzz task', taskListId: list._id ?? list.id });
  return {
    auth,
    values: {
      workspaceName: ws.name,
      workspaceId: ws._id,
      channelId: channel._id,
      messageId: message._id ?? message.message?._id ?? randomUUID(),
      userId: admin.id,
      email: admin.email,
      taskListId: list._id ?? list.id,
      id: task._id ?? task.id,
      emoji: '👍',
      label: 'bug',
    },
  };
}

const paramValue = (real: string | undefined) =>
  fc.oneof(
    ...(real ? [fc.constant(real), fc.constant(real)] : []),
    fc.constantFrom(...nastyStrings.filter((s) => s.length < 200 && s !== '')),
    fc.uuid(),
    fc.string({ minLength: 1, maxLength: 30 }),
  );

const queryString = (known: string[]) =>
  fc
    .array(
      fc.tuple(
        known.length > 0 ? fc.oneof(fc.constantFrom(...known), fc.string()) : fc.string(),
        fc.oneof(fc.constantFrom(...nastyStrings), fc.string(), fc.integer().map(String)),
      ),
      { maxLength: 4 },
    )
    .map((pairs) => pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&'));

/** One request: path with junk or real params, junk query, and (for writes) a junk JSON body. */
const requestFor = (route: Route, values: Record<string, string>) =>
  fc.record({
    params: fc.tuple(...route.params.map((p) => paramValue(values[p]))),
    query: queryString(route.query),
    body: fc.oneof(junkObject(route.bodyKeys), uniformObject(route.bodyKeys), junkValue),
  });

/** Lone surrogates cannot be percent-encoded: they go out as invalid UTF-8 escapes instead. */
function enc(value: string) {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ff%ED%A0%80';
  }
}

function urlOf(route: Route, params: string[], query: string) {
  let i = 0;
  const path = route.url.replace(/:(\w+)/g, () => enc(params[i++] ?? ''));
  return query ? `${path}?${query}` : path;
}

const hasBody = (method: InjectOptions['method']) => method !== 'GET' && method !== 'DELETE';

/** Row counts after the last refused request: nothing changed since, so they are reused as "before". */
let lastCounts: Record<string, number> | null = null;

/** Sends one request and asserts the invariants; returns the response for extra checks. */
async function expectInvariants(options: InjectOptions): Promise<LightMyRequestResponse> {
  if (!lastCounts) {
    // A success may finish writing after its answer (notifications); let it settle before measuring.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const before = lastCounts ?? (await rowCounts(t));
  // A distinct client address per request keeps the login limiter from turning every answer into 429.
  const res = await t.app.inject({
    ...options,
    remoteAddress: `198.51.100.${Math.floor(Math.random() * 250)}`,
  });
  const label = `${options.method} ${String(options.url).slice(0, 200)} → ${res.statusCode} ${res.body.slice(0, 300)}`;
  expect(res.statusCode, label).toBeLessThan(500);
  lastCounts = null;
  if (res.statusCode >= 400) {
    expect(res.headers['content-type'], label).toMatch(/application\/json/);
    expect(typeof res.json().message, label).toBe('string');
    const after = await rowCounts(t);
    expect(after, `a refused request changed rows: ${label}`).toEqual(before);
    lastCounts = after;
  }
  expect(({} as Record<string, unknown>).polluted, label).toBeUndefined();
  return res;
}

/** Fuzzes one route, asserting the invariants on every answer; returns the status codes seen. */
async function fuzzRoute(route: Route, identity: 'anonymous' | 'admin'): Promise<number[]> {
  const statuses: number[] = [];
  const check = async (options: InjectOptions) => {
    const res = await expectInvariants(options);
    statuses.push(res.statusCode);
    return res;
  };
  const { auth, values } = await fixture();
  lastCounts = null;
  const headers = identity === 'admin' ? auth : {};
  await fc.assert(
    fc.asyncProperty(requestFor(route, values), async ({ params, query, body }) => {
      const url = urlOf(route, params, query);
      await check({
        method: route.method,
        url,
        headers,
        ...(hasBody(route.method) ? { payload: body as object } : {}),
      });
    }),
    { numRuns: FUZZ_RUNS, seed: FUZZ_SEED, endOnFailure: true },
  );
  if (!hasBody(route.method)) return statuses;
  // Fixed hostile bodies, with real params so they reach the handler.
  const url = urlOf(
    route,
    route.params.map((p) => values[p] ?? 'x'),
    '',
  );
  const json = { ...headers, 'content-type': 'application/json' };
  const raw = [...deeplyNested(5_000), ...pollutionBodies, '', 'null', '"string"', '[1,2,3]', '{"a":1'];
  for (const payload of raw) await check({ method: route.method, url, headers: json, payload });
  await check({
    method: route.method,
    url,
    headers: json,
    payload: Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x80, 0x22, 0xc3]),
  });
  const plain = await check({
    method: route.method,
    url,
    headers: { ...headers, 'content-type': 'text/plain' },
    payload: '{"a":1}',
  });
  // What a cross-site HTML form can send is never accepted as a body.
  if (route.url !== '/api/files') expect([401, 403, 404, 415]).toContain(plain.statusCode);
  await check({
    method: route.method,
    url,
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'a=1&__proto__[polluted]=yes',
  });
  if (identity === 'admin') {
    const huge = await check({
      method: route.method,
      url,
      headers: json,
      payload: JSON.stringify({ [route.bodyKeys[0] ?? 'name']: 'x'.repeat(route.bodyLimit + 16) }),
    });
    expect(huge.statusCode, `${route.method} ${route.url} ${huge.body}`).toBe(413);
  }
  return statuses;
}

describe('HTTP fuzzing (fast-check) of every API route', () => {
  it('enumerates the routes the app registered', () => {
    const routes = apiRoutes();
    // Guards against a silent zero: if enumeration broke, every per-route case below would vanish.
    expect(routes.length).toBeGreaterThan(40);
    expect(routes.map((r) => `${r.method} ${r.url}`)).toContain('POST /api/workspaces');
  });

  // Each answer is also checked as it comes (expectInvariants: no 5xx, `{message}` on a 4xx, no rows
  // changed by a refusal); the test asserts that every route was really exercised and what came back.
  it('answers junk as anonymous with a 4xx {message} and no change', async () => {
    const routes = apiRoutes();
    const statuses: number[] = [];
    for (const route of routes) statuses.push(...(await fuzzRoute(route, 'anonymous')));
    expect(statuses.length).toBeGreaterThanOrEqual(routes.length * FUZZ_RUNS);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses).toContain(401);
  }, 240_000);

  it('answers junk as a workspace admin without a 5xx, and refusals change nothing', async () => {
    const routes = apiRoutes();
    const statuses: number[] = [];
    for (const route of routes) statuses.push(...(await fuzzRoute(route, 'admin')));
    expect(statuses.length).toBeGreaterThanOrEqual(routes.length * FUZZ_RUNS);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    // Past authentication: the handlers' own refusals (validation, body size) answered.
    expect(statuses).toEqual(expect.arrayContaining([400, 413]));
  }, 240_000);
});
