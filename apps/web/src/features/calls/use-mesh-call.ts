import {
  CALL_REASONS,
  iceCandidate,
  MESH_EVENTS,
  MESH_NAMESPACE,
  type MeshParticipant,
  meshJoinAck,
  meshParticipant,
  participantState,
  type SfuGrant,
  sessionDescription,
} from '@cohort/shared/calls';
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import type { Socket } from 'socket.io-client';
import { z } from 'zod';
import { connectNamespace } from '../../lib/socket.ts';
import { PendingCandidates } from './call-machine.ts';
import type { Notice } from './call-notice.tsx';
import {
  emitAck,
  fetchIceServers,
  MEDIA_FAILED,
  openCamera,
  peerConfig,
  ScreenShare,
  stopStream,
  videoSenders,
} from './media.ts';
import { SFU_CAMERA } from './sfu-layout.ts';
// Only the type: the SFU client (and janus-gateway) load when a join says the room is an SFU room.
import type { SfuMedia } from './sfu-media.ts';
import { nameFeed } from './sfu-naming.ts';

export interface RemotePeer {
  id: string;
  name: string;
  email: string;
  stream: MediaStream | null;
  connection: RTCPeerConnectionState;
  audioMuted: boolean;
  videoMuted: boolean;
}

export interface MeshView {
  status: 'idle' | 'starting' | 'in-call';
  local: MediaStream | null;
  peers: RemotePeer[];
  sharing: boolean;
  /** Our own microphone and camera switches (what the others are told by `media-state`). */
  audioMuted: boolean;
  videoMuted: boolean;
  notice: Notice | null;
  /** Set when the room runs on the SFU (Janus) instead of the mesh. */
  sfu: SfuView | null;
}

export interface SfuView {
  max: number;
  /** Our own id (the feed we publish), for our tile's speaking mark. */
  self: string;
  /** Participant ids talking now, and the last other participant who talked. */
  speaking: string[];
  lastSpeaker: string | null;
}

const INITIAL: MeshView = {
  status: 'idle',
  local: null,
  peers: [],
  sharing: false,
  audioMuted: false,
  videoMuted: false,
  notice: null,
  sfu: null,
};

const fromPayload = z.object({ from: z.string() });
const offerMsg = fromPayload.extend({ offer: sessionDescription });
const answerMsg = fromPayload.extend({ answer: sessionDescription });
const candidateMsg = fromPayload.extend({ candidate: iceCandidate });
const userLeft = z.object({ id: z.string() });

export const JOIN_REFUSED: Record<string, string> = {
  [CALL_REASONS.forbidden]: 'You cannot join this call: it does not exist or you are not a member of it.',
  // A room's size depends on whether it runs on the mesh or the SFU, which a refusal does not say.
  [CALL_REASONS.roomFull]: 'This call is full.',
};
export const ROOM_CLOSED = 'You were removed from this call: you no longer have access to it.';
export const SFU_LOST = 'The call ended: the connection to its media server was lost.';
/**
 * How long a Janus loss waits for `/mesh` to explain it: the server revokes access (destroying the
 * Janus session) before it sends `room-closed`, and a dropped `/mesh` ends Janus too.
 */
export const SFU_LOSS_GRACE_MS = 2000;

/** The message for a refused join; `max` when an earlier join of this call told the room's size. */
export function joinRefused(reason: string, max: number | null): string {
  if (reason === CALL_REASONS.roomFull && max !== null) return `This call is full (at most ${max} people).`;
  return JOIN_REFUSED[reason] ?? `Could not join: ${reason}`;
}

interface Peer {
  info: MeshParticipant;
  pc: RTCPeerConnection;
  stream: MediaStream | null;
}

const plain = (d: RTCSessionDescriptionInit) => ({ type: d.type, sdp: d.sdp ?? '' });

/**
 * A mesh call in one room (SPEC §4 "Mesh call"), shared by /videocall (a channel's room) and /mesh
 * (an ad-hoc room): media on Start Call, a fresh `/mesh` connection, `join`, then an offer to every
 * participant already there; newcomers offer to us. One RTCPeerConnection per remote participant.
 * When the join's answer carries an SFU grant (issue 23), the room, names and mute flags still go
 * through `/mesh` but media goes through Janus (`SfuMedia`), set up anew on every (re)join.
 */
