/**
 * SPEC §3 "Browser storage keys": `chatState` holds the pair of a direct chat, `{myEmail,
 * recipientEmail}`, and nothing else, so a reload reopens the same conversation. It is display state
 * only: who is signed in is the server session's business.
 */

export const CHAT_STATE_KEY = 'chatState';

export interface ChatState {
  myEmail: string;
  recipientEmail: string;
}

export function readChatState(): ChatState | null {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(CHAT_STATE_KEY) ?? 'null');
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { myEmail, recipientEmail } = parsed as Record<string, unknown>;
    if (typeof myEmail !== 'string' || typeof recipientEmail !== 'string') return null;
    if (!myEmail || !recipientEmail) return null;
    return { myEmail, recipientEmail };
  } catch {
    return null;
  }
}

export function saveChatState(state: ChatState): void {
  try {
    localStorage.setItem(
      CHAT_STATE_KEY,
      JSON.stringify({ myEmail: state.myEmail, recipientEmail: state.recipientEmail }),
    );
  } catch {
    // Without storage the chat still works; it just is not restored after a reload.
  }
}

export function clearChatState(): void {
  try {
    localStorage.removeItem(CHAT_STATE_KEY);
  } catch {
    // See saveChatState.
  }
}
