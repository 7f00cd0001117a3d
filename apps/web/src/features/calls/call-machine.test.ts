import { describe, expect, it } from 'vitest';
import { type CallState, callReducer, IDLE, isDeadConnection, PendingCandidates } from './call-machine.ts';

const OFFER = { type: 'offer' as const, sdp: 'v=0' };
const run = (...events: Parameters<typeof callReducer>[1][]) => events.reduce(callReducer, IDLE);

describe('callReducer', () => {
  it('caller: idle → calling → in-call when the callee answers', () => {
    const calling = run({ type: 'dial', peer: 'bob@example.com' });
    expect(calling).toEqual({ phase: 'calling', peer: 'bob@example.com' });
    expect(callReducer(calling, { type: 'answered', peer: 'BOB@example.com' })).toEqual({
      phase: 'in-call',
      peer: 'bob@example.com',
      audioMuted: false,
      videoMuted: false,
    });
  });

  it('an answer from someone else does not connect the call', () => {
    const calling = run({ type: 'dial', peer: 'bob@example.com' });
    expect(callReducer(calling, { type: 'answered', peer: 'eve@example.com' })).toBe(calling);
  });

  it('callee: idle → incoming → in-call on accept, idle on reject', () => {
    const ringing = run({ type: 'ring', peer: 'ada@example.com', offer: OFFER });
    expect(ringing).toEqual({ phase: 'incoming', peer: 'ada@example.com', offer: OFFER });
    expect(callReducer(ringing, { type: 'accept' }).phase).toBe('in-call');
    expect(callReducer(ringing, { type: 'end' })).toEqual(IDLE);
  });

  it('does not ring or dial again while a call is under way', () => {
    const states: CallState[] = [
      run({ type: 'dial', peer: 'bob@example.com' }),
      run({ type: 'ring', peer: 'ada@example.com', offer: OFFER }),
      run({ type: 'ring', peer: 'ada@example.com', offer: OFFER }, { type: 'accept' }),
    ];
    for (const state of states) {
      expect(callReducer(state, { type: 'ring', peer: 'eve@example.com', offer: OFFER })).toBe(state);
      expect(callReducer(state, { type: 'dial', peer: 'eve@example.com' })).toBe(state);
    }
  });

  it('accept and answered only apply to their own phase', () => {
    expect(run({ type: 'accept' })).toEqual(IDLE);
    expect(run({ type: 'answered', peer: 'bob@example.com' })).toEqual(IDLE);
    const calling = run({ type: 'dial', peer: 'bob@example.com' });
    expect(callReducer(calling, { type: 'accept' })).toBe(calling);
  });

  it('audio and video mute toggle independently, only in a call', () => {
    const inCall = run(
      { type: 'dial', peer: 'bob@example.com' },
      { type: 'answered', peer: 'bob@example.com' },
    );
    const audioOff = callReducer(inCall, { type: 'toggle-audio' });
    expect(audioOff).toMatchObject({ audioMuted: true, videoMuted: false });
    const bothOff = callReducer(audioOff, { type: 'toggle-video' });
    expect(bothOff).toMatchObject({ audioMuted: true, videoMuted: true });
    expect(callReducer(bothOff, { type: 'toggle-audio' })).toMatchObject({
      audioMuted: false,
      videoMuted: true,
    });
    const calling = run({ type: 'dial', peer: 'bob@example.com' });
    expect(callReducer(calling, { type: 'toggle-audio' })).toBe(calling);
  });

  it('ending clears the peer and the mute flags from every phase', () => {
    const muted = run(
      { type: 'ring', peer: 'ada@example.com', offer: OFFER },
      { type: 'accept' },
      { type: 'toggle-audio' },
      { type: 'toggle-video' },
    );
    const after = callReducer(muted, { type: 'end' });
    expect(after).toEqual(IDLE);
    // A new call starts unmuted.
    expect(
      callReducer(callReducer(after, { type: 'dial', peer: 'x@example.com' }), {
        type: 'answered',
        peer: 'x@example.com',
      }),
    ).toMatchObject({
      audioMuted: false,
      videoMuted: false,
    });
  });
});

describe('PendingCandidates', () => {
  const c = (n: number) => ({ candidate: `candidate:${n}`, sdpMid: '0', sdpMLineIndex: 0 });

  it('holds candidates until the remote description is set, then gives them back in order', () => {
    const pending = new PendingCandidates();
    expect(pending.offer(c(1), false)).toBe(false);
    expect(pending.offer(c(2), false)).toBe(false);
    expect(pending.size).toBe(2);
    expect(pending.offer(c(3), true)).toBe(true);
    expect(pending.drain()).toEqual([c(1), c(2)]);
    expect(pending.drain()).toEqual([]);
  });

  it('clear forgets what was held', () => {
    const pending = new PendingCandidates();
    pending.offer(c(1), false);
    pending.clear();
    expect(pending.size).toBe(0);
    expect(pending.drain()).toEqual([]);
  });
});

describe('isDeadConnection', () => {
  it('failed, disconnected and closed end the call; the others do not', () => {
    expect(
      ['failed', 'disconnected', 'closed'].every((s) => isDeadConnection(s as RTCPeerConnectionState)),
    ).toBe(true);
    expect(
      ['new', 'connecting', 'connected'].some((s) => isDeadConnection(s as RTCPeerConnectionState)),
    ).toBe(false);
  });
});
