import type { IceCandidate, SessionDescription } from '@cohort/shared/calls';

/**
 * The one-to-one call (SPEC §4 "Video call by e-mail") as a pure state machine:
 * idle → calling → in-call, idle → incoming → in-call, and back to idle on end, reject, remote end
 * or a dead connection. Mute flags exist only in a call, so every way back to idle clears them.
 */
export type CallState =
  | { phase: 'idle' }
  | { phase: 'calling'; peer: string }
  | { phase: 'incoming'; peer: string; offer: SessionDescription }
  | { phase: 'in-call'; peer: string; audioMuted: boolean; videoMuted: boolean };

export type CallEvent =
  /** The user pressed Call with a callee. */
  | { type: 'dial'; peer: string }
  /** `incoming-call` arrived. */
  | { type: 'ring'; peer: string; offer: SessionDescription }
  /** The callee pressed Accept. */
  | { type: 'accept' }
  /** The caller got `call-accepted` from its peer. */
  | { type: 'answered'; peer: string }
  | { type: 'toggle-audio' }
  | { type: 'toggle-video' }
  /** End call, reject, remote end, refusal, media failure or a dead connection. */
  | { type: 'end' };

export const IDLE: CallState = { phase: 'idle' };

const inCall = (peer: string): CallState => ({
  phase: 'in-call',
  peer,
  audioMuted: false,
  videoMuted: false,
});

/** The next state; an event that does not apply in the current state changes nothing. */
export function callReducer(state: CallState, event: CallEvent): CallState {
  switch (event.type) {
    case 'dial':
      return state.phase === 'idle' ? { phase: 'calling', peer: event.peer } : state;
    case 'ring':
      // Someone already in (or placing, or answering) a call does not start ringing again.
      return state.phase === 'idle' ? { phase: 'incoming', peer: event.peer, offer: event.offer } : state;
    case 'accept':
      return state.phase === 'incoming' ? inCall(state.peer) : state;
    case 'answered':
      return state.phase === 'calling' && same(state.peer, event.peer) ? inCall(state.peer) : state;
    case 'toggle-audio':
      return state.phase === 'in-call' ? { ...state, audioMuted: !state.audioMuted } : state;
    case 'toggle-video':
      return state.phase === 'in-call' ? { ...state, videoMuted: !state.videoMuted } : state;
    case 'end':
      return IDLE;
  }
}

export const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The peer of the current call (ringing, calling or connected), if any. */
export const peerOf = (state: CallState): string | null => (state.phase === 'idle' ? null : state.peer);

/**
 * Remote ICE candidates that arrive before the remote description is set (the caller trickles while
 * the callee still rings) are held here and applied right after it is set.
 */
export class PendingCandidates {
  private held: IceCandidate[] = [];

  /** Holds the candidate unless the connection can take it now; true when it should be applied. */
  offer(candidate: IceCandidate, remoteDescriptionSet: boolean): boolean {
    if (remoteDescriptionSet) return true;
    this.held.push(candidate);
    return false;
  }

  /** Everything held, in arrival order, and empties the queue. */
  drain(): IceCandidate[] {
    const out = this.held;
    this.held = [];
    return out;
  }

  clear() {
    this.held = [];
  }

  get size() {
    return this.held.length;
  }
}

/** Connection states that end a call (SPEC §4). */
export const isDeadConnection = (state: RTCPeerConnectionState) =>
  state === 'failed' || state === 'disconnected' || state === 'closed';