export class MeshCall {
  private view: MeshView = INITIAL;
  private readonly listeners = new Set<() => void>();
  private socket: Socket | null = null;
  private camera: MediaStream | null = null;
  private iceServers: RTCIceServer[] = [];
  private readonly peers = new Map<string, Peer>();
  /** Names of the room's participants, from `user-list` and `user-joined`. */
  private readonly known = new Map<string, MeshParticipant>();
  /** Candidates that arrive before their peer's offer or answer is applied (relays may reorder). */
  private readonly early = new Map<string, PendingCandidates>();
  private session = 0;
  /** Bumped on every `/mesh` (re)connection and drop: an SFU set-up started before is stale. */
  private link = 0;
  private sfu: SfuMedia | null = null;
  /** The SFU room's size from the last grant, for a later `room full`. */
  private max: number | null = null;
  private sfuLoss: ReturnType<typeof setTimeout> | undefined;
  private readonly screen = new ScreenShare(
    () => videoSenders(this.sfu ? this.sfu.connections() : [...this.peers.values()].map((p) => p.pc)),
    () => this.camera?.getVideoTracks()[0],
    (display) => this.update({ sharing: display !== null, local: display ?? this.camera }),
  );

  constructor(private readonly room: string) {}

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getView = () => this.view;

  async start() {
    if (this.view.status !== 'idle') return;
    this.update({ status: 'starting', notice: null });
    const session = ++this.session;
    let camera: MediaStream;
    try {
      camera = await openCamera();
    } catch {
      if (session === this.session) this.stop({ kind: 'error', text: MEDIA_FAILED });
      return;
    }
    if (session !== this.session) return stopStream(camera);
    this.camera = camera;
    this.update({ local: camera });
    try {
      this.iceServers = await fetchIceServers();
    } catch (err) {
      console.error('ICE servers unavailable', err);
      this.iceServers = [];
    }
    if (session !== this.session) return;
    const socket = connectNamespace(MESH_NAMESPACE);
    this.socket = socket;
    this.listen(socket, session);
  }

  /** Leave Call: tells the room, closes every connection and stops the camera. */
  leave() {
    if (this.socket?.connected) this.socket.emit(MESH_EVENTS.leave);
    this.stop(null);
  }

  async toggleScreenShare() {
    if (this.view.status !== 'in-call') return;
    try {
      if (this.screen.active) await this.screen.stop();
      else await this.screen.start();
      this.applyMute();
    } catch {
      // The user cancelled the picker: the camera stays.
    }
  }

  toggleAudio() {
    if (this.view.status === 'idle') return;
    this.update({ audioMuted: !this.view.audioMuted });
    this.applyMute();
    this.announceMute();
  }

  toggleVideo() {
    if (this.view.status === 'idle') return;
    this.update({ videoMuted: !this.view.videoMuted });
    this.applyMute();
    this.announceMute();
  }

  dismissNotice() {
    this.update({ notice: null });
  }

  dispose() {
    this.leave();
  }

  // --- internals -------------------------------------------------------------------------------

