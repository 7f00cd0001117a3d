import {
  CALL_REASONS,
  type IceCandidate,
  iceCandidate,
  incomingCallPayload,
  sessionDescription,
  VIDEO_EVENTS,
  VIDEO_NAMESPACE,
} from '@cohort/shared/calls';
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import type { Socket } from 'socket.io-client';
import { z } from 'zod';
import { connectNamespace } from '../../lib/socket.ts';
import { currentCallClient } from './call-client.ts';
import {
  type CallEvent,
  type CallState,
  callReducer,
  IDLE,
  isDeadConnection,
  PendingCandidates,
  peerOf,
  same,
} from './call-machine.ts';
import type { Notice } from './call-notice.tsx';
import {
  emitAck,
  fetchIceServers,
  MEDIA_FAILED,
  openCamera,
  peerConfig,
  ScreenShare,
  startRinging,
  stopStream,
  videoSenders,
} from './media.ts';

export const BLANK_CALLEE = 'Please enter a user ID to call';

export interface VideoCallView {
  call: CallState;
  /** What the local tile shows: the camera, or the screen while sharing. */
  local: MediaStream | null;
  remote: MediaStream | null;
  /** The peer connection's state, `none` without one. */
  connection: RTCPeerConnectionState | 'none';
  /** Whether the tracks the peer connection sends are enabled (what mute really changes). */
  sending: { audio: boolean | null; video: boolean | null };
  sharing: boolean;
  notice: Notice | null;
  /** The caller's display name while a call rings here (the e-mail is `call.peer`). */
  peerName: string | null;
  /** Whether this tab is playing the ringtone. */
  ringing: boolean;
}

export const INITIAL: VideoCallView = {
  peerName: null,
  ringing: false,
  call: IDLE,
  local: null,
  remote: null,
  connection: 'none',
  sending: { audio: null, video: null },
  sharing: false,
  notice: null,
};

const fromPayload = z.object({ from: z.string() });
const callAccepted = fromPayload.extend({ answer: sessionDescription });
const remoteCandidate = fromPayload.extend({ candidate: iceCandidate });

const refusal = (peer: string, reason: string) => {
  if (reason === CALL_REASONS.busy) return `${peer} is busy in another call`;
  if (reason === CALL_REASONS.unavailable) return `${peer} is not available`;
  return `The call could not be placed (${reason})`;
};

const plain = (d: RTCSessionDescriptionInit) => ({ type: d.type, sdp: d.sdp ?? '' });

/**
 * One browser tab's side of `/video` calls (SPEC §4 "Video call by e-mail"): the pure state machine
 * of call-machine.ts plus the peer connection, media and signalling it drives. Every way out of a
 * call goes through `teardown`, which stops the tracks, closes the connection and clears the flags
 * and queued candidates; a `session` counter makes async steps of an ended call give up.
 */
export class VideoCall {
  private view: VideoCallView = INITIAL;
  private readonly listeners = new Set<() => void>();
  private pc: RTCPeerConnection | null = null;
  private camera: MediaStream | null = null;
  private readonly pending = new PendingCandidates();
  /** Local candidates gathered before the server knows about the call (initiate/accept not yet acknowledged). */
  private outbox: IceCandidate[] = [];
  private signalled = false;
  private session = 0;
  private stopRinging: (() => void) | null = null;
  private readonly screen = new ScreenShare(
    () => (this.pc ? videoSenders([this.pc]) : []),
    () => this.camera?.getVideoTracks()[0],
    (display) => this.update({ sharing: display !== null, local: display ?? this.camera }),
  );

