import { useCallback, useRef, useState } from 'react';

/**
 * The message Up-arrow in an empty composer edits: the sender's newest one that is neither deleted
 * nor an announcement, among those the caller passes (a channel's flow, a thread's replies, a direct
 * conversation), in the order shown.
 */
export function lastEditableMessage<M extends { _id: string; deleted: boolean; kind?: string }>(
  messages: readonly M[],
  isOwn: (message: M) => boolean,
): M | undefined {
  return messages.findLast((m) => isOwn(m) && !m.deleted && m.kind !== 'system');
}

/** The address that opens a channel at a message (the form search hits use: `?message=&seq=`). */
export function messageLink(
  origin: string,
  workspaceName: string,
  channelId: string,
  message: { _id: string; seq: number },
): string {
  const path = `/workspace/${encodeURIComponent(workspaceName)}/channel/${encodeURIComponent(channelId)}`;
  return `${origin}${path}?message=${encodeURIComponent(message._id)}&seq=${message.seq}`;
}

/**
 * Which message is being edited in place (the menu's Edit, or Up-arrow in an empty composer). An
 * edit the composer started gives the focus back to that composer when it ends (saved or cancelled).
 */
export function useMessageEditing() {
  const [editing, setEditing] = useState<string | null>(null);
  const origin = useRef<HTMLElement | null>(null);
  const start = useCallback((id: string, from?: HTMLElement | null) => {
    origin.current = from ?? null;
    setEditing(id);
  }, []);
  const done = useCallback(() => {
    setEditing(null);
    const from = origin.current;
    origin.current = null;
    from?.focus();
  }, []);
  return { editing, start, done };
}