  private listen(socket: Socket, session: number) {
    const live = () => session === this.session;
    const firstLink = this.link + 1;
    socket.on('connect', async () => {
      const link = ++this.link;
      const joined = meshJoinAck.safeParse(await emitAck(socket, MESH_EVENTS.join, { room: this.room }));
      if (!live()) return;
      if (!joined.success || !joined.data.ok) {
        const reason = joined.success && !joined.data.ok ? joined.data.reason : 'server error';
        // Refused on reconnecting, after being in the call: access ended while the connection was
        // down, so `room-closed` never reached us.
        const removed = link > firstLink && reason === CALL_REASONS.forbidden;
        return this.stop({ kind: 'error', text: removed ? ROOM_CLOSED : joinRefused(reason, this.max) });
      }
      const grant = joined.data.sfu;
      this.max = grant?.max ?? null;
      const sfu = grant ? { max: grant.max, self: grant.feedId, speaking: [], lastSpeaker: null } : null;
      this.update({ status: 'in-call', sfu });
      socket.emit(MESH_EVENTS.getUsers);
      if (this.view.audioMuted || this.view.videoMuted) this.announceMute();
      if (grant) await this.startSfu(grant, socket, () => live() && link === this.link);
    });
    socket.on(MESH_EVENTS.mediaState, (raw: unknown) => {
      const msg = participantState.safeParse(raw);
      if (!msg.success || !live()) return;
      const { id, audioMuted, videoMuted } = msg.data;
      const known = this.known.get(id);
      if (known) this.known.set(id, { ...known, audioMuted, videoMuted });
      this.publish();
    });
    // A new socket id after a reconnection: the others saw us leave, so start over with them. The
    // server revoked our SFU token with the old socket, so Janus is set up again on the next join.
    socket.on('disconnect', () => {
      if (!live()) return;
      this.link += 1;
      this.closePeers();
      this.closeSfu();
      this.known.clear();
      this.publish();
    });
    socket.on(MESH_EVENTS.userList, async (raw: unknown) => {
      const list = z.array(meshParticipant).safeParse(raw);
      if (!list.success || !live()) return;
      for (const participant of list.data) {
        this.known.set(participant.id, participant);
        // In an SFU room the server relays no offers: Janus carries the media.
        if (!this.view.sfu && !this.peers.has(participant.id)) {
          await this.sendOffer(socket, participant.id, session);
        }
      }
      this.sfu?.refresh();
      this.publish();
    });
    socket.on(MESH_EVENTS.userJoined, (raw: unknown) => {
      const participant = meshParticipant.safeParse(raw);
      // The newcomer sends the offer (or publishes to Janus); we only learn their name.
      if (!participant.success || !live()) return;
      // In an SFU room a participant is announced again with `feed` once Janus has it.
      this.known.set(participant.data.id, participant.data);
      this.sfu?.refresh();
      this.publish();
    });
    socket.on(MESH_EVENTS.userLeft, (raw: unknown) => {
      const msg = userLeft.safeParse(raw);
      if (!msg.success) return;
      this.known.delete(msg.data.id);
      this.dropPeer(msg.data.id);
      this.sfu?.refresh();
      this.publish();
    });
    socket.on(MESH_EVENTS.offer, async (raw: unknown) => {
      const msg = offerMsg.safeParse(raw);
      if (!msg.success || !live() || this.view.sfu) return;
      const { from, offer } = msg.data;
      // A renegotiation from scratch (the other side reconnected): keep the candidates already here.
      this.closePeer(from);
      const peer = this.createPeer(socket, from, session);
      try {
        await peer.pc.setRemoteDescription(offer);
        await this.applyEarly(from, peer);
        const answer = await peer.pc.createAnswer();
        await peer.pc.setLocalDescription(answer);
        if (live()) socket.emit(MESH_EVENTS.answer, { to: from, answer: plain(answer) });
      } catch (err) {
        console.error('Mesh offer failed', err);
        this.dropPeer(from);
      }
    });
    socket.on(MESH_EVENTS.answer, async (raw: unknown) => {
      const msg = answerMsg.safeParse(raw);
      const peer = msg.success ? this.peers.get(msg.data.from) : undefined;
      if (!msg.success || !peer) return;
      try {
        await peer.pc.setRemoteDescription(msg.data.answer);
        await this.applyEarly(msg.data.from, peer);
      } catch (err) {
        console.error('Mesh answer failed', err);
        this.dropPeer(msg.data.from);
      }
    });
    socket.on(MESH_EVENTS.candidate, async (raw: unknown) => {
      const msg = candidateMsg.safeParse(raw);
      if (!msg.success || !live()) return;
      const { from, candidate } = msg.data;
      const peer = this.peers.get(from);
      if (!peer?.pc.remoteDescription) {
        this.earlyFor(from).offer(candidate, false);
        return;
      }
      await peer.pc.addIceCandidate(candidate).catch((err) => console.error('Bad ICE candidate', err));
    });
    socket.on(MESH_EVENTS.roomClosed, () => {
      if (live()) this.stop({ kind: 'error', text: ROOM_CLOSED });
    });
  }

