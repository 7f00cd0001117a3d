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

export function forgetUser() {
  try {
    localStorage.removeItem(STORAGE_KEYS.email);
    localStorage.removeItem(STORAGE_KEYS.userName);
  } catch {
    // See rememberUser.
  }
}
