import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.ts';
import { createTestApp, nothingToDeliver, type TestApp } from '../../../test/test-app.ts';
import { channels } from '../../db/schema.ts';
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
  it('looks the channel up once for as long as it lives, and again only after a refusal', async () => {
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
      await expect.poll(() => nothingToDeliver(t.ctx.db)).toBe(true);
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
    // People send minutes apart: each send still goes straight to the guarded insert.
    for (const gap of [31_000, 10 * 60_000, 24 * 3600_000]) {
      vi.setSystemTime(Date.now() + gap);
      expect(await send()).toBe(cached);
    }
    // The remembered channel is archived: the insert refuses, and a fresh lookup says why (409).
    const setArchived = (at: Date | null) =>
      t.ctx.db.update(channels).set({ archivedAt: at }).where(eq(channels.id, channel._id));
    await setArchived(new Date());
    await expect(send()).rejects.toMatchObject({ statusCode: 409 });
    await setArchived(null);
    // Forgotten after the refusal: looked up again, then remembered again.
    expect(await send()).toBe(first);
    expect(await send()).toBe(cached);
  });
});