  constructor(readonly socket: Socket) {
    socket.on(VIDEO_EVENTS.incomingCall, (raw: unknown) => {
      const msg = incomingCallPayload.safeParse(raw);
      if (!msg.success || this.view.call.phase !== 'idle') return;
      this.dispatch({ type: 'ring', peer: msg.data.from, offer: msg.data.offer });
      this.update({ notice: null, peerName: msg.data.name || null, ringing: true });
      this.stopRinging = startRinging();
    });
    // Accepted in another tab of ours: this one stops ringing.
    socket.on(VIDEO_EVENTS.answeredElsewhere, (raw: unknown) => {
      const msg = fromPayload.safeParse(raw);
      if (!msg.success || this.view.call.phase !== 'incoming' || !this.isPeer(msg.data.from)) return;
      this.teardown({ kind: 'info', text: 'Answered in another tab' });
    });
    // Nobody answered in time: "No answer" for the caller, a missed call for the callee.
    socket.on(VIDEO_EVENTS.callUnanswered, (raw: unknown) => {
      const msg = fromPayload.safeParse(raw);
      if (!msg.success || this.view.call.phase !== 'calling' || !this.isPeer(msg.data.from)) return;
      this.teardown({ kind: 'info', text: 'No answer' });
    });
    socket.on(VIDEO_EVENTS.callMissed, (raw: unknown) => {
      const msg = fromPayload.safeParse(raw);
      if (!msg.success || this.view.call.phase !== 'incoming' || !this.isPeer(msg.data.from)) return;
      const who = this.view.peerName ?? msg.data.from;
      this.teardown({ kind: 'info', text: `Missed call from ${who}` });
    });
    socket.on(VIDEO_EVENTS.callAccepted, (raw: unknown) => void this.onAccepted(raw));
    socket.on(VIDEO_EVENTS.candidate, (raw: unknown) => void this.onCandidate(raw));
    socket.on(VIDEO_EVENTS.callRejected, (raw: unknown) => {
      const msg = fromPayload.safeParse(raw);
      if (!msg.success || !this.isPeer(msg.data.from)) return;
      this.teardown({ kind: 'info', text: `${msg.data.from} rejected the call` });
    });
    socket.on(VIDEO_EVENTS.callEnded, (raw: unknown) => {
      const msg = fromPayload.safeParse(raw);
      if (!msg.success || !this.isPeer(msg.data.from)) return;
      this.teardown({ kind: 'info', text: 'Call ended' });
    });
    // The server ends the call when this socket goes; so does the page.
    socket.on('disconnect', () => {
      if (this.view.call.phase !== 'idle')
        this.teardown({ kind: 'error', text: 'Call ended: connection lost' });
    });
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getView = () => this.view;

  async call(input: string) {
    const peer = input.trim();
    if (!peer) return this.update({ notice: { kind: 'error', text: BLANK_CALLEE } });
    if (this.view.call.phase !== 'idle') return;
    this.dispatch({ type: 'dial', peer });
    this.update({ notice: null });
    const session = this.session;
    try {
      const pc = await this.prepare(session);
      if (!pc) return;
      const offer = await pc.createOffer();
      await pc.setLocalDescription(offer);
      if (session !== this.session) return;
      const ack = await emitAck(this.socket, VIDEO_EVENTS.initiateCall, {
        toEmail: peer,
        offer: plain(offer),
      });
      if (session !== this.session) return;
      if (!ack.ok) return this.teardown({ kind: 'error', text: refusal(peer, ack.reason) });
      this.flushOutbox();
    } catch (err) {
      this.fail(session, err);
    }
  }

  async accept() {
    const state = this.view.call;
    if (state.phase !== 'incoming') return;
    this.silence();
    this.dispatch({ type: 'accept' });
    const session = this.session;
    try {
      const pc = await this.prepare(session);
      if (!pc) return;
      await pc.setRemoteDescription(state.offer);
      await this.applyPending(pc);
      const answer = await pc.createAnswer();
      await pc.setLocalDescription(answer);
      if (session !== this.session) return;
      const ack = await emitAck(this.socket, VIDEO_EVENTS.acceptCall, {
        to: state.peer,
        answer: plain(answer),
      });
      if (session !== this.session) return;
      if (!ack.ok) return this.teardown({ kind: 'error', text: 'The call is no longer available' });
      this.flushOutbox();
    } catch (err) {
      this.fail(session, err);
    }
  }

  reject() {
    const state = this.view.call;
    if (state.phase !== 'incoming') return;
    this.socket.emit(VIDEO_EVENTS.rejectCall, { to: state.peer });
    this.teardown(null);
  }

  /** End call (also cancels a call that is still ringing at the other side). */
  hangUp() {
    const peer = peerOf(this.view.call);
    if (!peer) return;
    if (this.view.call.phase === 'incoming') return this.reject();
    this.socket.emit(VIDEO_EVENTS.endCall, { to: peer });
    this.teardown({ kind: 'info', text: 'Call ended' });
  }

  toggleAudio() {
    this.dispatch({ type: 'toggle-audio' });
    this.applyMute();
  }

  toggleVideo() {
    this.dispatch({ type: 'toggle-video' });
    this.applyMute();
  }

  async toggleScreenShare() {
    if (!this.pc) return;
    try {
      if (this.screen.active) await this.screen.stop();
      else await this.screen.start();
      this.applyMute();
    } catch {
      // The user cancelled the picker (or the browser refused): the camera stays.
    }
  }

  dismissNotice() {
    this.update({ notice: null });
  }

  dispose() {
    const peer = peerOf(this.view.call);
    if (peer && this.socket.connected) {
      this.socket.emit(this.view.call.phase === 'incoming' ? VIDEO_EVENTS.rejectCall : VIDEO_EVENTS.endCall, {
        to: peer,
      });
    }
    this.teardown(null);
    this.socket.disconnect();
  }

  // --- internals -------------------------------------------------------------------------------

  /** Camera, ICE servers and the peer connection; null when the call ended meanwhile. */
  private async prepare(session: number): Promise<RTCPeerConnection | null> {
    let camera: MediaStream;
    try {
      camera = await openCamera();
    } catch {
      if (session === this.session) {
        const peer = peerOf(this.view.call);
        // A callee who cannot answer frees the caller at once.
        if (peer && this.view.call.phase === 'in-call' && !this.signalled) {
          this.socket.emit(VIDEO_EVENTS.rejectCall, { to: peer });
        }
        this.teardown({ kind: 'error', text: MEDIA_FAILED });
      }
      return null;
    }
    if (session !== this.session) {
      stopStream(camera);
      return null;
    }
    this.camera = camera;
    this.update({ local: camera });
    let iceServers: RTCIceServer[] = [];
    try {
      iceServers = await fetchIceServers();
    } catch (err) {
      // Without STUN/TURN a call still connects on the same network (host candidates).
      console.error('ICE servers unavailable', err);
    }
    if (session !== this.session) return null;
    const pc = new RTCPeerConnection(peerConfig(iceServers));
    this.pc = pc;
    for (const track of camera.getTracks()) pc.addTrack(track, camera);
    pc.onicecandidate = ({ candidate }) => {
      if (!candidate || session !== this.session) return;
      const init = candidate.toJSON() as IceCandidate;
      if (this.signalled) this.sendCandidate(init);
      else this.outbox.push(init);
    };
    pc.ontrack = ({ streams, track }) => {
      this.update({ remote: streams[0] ?? new MediaStream([track]) });
    };
    pc.onconnectionstatechange = () => {
      if (session !== this.session) return;
      this.update({ connection: pc.connectionState });
      if (isDeadConnection(pc.connectionState)) {
        const peer = peerOf(this.view.call);
        if (peer) this.socket.emit(VIDEO_EVENTS.endCall, { to: peer });
        this.teardown({ kind: 'error', text: 'Call ended: the connection was lost' });
      }
    };
    this.update({ connection: pc.connectionState });
    this.applyMute();
    return pc;
  }

  private async onAccepted(raw: unknown) {
    const msg = callAccepted.safeParse(raw);
    const pc = this.pc;
    if (!msg.success || this.view.call.phase !== 'calling' || !this.isPeer(msg.data.from) || !pc) return;
    const session = this.session;
    try {
      await pc.setRemoteDescription(msg.data.answer);
      await this.applyPending(pc);
      if (session !== this.session) return;
      this.dispatch({ type: 'answered', peer: msg.data.from });
    } catch (err) {
      this.fail(session, err);
    }
  }

  private async onCandidate(raw: unknown) {
    const msg = remoteCandidate.safeParse(raw);
    if (!msg.success || !this.isPeer(msg.data.from)) return;
    const pc = this.pc;
    if (!this.pending.offer(msg.data.candidate, !!pc?.remoteDescription) || !pc) return;
    try {
      await pc.addIceCandidate(msg.data.candidate);
    } catch (err) {
      console.error('Ignoring a bad ICE candidate', err);
    }
  }

  private async applyPending(pc: RTCPeerConnection) {
    for (const candidate of this.pending.drain()) {
      try {
        await pc.addIceCandidate(candidate);
      } catch (err) {
        console.error('Ignoring a bad ICE candidate', err);
      }
    }
  }

  private flushOutbox() {
    this.signalled = true;
    const queued = this.outbox;
    this.outbox = [];
    for (const candidate of queued) this.sendCandidate(candidate);
  }

  private sendCandidate(candidate: IceCandidate) {
    const peer = peerOf(this.view.call);
    if (peer) this.socket.emit(VIDEO_EVENTS.candidate, { to: peer, candidate });
  }

  private isPeer(email: string) {
    const peer = peerOf(this.view.call);
    return peer !== null && same(peer, email);
  }

  /** SPEC §8 "Call errors: logged; the call is torn down". */
  private fail(session: number, err: unknown) {
    if (session !== this.session) return;
    console.error('Call failed', err);
    const peer = peerOf(this.view.call);
    if (peer && this.socket.connected) this.socket.emit(VIDEO_EVENTS.endCall, { to: peer });
    this.teardown({ kind: 'error', text: 'The call failed' });
  }

  private applyMute() {
    const state = this.view.call;
    const audioMuted = state.phase === 'in-call' && state.audioMuted;
    const videoMuted = state.phase === 'in-call' && state.videoMuted;
    for (const track of this.camera?.getAudioTracks() ?? []) track.enabled = !audioMuted;
    for (const track of this.camera?.getVideoTracks() ?? []) track.enabled = !videoMuted;
    const display = this.screen.currentVideoTrack();
    if (display) display.enabled = !videoMuted;
    this.update({ sending: this.sendingFlags() });
  }

  private sendingFlags() {
    const senders = this.pc?.getSenders() ?? [];
    const flag = (kind: string) => senders.find((s) => s.track?.kind === kind)?.track?.enabled ?? null;
    return { audio: flag('audio'), video: flag('video') };
  }

  private silence() {
    this.stopRinging?.();
    this.stopRinging = null;
    if (this.view.ringing) this.update({ ringing: false });
  }

  private teardown(notice: Notice | null) {
    this.session += 1;
    this.silence();
    this.screen.dispose();
    const pc = this.pc;
    this.pc = null;
    if (pc) {
      pc.onicecandidate = null;
      pc.ontrack = null;
      pc.onconnectionstatechange = null;
      pc.close();
    }
    stopStream(this.camera);
    this.camera = null;
    this.pending.clear();
    this.outbox = [];
    this.signalled = false;
    this.dispatch({ type: 'end' });
    this.update({ ...INITIAL, notice });
  }

  private dispatch(event: CallEvent) {
    const call = callReducer(this.view.call, event);
    if (call !== this.view.call) this.update({ call });
  }

  private update(patch: Partial<VideoCallView>) {
    this.view = { ...this.view, ...patch };
    for (const listener of this.listeners) listener();
  }
}

/**
 * The `/video` call of this page: the tab's shared call (call-client.ts, opened by the signed-in
 * layout so calls ring on every page) when there is one, else a connection of its own while shown.
 */
export function useVideoCall() {
  const [call, setCall] = useState<VideoCall | null>(null);
  useEffect(() => {
    const shared = currentCallClient();
    if (shared) {
      setCall(shared);
      // Leaving the page ends a call it placed or carries; a ringing call keeps ringing elsewhere.
      return () => {
        if (shared.getView().call.phase !== 'incoming') shared.hangUp();
        setCall(null);
      };
    }
    const instance = new VideoCall(connectNamespace(VIDEO_NAMESPACE));
    setCall(instance);
    return () => {
      instance.dispose();
      setCall(null);
    };
  }, []);
  const subscribe = useCallback((notify: () => void) => call?.subscribe(notify) ?? (() => {}), [call]);
  const view = useSyncExternalStore(subscribe, () => call?.getView() ?? INITIAL);
  return { call, view };
}
