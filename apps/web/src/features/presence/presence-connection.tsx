import { usePresenceConnection } from './use-presence.ts';

/** Renders nothing: keeps this tab's `/presence` connection open while a user is signed in. */
export function PresenceConnection({ userId }: { userId: string }) {
  usePresenceConnection(userId);
  return null;
}
