import { CALL_REASONS, type CallAck } from '@cohort/shared/calls';

/** Waits between tries to have the server name our feed: about half a minute in all. */
export const NAME_RETRY_DELAYS_MS = [1000, 2000, 3000, 4000, 5000, 5000, 5000, 5000];

/**
 * Asks the server to name our Janus feed to the room (`sfu-joined`) until it does. Nobody receives
 * an unnamed feed, so a refusal that may pass (`slow down`, no answer, Janus busy) is tried again,
 * and running out of tries is a lost call, never a silent one nobody sees. `forbidden` means our
 * access ended: `room-closed` explains that.
 */
export function nameFeed(
  ask: () => Promise<CallAck>,
  live: () => boolean,
  giveUp: () => void,
  delays: readonly number[] = NAME_RETRY_DELAYS_MS,
) {
  const attempt = async (tried: number) => {
    const ack = await ask();
    if (ack.ok || !live()) return;
    console.error('sfu-joined refused', ack.reason);
    if (ack.reason === CALL_REASONS.forbidden) return;
    const delay = delays[tried];
    if (delay === undefined) return giveUp();
    setTimeout(() => {
      if (live()) void attempt(tried + 1);
    }, delay);
  };
  void attempt(0);
}
