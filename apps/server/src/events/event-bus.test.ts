import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { MAIL_EVENTS } from '../features/mail/mail.subscriptions.ts';
import { EventBus } from './event-bus.ts';

/** The bus belongs to one app: two apps in one process share no events, and a closed app hears none. */

let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  [a, b] = await Promise.all([createTestApp(), createTestApp()]);
});
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
});

describe('event bus', () => {
  it('delivers an event to its own app only', async () => {
    const seenByA: unknown[] = [];
    const seenByB: unknown[] = [];
    const offA = a.ctx.bus.on('channelDeleted', (e) => {
      seenByA.push(e);
    });
    const offB = b.ctx.bus.on('channelDeleted', (e) => {
      seenByB.push(e);
    });
    try {
      await a.ctx.bus.emit('channelDeleted', { workspaceId: 'w', channelId: 'c' });
    } finally {
      offA();
      offB();
    }
    // The positive control: A's own subscriber heard it.
    expect(seenByA).toEqual([{ workspaceId: 'w', channelId: 'c' }]);
    expect(seenByB).toEqual([]);
  });

  it('logs a failing subscriber and still runs the others', async () => {
    const errors: unknown[] = [];
    const bus = new EventBus({ error: (o: unknown) => errors.push(o) } as never);
    const seen: string[] = [];
    bus.on('sessionRevoked', () => {
      throw new Error('boom');
    });
    bus.on('sessionRevoked', async () => {
      throw new Error('async boom');
    });
    bus.on('sessionRevoked', ({ sessionId }) => {
      seen.push(sessionId);
    });
    await bus.emit('sessionRevoked', { sessionId: 's1' });
    expect(seen).toEqual(['s1']);
    expect(errors).toHaveLength(2);
    await expect(bus.emitStrict('sessionRevoked', { sessionId: 's2' })).rejects.toThrow('boom');
  });

  it('has no subscribers left once its app is closed', async () => {
    const c = await createTestApp();
    // Membership subscribers (chat, calls, reads, tasks) and the notifications one are registered.
    expect(c.ctx.bus.count('memberRemoved')).toBeGreaterThan(0);
    expect(c.ctx.bus.count('messageCreated')).toBe(1);
    expect(c.ctx.bus.count('sessionRevoked')).toBe(1);
    // Mail queues on its events; invitations' notifications are written and pushed on theirs.
    for (const name of MAIL_EVENTS) expect(c.ctx.bus.count(name)).toBe(name === 'invitationsSent' ? 2 : 1);
    expect(c.ctx.bus.count('invitationsCommitted')).toBe(1);
    const bus = c.ctx.bus;
    await c.close();
    for (const name of [
      'memberRemoved',
      'workspaceDeleted',
      'channelDeleted',
      'messageCreated',
      'sessionRevoked',
      ...MAIL_EVENTS,
      'invitationsCommitted',
    ] as const) {
      expect(bus.count(name)).toBe(0);
    }
  });
});
