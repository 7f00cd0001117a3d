import type { SavedItem } from '@cohort/shared/saved';
import { describe, expect, it } from 'vitest';
import { savedItemPath } from './saved-page.tsx';

const base = {
  messageId: 'm1',
  savedAt: '2026-11-26T10:00:00.000Z',
  sender: { _id: 'u2', email: 'bob@example.com', name: 'Bob Builder' },
  content: 'hello',
  timestamp: '2026-11-26T09:00:00.000Z',
  seq: 42,
  parentId: null,
} satisfies Partial<SavedItem>;

describe('savedItemPath', () => {
  it('opens a channel message in its channel, loaded around its seq', () => {
    const item: SavedItem = {
      ...base,
      kind: 'channel',
      conversation: {
        kind: 'channel',
        workspaceId: 'w1',
        workspaceName: 'Acme & Co',
        channelId: 'c1',
        channelName: 'general',
      },
    };
    expect(savedItemPath(item)).toBe('/workspace/Acme%20%26%20Co/channel/c1?message=m1&seq=42');
  });

  it('opens a direct message in the conversation with the other person', () => {
    const item: SavedItem = {
      ...base,
      kind: 'direct',
      conversation: { kind: 'direct', email: 'bob+x@example.com', name: 'Bob Builder' },
    };
    expect(savedItemPath(item)).toBe('/chat?with=bob%2Bx%40example.com&message=m1&seq=42');
  });
});
