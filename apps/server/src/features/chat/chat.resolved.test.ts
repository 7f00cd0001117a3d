import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { createChannel, createWorkspace } from '../workspaces/test-fixtures.ts';
import { type ChannelPublisher, sendChannelMessage } from './chat.actions.ts';
import { ResolvedChannels } from './chat.policy.ts';

/** What a socket remembers of the channels it sends to (chat.policy.ts), measured in statements. */

let t: TestApp;
let ann: TestUser;
let ws: { _id: string; name: string };
let channel: { _id: string };
beforeAll(async () => {
  t = await createTestApp();
  ann = await createUser(t.app);
  ws = await createWorkspace(t, ann, {});
  channel = await createChannel(t, ann, ws.name, {});
});
afterAll(() => t.close());
afterEach(() => vi.useRealTimers());

const publisher: ChannelPublisher = {
  announceCreated: async () => {},
  announceUpdate: () => {},
  announcePins: () => {},
};

describe('a socket sending to one channel', () => {
  it('looks the channel up once while it keeps sending, and again after 30 s without a send', async () => {
    const user = {
      id: ann.id,
      email: ann.email,
      firstName: 'Ann',
      lastName: 'T',
      sessionId: randomUUID(),
      emailVerified: true,
      twoFactorEnabled: false,
    };
    const resolved = new ResolvedChannels();
    const send = async () => {
      let statements = 0;
      const stop = t.database.timeQueries(() => statements++);
      try {
        await sendChannelMessage(
          t.ctx,
          publisher,
          user,
          { workspaceName: ws.name, channelId: channel._id },
          { clientId: randomUUID(), content: `hello ${randomUUID()}` },
          { resolved },
        );
      } finally {
        stop();
      }
      return statements;
    };
    vi.useFakeTimers({ toFake: ['Date'] });
    const first = await send();
    const cached = await send();
    expect(cached).toBeLessThan(first);
    // A send every 20 s: each one keeps the channel remembered, so none looks it up again.
    for (let i = 0; i < 3; i++) {
      vi.setSystemTime(Date.now() + 20_000);
      expect(await send()).toBe(cached);
    }
    // 30 s without a send: looked up again.
    vi.setSystemTime(Date.now() + 31_000);
    expect(await send()).toBe(first);
  });
});
