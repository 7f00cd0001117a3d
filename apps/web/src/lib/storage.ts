/**
 * The spec's local-storage keys. They are for display only: who is signed in is decided by the
 * server session (GET /api/me), never by what is stored here.
 */
export const STORAGE_KEYS = { email: 'email', userName: 'userName' } as const;

export function rememberUser(user: { email: string; firstName?: string; lastName?: string }) {
  try {
    localStorage.setItem(STORAGE_KEYS.email, user.email);
    const name = [user.firstName, user.lastName].filter(Boolean).join(' ');
    if (name) localStorage.setItem(STORAGE_KEYS.userName, name);
  } catch {
    // Storage can be unavailable (private mode, quotas); the app works without it.
  }
}

/**
 * What a signed-in person leaves in this browser that the next person must not find: unsent
 * messages (the outboxes `cohort.outbox.<userId>.…`), the last direct conversation, recent tasks, the
 * quick switcher's recent destinations and recent searches (`cohort.recent.<userId>.…`).
 */
const PERSONAL_KEYS = ['chatState', 'recentTasks'];
const PERSONAL_PREFIXES = ['cohort.outbox.', 'cohort.recent.'];

/** Signing out: the display keys and everything personal go. */
export function forgetUser() {
  try {
    const keys = Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i) ?? '');
    for (const key of keys) {
      if (PERSONAL_PREFIXES.some((p) => key.startsWith(p))) localStorage.removeItem(key);
    }
    for (const key of [STORAGE_KEYS.email, STORAGE_KEYS.userName, ...PERSONAL_KEYS]) {
      localStorage.removeItem(key);
    }
  } catch {
    // See rememberUser.
  }
}
