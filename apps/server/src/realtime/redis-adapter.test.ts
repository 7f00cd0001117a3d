import { randomUUID } from 'node:crypto';
import { Server } from 'socket.io';
import { describe, expect, it } from 'vitest';
import type { AppContext } from '../context.ts';
import { attachAdapter } from './socket-server.ts';

/**
 * The Redis streams adapter sends pub/sub messages (fetchSockets, serverSideEmit) without awaiting
 * them. On a closed client each one rejected with nobody listening: an unhandled rejection, which ends
 * a Node process (CI caught one when a test node shut down while a participant was still leaving).
 */
describe.skipIf(!process.env.REDIS_URL)('the Redis adapter after its connection closed', () => {
  it('logs a failed publish instead of leaving it unhandled', async () => {
    const warned: string[] = [];
    const ctx = {
      config: { REDIS_URL: process.env.REDIS_URL, REDIS_STREAM: `cohort-test-${randomUUID()}` },
      log: { warn: (_: unknown, msg: string) => warned.push(msg), error: () => {} },
    } as unknown as AppContext;
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    // No HTTP server: only the adapter is under test.
    const io = new Server();
    try {
      const close = await attachAdapter(ctx, io);
      await close();
      io.of('/mesh').serverSideEmit('sync', { room: 'r' });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(unhandled).toEqual([]);
      expect(warned).toContain('redis publish failed');
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
