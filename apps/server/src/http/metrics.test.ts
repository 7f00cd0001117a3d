import { Writable } from 'node:stream';
import {
  CHAT_EVENTS,
  CHAT_NAMESPACE,
  type ChannelMessage,
  type DirectMessage,
  DM_EVENTS,
  DM_NAMESPACE,
  type SendChannelMessageAck,
  type SendDirectMessageAck,
} from '@cohort/shared/chat';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { baseUrl, newClientId, next, openSocket, request } from '../features/chat/chat.test-helpers.ts';
import { createChannel, createWorkspace, wsUrl } from '../features/workspaces/test-fixtures.ts';
import { UNMATCHED_ROUTE } from './metrics.ts';

const TOKEN = 'metrics-test-token-0123456789';

let t: TestApp;
let url: string;
let admin: TestUser;
let member: TestUser;
let ws: { _id: string; name: string };
let channel: { _id: string };
const sockets: Socket[] = [];
const logLines: string[] = [];
const capture = new Writable({
  write(chunk, _enc, done) {
    logLines.push(String(chunk));
    done();
  },
});

beforeAll(async () => {
  // The log is captured: the token must never be in it.
  t = await createTestApp({
    listen: true,
    env: { METRICS_TOKEN: TOKEN, LOG_LEVEL: 'info' },
    logStream: capture,
  });
  url = baseUrl(t.app.server);
  [admin, member] = await Promise.all([createUser(t.app), createUser(t.app)]);
  ws = await createWorkspace(t, admin, { members: [{ email: member.email, role: 'editor' }] });
  channel = await createChannel(t, admin, ws.name, {});
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.close();
});

const scrape = (headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) =>
  fetch(`${url}/metrics`, { headers });

/** Samples of the exposition text: `name{labels}` → value. */
async function samples() {
  const res = await scrape();
  expect(res.status).toBe(200);
  const out = new Map<string, number>();
  for (const line of (await res.text()).split('\n')) {
    const m = line.match(/^([a-zA-Z_:][\w:]*(?:\{.*\})?) (\S+)$/);
    if (m?.[1] && m[2]) out.set(m[1], Number(m[2]));
  }
  return out;
}
const value = (all: Map<string, number>, sample: string) => all.get(sample) ?? 0;

