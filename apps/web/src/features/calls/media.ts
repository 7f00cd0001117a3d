import type { CallAck } from '@cohort/shared/calls';
import type { Socket } from 'socket.io-client';
import { api } from '../../lib/api.ts';
import { loadLive } from '../../lib/live.ts';

/** SPEC §9: 640×480 ideal, with audio. */
export const MEDIA_CONSTRAINTS: MediaStreamConstraints = {
  video: { width: { ideal: 640 }, height: { ideal: 480 } },
  audio: true,
};

export const MEDIA_FAILED = 'Cannot access camera or microphone';

/** Camera and microphone; throws MEDIA_FAILED (the spec's wording) whatever the browser's reason. */
export async function openCamera(): Promise<MediaStream> {
  try {
    return await navigator.mediaDevices.getUserMedia(MEDIA_CONSTRAINTS);
  } catch (cause) {
    throw new Error(MEDIA_FAILED, { cause });
  }
}

/** The STUN servers and this user's short-lived TURN credentials (GET /api/calls/ice-servers). */
export async function fetchIceServers(): Promise<RTCIceServer[]> {
  const [{ iceServersResponse }, raw] = await Promise.all([
    loadLive(),
    api.get<unknown>('/api/calls/ice-servers'),
  ]);
  return iceServersResponse.parse(raw).iceServers;
}

export function stopStream(stream: MediaStream | null | undefined) {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

/**
 * Both ends are this app, so everything rides one transport (`max-bundle`): half the ICE candidates
 * of a per-m-line gathering, which keeps signalling well under the server's flood limit
 * (50 events per 5 s per socket).
 */
export const peerConfig = (iceServers: RTCIceServer[]): RTCConfiguration => ({
  iceServers,
  bundlePolicy: 'max-bundle',
});

/** How long a signalling acknowledgement may take before the connection is considered gone. */
const ACK_TIMEOUT_MS = 10_000;

/** Emits with an acknowledgement; a lost connection or a timeout reads as a refusal. */
export async function emitAck(socket: Socket, event: string, payload?: unknown): Promise<CallAck> {
  try {
    const ack = (await socket.timeout(ACK_TIMEOUT_MS).emitWithAck(event, payload)) as CallAck;
    return ack && typeof ack === 'object' && 'ok' in ack ? ack : { ok: false, reason: 'server error' };
  } catch {
    return { ok: false, reason: 'no answer' };
  }
}

/** The video senders of some connections (the ones screen sharing swaps tracks on). */
export const videoSenders = (connections: Iterable<RTCPeerConnection>) =>
  [...connections].flatMap((pc) =>
    pc
      .getTransceivers()
      .filter((t) => t.receiver.track.kind === 'video')
      .map((t) => t.sender),
  );

/**
 * Screen sharing: the display's video track replaces the camera's on every video sender, and the
 * camera's comes back when sharing stops (toggle, or the browser's own "Stop sharing", which ends
 * the track).
 */
export class ScreenShare {
  private display: MediaStream | null = null;

  constructor(
    private readonly senders: () => RTCRtpSender[],
    private readonly cameraTrack: () => MediaStreamTrack | undefined,
    private readonly onChange: (display: MediaStream | null) => void,
  ) {}

  get active() {
    return this.display !== null;
  }

  /** The video track new connections should send: the screen while sharing, else the camera. */
  currentVideoTrack(): MediaStreamTrack | undefined {
    return this.display?.getVideoTracks()[0] ?? this.cameraTrack();
  }

  async start() {
    if (this.display) return;
    const display = await navigator.mediaDevices.getDisplayMedia({ video: true, audio: false });
    const track = display.getVideoTracks()[0];
    if (!track) {
      stopStream(display);
      return;
    }
    this.display = display;
    track.addEventListener('ended', () => void this.stop());
    await this.replace(track);
    this.onChange(display);
  }

  async stop() {
    if (!this.display) return;
    const display = this.display;
    this.display = null;
    stopStream(display);
    await this.replace(this.cameraTrack() ?? null);
    this.onChange(null);
  }

  /** Forgets the display without touching senders (the call is over). */
  dispose() {
    stopStream(this.display);
    this.display = null;
  }

  private async replace(track: MediaStreamTrack | null) {
    await Promise.all(this.senders().map((sender) => sender.replaceTrack(track).catch(() => {})));
  }
}

/**
 * The ringing sound while a call comes in, synthesised with WebAudio (440 + 480 Hz, two seconds on,
 * four off) so no audio file ships. A browser that blocks audio before any interaction stays silent.
 */
export function startRinging(): () => void {
  const Ctx = window.AudioContext;
  if (!Ctx) return () => {};
  let ctx: AudioContext;
  try {
    ctx = new Ctx();
  } catch {
    return () => {};
  }
  const gain = ctx.createGain();
  gain.gain.value = 0;
  gain.connect(ctx.destination);
  const oscillators = [440, 480].map((frequency) => {
    const osc = ctx.createOscillator();
    osc.frequency.value = frequency;
    osc.connect(gain);
    osc.start();
    return osc;
  });
  const ring = () => {
    const t = ctx.currentTime;
    gain.gain.setValueAtTime(0.15, t);
    gain.gain.setValueAtTime(0, t + 2);
  };
  void ctx.resume().catch(() => {});
  ring();
  const timer = setInterval(ring, 6000);
  return () => {
    clearInterval(timer);
    for (const osc of oscillators) osc.stop();
    void ctx.close().catch(() => {});
  };
}
