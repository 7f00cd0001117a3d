import { CHAT_NAMESPACE } from '@cohort/shared/chat';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { baseUrl, eventually, openSocket } from '../features/chat/chat.test-helpers.ts';
import { MAX_SOCKETS_PER_USER, TOO_MANY_CONNECTIONS } from './socket-server.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ listen: true });
});
afterAll(() => t.close());

describe('sockets per user', () => {
  it('refuses the newest beyond the cap with a clear reason, and admits again once one closes', async () => {
    const url = baseUrl(t.app.server);
    const [user, other] = await Promise.all([createUser(t.app), createUser(t.app)]);
    const open: Socket[] = [];
    try {
      const first = await Promise.all(
        Array.from({ length: MAX_SOCKETS_PER_USER }, () => openSocket(url, CHAT_NAMESPACE, user.token)),
      );
      open.push(...first);
      const refused = await openSocket(url, CHAT_NAMESPACE, user.token).catch((err: Error) => err);
      expect(refused).toBeInstanceOf(Error);
      expect((refused as Error).message).toBe(TOO_MANY_CONNECTIONS);
      // Other people, and other namespaces of the same person, are not affected.
      open.push(await openSocket(url, CHAT_NAMESPACE, other.token));
      open.push(await openSocket(url, '/dm', user.token));
      // A closed tab frees its place.
      const closing = first[0]?.id ?? '';
      first[0]?.close();
      // Wait for the server to see the close (not a fixed delay).
      await eventually(() => !t.io.of(CHAT_NAMESPACE).sockets.has(closing));
      open.push(await openSocket(url, CHAT_NAMESPACE, user.token));
    } finally {
      for (const s of open) s.close();
    }
  });
});