describe('GET /metrics', () => {
  it('answers 404, like any unknown path, when METRICS_TOKEN is not set', async () => {
    const off = await createTestApp();
    try {
      for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
        const res = await off.app.inject({ url: '/metrics', headers });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ message: 'Not found' });
      }
    } finally {
      await off.close();
    }
  });

  it('requires the bearer token: 401 without it, with a wrong one, another scheme or a session', async () => {
    for (const headers of [
      {},
      admin.auth,
      { authorization: 'Bearer wrong' },
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Basic ${TOKEN}` },
      { authorization: TOKEN },
    ]) {
      const res = await scrape(headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(await res.json()).toEqual({ message: 'A valid metrics token is required' });
    }
  });

  it('answers Prometheus text with the process, HTTP, socket, message and database metrics', async () => {
    const res = await scrape();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
      'cohort_http_request_duration_seconds',
      'cohort_socketio_connections',
      'cohort_messages_sent_total',
      'cohort_messages_delivered_total',
      'cohort_message_delivery_latency_seconds',
      'cohort_db_query_duration_seconds',
    ]) {
      expect(text, name).toContain(`# TYPE ${name} `);
    }
    // The pool exists on PostgreSQL only.
    const pool = [
      'cohort_db_pool_connections',
      'cohort_db_pool_idle_connections',
      'cohort_db_pool_waiting_requests',
    ];
    for (const name of pool) {
      if (t.database.kind === 'postgres') expect(text, name).toMatch(new RegExp(`^${name} \\d+$`, 'm'));
      else expect(text, name).not.toContain(name);
    }
  });

  it('labels requests with their route pattern and status, never the raw URL', async () => {
    const route =
      'cohort_http_request_duration_seconds_count{method="GET",route="/api/workspaces/:workspaceName/channels",status_code="200"}';
    const before = value(await samples(), route);
    const res = await fetch(`${url}${wsUrl(ws.name, '/channels')}`, { headers: admin.auth });
    expect(res.status).toBe(200);
    const unknown = await fetch(`${url}/api/no-such-thing/${ws.name}`);
    expect(unknown.status).toBe(404);
    const after = await samples();
    expect(value(after, route)).toBe(before + 1);
    expect(
      value(
        after,
        `cohort_http_request_duration_seconds_count{method="GET",route="${UNMATCHED_ROUTE}",status_code="404"}`,
      ),
    ).toBeGreaterThanOrEqual(1);
    expect([...after.keys()].filter((k) => k.includes(ws.name))).toEqual([]);
    // The scrapes themselves are requests too.
    expect(
      value(
        after,
        'cohort_http_request_duration_seconds_count{method="GET",route="/metrics",status_code="200"}',
      ),
    ).toBeGreaterThanOrEqual(1);
  });

  it('counts sockets per namespace, messages sent and delivered, their delivery latency and query time', async () => {
    const before = await samples();
    const [a, m] = await Promise.all([
      openSocket(url, CHAT_NAMESPACE, admin.token),
      openSocket(url, CHAT_NAMESPACE, member.token),
    ]);
    const [dm, adminDm] = await Promise.all([
      openSocket(url, DM_NAMESPACE, member.token),
      openSocket(url, DM_NAMESPACE, admin.token),
    ]);
    sockets.push(a, m, dm, adminDm);
    const during = await samples();
    const chatSockets = 'cohort_socketio_connections{namespace="/chat"}';
    expect(value(during, chatSockets)).toBe(value(before, chatSockets) + 2);
    expect(value(during, 'cohort_socketio_connections{namespace="/dm"}')).toBe(
      value(before, 'cohort_socketio_connections{namespace="/dm"}') + 2,
    );

    for (const s of [a, m]) {
      expect(
        await request(s, CHAT_EVENTS.joinChannel, { workspaceName: ws.name, channelId: channel._id }),
      ).toEqual({
        ok: true,
      });
    }
    const received = next<ChannelMessage>(m, CHAT_EVENTS.newMessage);
    const ack = await request<SendChannelMessageAck>(a, CHAT_EVENTS.sendMessage, {
      workspaceName: ws.name,
      channelId: channel._id,
      clientId: newClientId(),
      message: { content: 'counted' },
    });
    expect(ack.ok).toBe(true);
    await received;
    const dmReceived = next<DirectMessage>(dm, DM_EVENTS.newMessage);
    const dmAck = await request<SendDirectMessageAck>(adminDm, DM_EVENTS.sendMessage, {
      content: 'counted too',
      receiverEmail: member.email,
      clientId: newClientId(),
      messageType: 'text',
    });
    expect(dmAck.ok).toBe(true);
    await dmReceived;

    const after = await samples();
    for (const kind of ['channel', 'direct']) {
      const moved = (name: string) =>
        value(after, `${name}{kind="${kind}"}`) - value(before, `${name}{kind="${kind}"}`);
      expect(moved('cohort_messages_sent_total'), kind).toBe(1);
      // One emit to the conversation's room, however many sockets are in it.
      expect(moved('cohort_messages_delivered_total'), kind).toBe(1);
      expect(moved('cohort_message_delivery_latency_seconds_count'), kind).toBe(1);
    }
    expect(value(after, 'cohort_db_query_duration_seconds_count')).toBeGreaterThan(
      value(before, 'cohort_db_query_duration_seconds_count'),
    );
    expect(value(after, 'cohort_db_query_duration_seconds_sum')).toBeGreaterThan(
      value(before, 'cohort_db_query_duration_seconds_sum'),
    );
  });

  it('never logs the token, right or wrong', async () => {
    expect((await scrape()).status).toBe(200);
    expect((await scrape({ authorization: `Bearer ${TOKEN}-wrong` })).status).toBe(401);
    const log = logLines.join('');
    expect(log).toContain('/metrics');
    expect(log).not.toContain(TOKEN);
  });
});
