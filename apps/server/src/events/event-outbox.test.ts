import { randomUUID } from 'node:crypto';
import { mentionMarkup } from '@cohort/shared/notifications';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import type { Db } from '../db/client.ts';
import * as schema from '../db/schema.ts';
import { eventOutbox } from '../db/schema.ts';
import { emitMessageCreated } from '../features/chat/chat.events.ts';
import { postChannelMessage } from '../features/chat/chat.service.ts';
import { storeDirectMessage } from '../features/direct/direct.service.ts';
import { client, createChannel, createWorkspace, wsUrl } from '../features/workspaces/test-fixtures.ts';

/** A message's notification survives its node dying between the commit and the publish. */

let t: TestApp;
let ann: TestUser;
let bob: TestUser;
let ws: { _id: string; name: string };
let channel: { _id: string };
beforeAll(async () => {
  // No polling: the test drains by hand.
  t = await createTestApp({ outbox: { pollMs: 0 } });
  [ann, bob] = await Promise.all([createUser(t.app), createUser(t.app)]);
  ws = await createWorkspace(t, ann, { members: [{ email: bob.email, role: 'editor' }] });
  channel = await createChannel(t, ann, ws.name, {});
});
afterAll(() => t.close());

async function notificationsOf(user: TestUser, word: string) {
  const res = await client(t).get('/api/notifications?limit=100', user);
  expect(res.statusCode).toBe(200);
  return (res.json() as { notifications: { kind: string; text: string }[] }).notifications.filter((n) =>
    n.text.includes(word),
  );
}

const pending = async () =>
  Number(
    (
      (await t.ctx.db.execute(sql`select count(*)::int as n from ${eventOutbox}`)) as unknown as {
        rows: { n: number }[];
      }
    ).rows[0]?.n,
  );

describe('event outbox', () => {
  it('delivers a committed message whose publish never ran, once, when a drainer finds it', async () => {
    const word = randomUUID().slice(0, 8);
    // The service commits the message and its outbox row; the publish that follows (in the route or
    // socket handler) never runs, as if the node died right after the commit.
    const stored = await storeDirectMessage(
      t.ctx,
      { id: ann.id, email: ann.email },
      { id: bob.id, email: bob.email },
      { clientId: randomUUID(), content: `lost ${word}` },
    );
    expect(stored?.created).toBe(true);
    expect(await notificationsOf(bob, word)).toEqual([]);
    expect(await pending()).toBe(1);

    // Fresh rows are left to the node that wrote them; an orphan is picked up once old enough.
    expect(await t.outbox.drain()).toBe(0);
    t.advance(11_000);
    expect(await t.outbox.drain()).toBe(1);
    expect((await notificationsOf(bob, word)).map((n) => n.kind)).toEqual(['direct']);
    expect(await pending()).toBe(0);
    expect(await t.outbox.drain()).toBe(0);
    expect(await notificationsOf(bob, word)).toHaveLength(1);
  });

  it('delivers at once after commit on the normal path, leaving no row behind', async () => {
    const word = randomUUID().slice(0, 8);
    const res = await client(t).post(wsUrl(ws.name, `/channels/${channel._id}/messages`), ann, {
      clientId: randomUUID(),
      content: `hi ${mentionMarkup('Bob', bob.email)} ${word}`,
    });
    expect(res.statusCode).toBe(201);
    expect((await notificationsOf(bob, word)).map((n) => n.kind)).toEqual(['mention']);
    expect(await pending()).toBe(0);
  });

  describe('the cost of a stored message', () => {
    const post = (content: string) =>
      postChannelMessage(
        t.ctx,
        { id: ann.id, email: ann.email, firstName: 'Ann', lastName: 'T' },
        { channelId: channel._id, workspaceId: ws._id },
        { clientId: randomUUID(), content },
      );
    /** Statements the database ran while `run` ran. */
    async function statementsOf(run: () => Promise<unknown>) {
      let n = 0;
      const stop = t.database.timeQueries(() => n++);
      try {
        await run();
      } finally {
        stop();
      }
      return n;
    }

    it('is one statement for a message that notifies nobody, with no outbox row', async () => {
      expect(await statementsOf(() => post(`plain ${randomUUID()}`))).toBe(1);
      expect(await pending()).toBe(0);
    });

    it('is one statement for a mention too: its outbox row is written by the same statement, born claimed', async () => {
      const word = randomUUID().slice(0, 8);
      let stored: Awaited<ReturnType<typeof post>> = null;
      const statements = await statementsOf(async () => {
        stored = await post(`hi ${mentionMarkup('Bob', bob.email)} ${word}`);
      });
      expect(statements).toBe(1);
      expect(await pending()).toBe(1);
      // The writer's claim keeps other nodes' drainers off it while the writer publishes it.
      expect(await t.outbox.drain()).toBe(0);
      if (!stored) throw new Error('the mention was not stored');
      const { message } = stored as NonNullable<Awaited<ReturnType<typeof post>>>;
      await emitMessageCreated(t.ctx, {
        kind: 'channel',
        messageId: message.id,
        workspaceId: ws._id,
        channelId: channel._id,
        parentId: null,
        senderId: ann.id,
        content: message.content,
      });
      expect(await pending()).toBe(0);
      expect((await notificationsOf(bob, word)).map((n) => n.kind)).toEqual(['mention']);
    });

    // Planning the statement cost PostgreSQL as much as running it (docs/performance.md, "Session 20").
    it.skipIf(process.env.COHORT_TEST_DB !== 'postgres')(
      'is planned once per connection on PostgreSQL: the message statements are prepared',
      async () => {
        // One connection of the pool, so that its prepared statements can be read back.
        const connection = await (t.database.db as unknown as { $client: pg.Pool }).$client.connect();
        try {
          const ctx = { ...t.ctx, db: drizzle({ client: connection, schema }) as unknown as Db };
          // Runs of each prepared statement on this connection (earlier tests may have used it too).
          const runs = async () => {
            const { rows } = await connection.query<{ name: string; runs: string }>(
              `select name, generic_plans + custom_plans as runs from pg_prepared_statements
               where name like '%message%'`,
            );
            return new Map(rows.map((r) => [r.name, Number(r.runs)]));
          };
          const before = await runs();
          const target = { channelId: channel._id, workspaceId: ws._id };
          const sender = { id: ann.id, email: ann.email, firstName: 'Ann', lastName: 'T' };
          for (const content of ['one', 'two', `hi ${mentionMarkup('Bob', bob.email)}`, 'three']) {
            expect(
              await postChannelMessage(ctx, sender, target, { clientId: randomUUID(), content }),
            ).not.toBeNull();
          }
          const party = (u: TestUser) => ({ id: u.id, email: u.email });
          await storeDirectMessage(ctx, party(ann), party(bob), { clientId: randomUUID(), content: 'dm' });
          const after = await runs();
          const added = (name: string) => (after.get(name) ?? 0) - (before.get(name) ?? 0);
          expect(added('post_channel_message')).toBe(3);
          expect(added('post_channel_message_notifying')).toBe(1);
          expect(added('store_direct_message')).toBe(1);
        } finally {
          connection.release();
        }
      },
    );
  });
});