  /**
   * Loads the SFU client (and janus-gateway) on the first SFU join and publishes through it. The
   * camera is shrunk first: a meeting of 25 means 24 decoders on every screen.
   */
  private async startSfu(grant: SfuGrant, socket: Socket, current: () => boolean) {
    let loaded: typeof import('./sfu-media.ts');
    try {
      loaded = await import('./sfu-media.ts');
      await this.camera?.getVideoTracks()[0]?.applyConstraints(SFU_CAMERA);
    } catch (err) {
      console.error('SFU client unavailable', err);
      if (current()) this.stop({ kind: 'error', text: SFU_LOST });
      return;
    }
    if (!current()) return;
    const sfu: SfuMedia = new loaded.SfuMedia({
      grant,
      iceServers: this.iceServers,
      tracks: () => ({ audio: this.camera?.getAudioTracks()[0], video: this.screen.currentVideoTrack() }),
      onChange: () => {
        if (this.sfu === sfu) this.publish();
      },
      named: (feed) => [...this.known.values()].some((p) => p.feed === feed),
      // Until the server has named our feed nobody receives it (and an unnamed feed is evicted).
      onJoined: () =>
        nameFeed(
          () => emitAck(socket, MESH_EVENTS.sfuJoined, {}),
          () => this.sfu === sfu && current(),
          () => this.stop({ kind: 'error', text: SFU_LOST }),
        ),
      onLost: (reason) => {
        if (this.sfu !== sfu) return;
        console.error('SFU session ended', reason);
        this.sfu = null;
        // A /mesh drop (set up again on the next join) or `room-closed` may be what ended it: only a
        // loss still unexplained after the grace ends the call with its own message.
        clearTimeout(this.sfuLoss);
        this.sfuLoss = setTimeout(() => {
          if (current() && socket.connected) this.stop({ kind: 'error', text: SFU_LOST });
        }, SFU_LOSS_GRACE_MS);
      },
    });
    this.sfu = sfu;
    await sfu.start();
  }

  private closeSfu() {
    const sfu = this.sfu;
    this.sfu = null;
    sfu?.close();
  }

  private async sendOffer(socket: Socket, to: string, session: number) {
    const peer = this.createPeer(socket, to, session);
    try {
      const offer = await peer.pc.createOffer();
      await peer.pc.setLocalDescription(offer);
      if (session === this.session) socket.emit(MESH_EVENTS.offer, { to, offer: plain(offer) });
    } catch (err) {
      console.error('Mesh offer failed', err);
      this.dropPeer(to);
    }
  }

  private createPeer(socket: Socket, id: string, session: number): Peer {
    const pc = new RTCPeerConnection(peerConfig(this.iceServers));
    const info = this.known.get(id) ?? { id, email: '', name: 'Participant' };
    const peer: Peer = { info, pc, stream: null };
    this.peers.set(id, peer);
    const camera = this.camera;
    if (camera) {
      for (const track of camera.getAudioTracks()) pc.addTrack(track, camera);
      const video = this.screen.currentVideoTrack();
      if (video) pc.addTrack(video, camera);
    }
    pc.onicecandidate = ({ candidate }) => {
      if (candidate && session === this.session) {
        socket.emit(MESH_EVENTS.candidate, { to: id, candidate: candidate.toJSON() });
      }
    };
    pc.ontrack = ({ streams, track }) => {
      peer.stream = streams[0] ?? new MediaStream([track]);
      this.publish();
    };
    pc.onconnectionstatechange = () => {
      if (pc.connectionState === 'failed' || pc.connectionState === 'closed') this.dropPeer(id);
      else this.publish();
    };
    this.publish();
    return peer;
  }

  private earlyFor(id: string) {
    let queue = this.early.get(id);
    if (!queue) {
      queue = new PendingCandidates();
      this.early.set(id, queue);
    }
    return queue;
  }

  private async applyEarly(id: string, peer: Peer) {
    for (const candidate of this.earlyFor(id).drain()) {
      await peer.pc.addIceCandidate(candidate).catch((err) => console.error('Bad ICE candidate', err));
    }
  }

