import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ConversationSource, StoredMessage } from '../../lib/conversation-store.ts';
import { openedSockets } from '../../test/fake-socket.ts';
import { useConversation } from './use-conversation.ts';

vi.mock('../../lib/socket.ts', async (importOriginal) => {
  const { fakeConnectNamespace } = await import('../../test/fake-socket.ts');
  return { ...(await importOriginal<object>()), connectNamespace: fakeConnectNamespace };
});

function source(): ConversationSource<StoredMessage> {
  return {
    latest: async () => [],
    after: async () => [],
    before: async () => [],
    changes: async () => [],
    send: () => new Promise(() => {}),
    isConnected: () => false,
  };
}

describe('useConversation', () => {
  it('keeps what is sent before the live client has arrived and hands it to the store in order', async () => {
    const { result } = renderHook(() =>
      useConversation('one', () => ({
        namespace: '/chat',
        source,
        options: {},
        wire: () => ({ extra: null }),
      })),
    );
    // The live client (socket.io-client and the schemas) is still loading: no store yet.
    expect(result.current.live).toBeNull();
    act(() => {
      result.current.send('first');
      result.current.send('second');
    });
    await waitFor(() => expect(result.current.live).not.toBeNull());
    expect(openedSockets.at(-1)?.namespace).toBe('/chat');
    expect(result.current.state.outbox.map((entry) => entry.content)).toEqual(['first', 'second']);
  });
});
