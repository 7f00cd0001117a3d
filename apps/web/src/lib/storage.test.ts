import { beforeEach, describe, expect, it } from 'vitest';
import { channelOutboxKey } from '../features/channels/use-channel-chat.ts';
import { CHAT_STATE_KEY } from '../features/direct/chat-state.ts';
import { directOutboxKey } from '../features/direct/use-direct-chat.ts';
import { forgetUser, rememberUser, STORAGE_KEYS } from './storage.ts';

describe('signing out clears what the next person must not find', () => {
  beforeEach(() => localStorage.clear());

  it('removes unsent drafts of every conversation, the last chat and recent tasks; keeps preferences', () => {
    rememberUser({ email: 'ada@example.com', firstName: 'Ada', lastName: 'L' });
    localStorage.setItem(channelOutboxKey('u1', 'c1'), JSON.stringify([{ content: 'secret plan' }]));
    localStorage.setItem(directOutboxKey('u1', 'bob@example.com'), JSON.stringify([{ content: 'hi' }]));
    localStorage.setItem(CHAT_STATE_KEY, JSON.stringify({ with: 'bob@example.com' }));
    localStorage.setItem('recentTasks', '["t1"]');
    localStorage.setItem('taskboardTheme:ada@example.com', 'dark');

    forgetUser();

    expect(localStorage.getItem(STORAGE_KEYS.email)).toBeNull();
    expect(localStorage.getItem(channelOutboxKey('u1', 'c1'))).toBeNull();
    expect(localStorage.getItem(directOutboxKey('u1', 'bob@example.com'))).toBeNull();
    expect(localStorage.getItem(CHAT_STATE_KEY)).toBeNull();
    expect(localStorage.getItem('recentTasks')).toBeNull();
    expect(localStorage.getItem('taskboardTheme:ada@example.com')).toBe('dark');
  });
});