  /** Someone left (or their connection died): their tile and everything held for them go. */
  private dropPeer(id: string) {
    this.early.delete(id);
    this.closePeer(id);
  }

  private closePeer(id: string) {
    const peer = this.peers.get(id);
    if (!peer) return;
    this.peers.delete(id);
    peer.pc.onicecandidate = null;
    peer.pc.ontrack = null;
    peer.pc.onconnectionstatechange = null;
    peer.pc.close();
    this.publish();
  }

  private closePeers() {
    for (const id of [...this.peers.keys()]) this.dropPeer(id);
    this.early.clear();
  }

  private stop(notice: Notice | null) {
    this.session += 1;
    const socket = this.socket;
    this.socket = null;
    socket?.disconnect();
    this.closePeers();
    this.closeSfu();
    clearTimeout(this.sfuLoss);
    this.max = null;
    this.known.clear();
    this.screen.dispose();
    stopStream(this.camera);
    this.camera = null;
    this.update({ ...INITIAL, notice });
  }

  private applyMute() {
    for (const track of this.camera?.getAudioTracks() ?? []) track.enabled = !this.view.audioMuted;
    for (const track of this.camera?.getVideoTracks() ?? []) track.enabled = !this.view.videoMuted;
    const display = this.screen.currentVideoTrack();
    if (display) display.enabled = !this.view.videoMuted;
  }

  private announceMute() {
    if (!this.socket?.connected || this.view.status !== 'in-call') return;
    this.socket.emit(MESH_EVENTS.mediaState, {
      audioMuted: this.view.audioMuted,
      videoMuted: this.view.videoMuted,
    });
  }

  private publish() {
    if (this.view.sfu) return this.publishSfu(this.view.sfu);
    this.update({
      peers: [...this.peers.entries()].map(([id, p]) => ({
        id,
        name: this.known.get(id)?.name || p.info.name || this.known.get(id)?.email || 'Participant',
        email: this.known.get(id)?.email ?? p.info.email,
        stream: p.stream,
        connection: p.pc.connectionState,
        audioMuted: this.known.get(id)?.audioMuted ?? false,
        videoMuted: this.known.get(id)?.videoMuted ?? false,
      })),
    });
  }

  /** SFU rooms: a tile for everyone `/mesh` lists, with what Janus sends us for their feed. */
  private publishSfu(view: SfuView) {
    const sfu = this.sfu;
    const idOfFeed = new Map(
      [...this.known.values()].flatMap((p) => (p.feed ? [[p.feed, p.id] as const] : [])),
    );
    // Janus reports speakers by feed; the layout works with participant ids (ours is our feed).
    const byId = (feed: string) => (feed === view.self ? feed : idOfFeed.get(feed));
    const last = sfu?.lastSpeaker ? byId(sfu.lastSpeaker) : undefined;
    this.update({
      peers: [...this.known.values()].map((p) => {
        const stream = (p.feed && sfu?.streamOf(p.feed)) || null;
        return {
          id: p.id,
          name: p.name || p.email || 'Participant',
          email: p.email,
          stream,
          connection: stream && sfu ? sfu.connection : 'new',
          audioMuted: p.audioMuted ?? false,
          videoMuted: p.videoMuted ?? false,
        };
      }),
      sfu: {
        ...view,
        speaking: sfu ? [...sfu.speaking].flatMap((feed) => byId(feed) ?? []) : [],
        lastSpeaker: last ?? view.lastSpeaker,
      },
    });
  }

  private update(patch: Partial<MeshView>) {
    this.view = { ...this.view, ...patch };
    for (const listener of this.listeners) listener();
  }
}

/** The mesh call of one room while the page shows it; leaving the page leaves the call. */
export function useMeshCall(room: string | null) {
  const [call, setCall] = useState<MeshCall | null>(null);
  useEffect(() => {
    if (!room) return;
    const instance = new MeshCall(room);
    setCall(instance);
    return () => {
      instance.dispose();
      setCall(null);
    };
  }, [room]);
  const subscribe = useCallback((notify: () => void) => call?.subscribe(notify) ?? (() => {}), [call]);
  const view = useSyncExternalStore(subscribe, () => call?.getView() ?? INITIAL);
  return { call, view };
}
