import type { SfuGrant } from '@cohort/shared/calls';
import Janus, { type JanusJS } from 'janus-gateway';
// janus-gateway's ES build reads webrtc-adapter (its own dependency) from the caller.
import adapter from 'webrtc-adapter';
import { applyStreams, type Carried, duplicateMids, tracksByFeed } from './sfu-layout.ts';

const VIDEOROOM = 'janus.plugin.videoroom';
/** Sender frame rate in SFU rooms (the camera is also shrunk to SFU_CAMERA by the controller). */
const MAX_FRAMERATE = 15;
/** How long to wait before asking again after Janus refused a subscription change. */
const RETRY_MS = 1000;
/**
 * A feed asked for (or dropped) is not asked about again sooner: Janus answers a subscription to a
 * publisher it no longer has, or has not set up yet, with no change at all.
 */
const ASK_AGAIN_MS = 3000;
/**
 * A subscription change Janus has not answered in this long is given up, and asked for again. Janus
 * answers at once; the wait is for a page so busy that it reads the answer late (asking again for a
 * feed Janus did add would add it twice).
 */
const ANSWER_TIMEOUT_MS = 30_000;
/** Connections to Janus tried before the call is given up (the grant's token stays valid meanwhile). */
const CONNECT_ATTEMPTS = 3;
/**
 * A received video m-line that has decoded no frame this long is stuck: a camera sends at least
 * black frames when turned off, so nothing at all means the subscription or its media went wrong.
 */
const NO_FRAMES_MS = 30_000;
/** How often the subscriber's decoded frames are looked at. */
const WATCH_MS = 5000;
/** A stuck subscriber connection is rebuilt at most this often (a rebuild asks every publisher for a keyframe). */
const REBUILD_MS = 60_000;

let initialised: Promise<void> | null = null;
const initJanus = () => {
  initialised ??= new Promise<void>((resolve) =>
    Janus.init({ debug: false, dependencies: Janus.useDefaultDependencies({ adapter }), callback: resolve }),
  );
  return initialised;
};

type Message = JanusJS.Message;
/** janus.js also reports the PeerConnection's connectionState; its typings leave that out. */
type HandleOptions = JanusJS.PluginOptions & { connectionState?: (state: RTCPeerConnectionState) => void };

export interface SfuMediaOptions {
  grant: SfuGrant;
  iceServers: RTCIceServer[];
  /** What to publish now: the microphone, and the camera or the shared screen. */
  tracks: () => { audio?: MediaStreamTrack | undefined; video?: MediaStreamTrack | undefined };
  /** Remote streams, the speaking set or the connection changed. */
  onChange: () => void;
  /** The Janus side ended without `close()`: the session was destroyed, refused or failed. */
  onLost: (reason: string) => void;
  /** We are in the VideoRoom under our feed id (the server then names it to the others). */
  onJoined: () => void;
  /** Feeds the server has named to the room: only those are received (and shown). */
  named: (feed: string) => boolean;
}

/**
 * One participant's media in a Janus VideoRoom: a publisher handle sending the microphone and the
 * camera under the feed id the server granted, and ONE multistream subscriber handle receiving
 * every other publisher the server has named (`subscribe`/`unsubscribe` as they come and go). Who
 * is who comes from `/mesh` (`feed` of a participant), never from Janus's `display`.
 */
export class SfuMedia {
  private janus: Janus | null = null;
  private publisher: JanusJS.PluginHandle | null = null;
  private subscriber: JanusJS.PluginHandle | null = null;
  /** Janus answered the subscriber's join (`attached`): from then on, subscribe and unsubscribe. */
  private subscriberJoined = false;
  private privateId: unknown = null;
  private closed = false;
  /** Connections to Janus tried so far, and which one is current (a given-up one is not). */
  private attempts = 0;
  private current = 0;
  /** Feeds publishing in the room. */
  private readonly publishers = new Set<string>();
  /** When each feed was last asked for or dropped (what we receive is what Janus's `streams` say). */
  private readonly asked = new Map<string, number>();
  /** A subscription change Janus has not answered yet: one at a time, so renegotiations never overlap. */
  private inflight: { feeds: string[] } | null = null;
  /** The last change asked for (what an `updating` answer accepted). */
  private lastAsked: { request: string; feeds: string[] } | null = null;
  /**
   * Feeds Janus added (`updating`) while an offer of its was still unanswered: their m-lines come
   * with its next offer, after our answer. Until then (or ANSWER_TIMEOUT_MS) they count as received.
   */
  private readonly comingWithOffer = new Map<string, number>();
  /**
   * Since when we are answering an offer of Janus's: no change is asked for until the answer is
   * sent (or ANSWER_TIMEOUT_MS passed, should janus.js never call back).
   */
  private answeringSince: number | null = null;
  /** Which subscriber handle is current: callbacks of one rebuilt away are ignored. */
  private subscriberGeneration = 0;
  /**
   * Each shown video m-line (`mid feed`): since when it is watched and its frame count then, or
   * `decoding` once it decoded a frame (not watched any more).
   */
  private readonly videoWatch = new Map<string, { since: number; frames: number } | 'decoding'>();
  private rebuiltAt = Number.NEGATIVE_INFINITY;
  private watch: ReturnType<typeof setInterval> | undefined;
  /** The next connection to Janus (before joining), and the subscriber's next look at what it receives. */
  private reconnect: ReturnType<typeof setTimeout> | undefined;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private answerTimeout: ReturnType<typeof setTimeout> | undefined;
  private carried = new Map<string, Carried>();
  private readonly trackOfMid = new Map<string, MediaStreamTrack>();
  private streams = new Map<string, MediaStream>();
  /** Feed ids talking now (VideoRoom `audiolevel_event`), and the last one of the others to talk. */
  readonly speaking = new Set<string>();
  lastSpeaker: string | null = null;

  constructor(private readonly options: SfuMediaOptions) {}

  async start() {
    await initJanus();
    this.connect();
    this.watch = setInterval(() => void this.watchFrames(), WATCH_MS);
  }

  private connect() {
    if (this.closed) return;
    this.attempts += 1;
    // Callbacks of a connection given up for a new one are ignored (janus.js may still call them).
    const mine = ++this.current;
    const ours = () => this.current === mine;
    const { grant, iceServers } = this.options;
    this.janus = new Janus({
      server: grant.server,
      token: grant.token,
      iceServers,
      success: () => {
        if (ours()) this.attachPublisher(ours);
      },
      error: (err: unknown) => {
        if (ours()) this.connectionFailed(String(err));
      },
      destroyed: () => {
        if (ours()) this.lost('session destroyed');
      },
    });
  }

  /**
   * The Janus connection failed. Before we are in the room that is most likely a handshake a busy
   * server or network dropped (Janus drops the sessions of a closed connection): connect again.
   * Once in the room, the call is lost (the server hands out a new grant on the next join).
   */
  private connectionFailed(reason: string) {
    if (this.closed) return;
    if (this.privateId !== null || this.attempts >= CONNECT_ATTEMPTS) return this.lost(reason);
    console.error('Janus connection failed, trying again', reason);
    this.current += 1;
    this.janus = null;
    this.publisher = null;
    clearTimeout(this.reconnect);
    this.reconnect = setTimeout(() => this.connect(), RETRY_MS * this.attempts);
  }

  /** The remote stream of a feed, if Janus sends us one. */
  streamOf(feed: string): MediaStream | null {
    return this.streams.get(feed) ?? null;
  }

  /** The server named (or stopped naming) feeds: receive what is named now. */
  refresh() {
    this.sync();
  }

  /** The subscriber connection's state (what a remote tile reports). */
  get connection(): RTCPeerConnectionState {
    return this.subscriber?.webrtcStuff?.pc?.connectionState ?? 'new';
  }

  /** The publisher's connection (screen sharing swaps its video sender's track). */
  connections(): RTCPeerConnection[] {
    const pc = this.publisher?.webrtcStuff?.pc;
    return pc ? [pc] : [];
  }

  /** Hangs up and detaches both handles and destroys the session; the local tracks stay ours. */
  close() {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.reconnect);
    clearTimeout(this.retry);
    clearTimeout(this.answerTimeout);
    clearInterval(this.watch);
    for (const handle of [this.subscriber, this.publisher]) {
      try {
        handle?.hangup(true);
        handle?.detach();
      } catch {
        // Already gone with the session.
      }
    }
    this.subscriber = null;
    this.publisher = null;
    const janus = this.janus;
    this.janus = null;
    // The constructor answers a plain object when it fails before connecting.
    if (typeof janus?.destroy === 'function') janus.destroy({ notifyDestroyed: false });
    this.trackOfMid.clear();
    this.streams.clear();
  }

  // --- publisher --------------------------------------------------------------------------------

  private attachPublisher(ours: () => boolean) {
    const lost = (reason: string) => {
      if (ours()) this.lost(reason);
    };
    const options: HandleOptions = {
      plugin: VIDEOROOM,
      success: (handle) => {
        if (this.closed || !ours()) return handle.detach();
        this.publisher = handle;
        const { room, feedId, token } = this.options.grant;
        // `display` is not shown to anyone: names come from /mesh.
        handle.send({
          message: { request: 'join', ptype: 'publisher', room, id: feedId, display: feedId, token },
        });
      },
      error: (err) => lost(String(err)),
      onmessage: (msg, jsep) => {
        if (ours()) this.onPublisherMessage(msg, jsep);
      },
      // Janus hung our publication up (ICE or DTLS failed, or the session is being torn down).
      webrtcState: (up) => {
        if (!up) lost('publisher hung up');
      },
      // A session destroyed from Janus's admin API tells the browser nothing: the media just stops
      // and the connection fails a few seconds later.
      connectionState: (state) => {
        if (state === 'failed') lost('publisher connection failed');
      },
      ondetached: () => lost('publisher detached'),
    };
    this.janus?.attach(options);
  }

  private onPublisherMessage(msg: Message, jsep?: JanusJS.JSEP) {
    if (this.closed) return;
    const event = msg.videoroom;
    if (event === 'joined') {
      this.privateId = msg.private_id;
      this.options.onJoined();
      this.publish();
      this.addPublishers(msg.publishers);
    } else if (event === 'event') {
      if (msg.error) {
        // Before `joined` a refusal (the token, the room) means no call; later ones only log.
        if (this.privateId === null) return this.lost(String(msg.error));
        console.error('Janus VideoRoom', msg.error);
      }
      this.addPublishers(msg.publishers);
      for (const gone of [msg.leaving, msg.unpublished]) {
        if (gone !== undefined && gone !== null && gone !== 'ok') this.removePublisher(String(gone));
      }
    } else if (event === 'talking' || event === 'stopped-talking') {
      const id = String(msg.id);
      if (event === 'talking') {
        this.speaking.add(id);
        if (id !== this.options.grant.feedId) this.lastSpeaker = id;
      } else this.speaking.delete(id);
      this.options.onChange();
    } else if (event === 'destroyed') {
      return this.lost('room destroyed');
    }
    if (jsep) this.publisher?.handleRemoteJsep({ jsep });
  }

  private publish() {
    const { audio, video } = this.options.tracks();
    const tracks: JanusJS.TrackOption[] = [];
    // dontStop: hanging up (a /mesh reconnection) must not stop the camera the next grant publishes.
    if (audio) tracks.push({ type: 'audio', capture: audio, recv: false, dontStop: true });
    if (video)
      tracks.push({ type: 'video', capture: video, recv: false, dontStop: true, framerate: MAX_FRAMERATE });
    this.publisher?.createOffer({
      tracks,
      success: (jsep) => this.publisher?.send({ message: { request: 'publish' }, jsep }),
      error: (err) => this.lost(`publish failed: ${String(err)}`),
    });
  }

  private addPublishers(list: unknown) {
    if (!Array.isArray(list)) return;
    for (const p of list as { id?: unknown; dummy?: unknown }[]) {
      if (p && p.id !== undefined && p.id !== null && !p.dummy) this.publishers.add(String(p.id));
    }
    this.sync();
  }

  private removePublisher(id: string) {
    this.publishers.delete(id);
    this.comingWithOffer.delete(id);
    this.speaking.delete(id);
    this.sync();
    this.options.onChange();
  }

  // --- subscriber -------------------------------------------------------------------------------

  /**
   * Brings the subscription in line with the publishers, one request at a time. What we receive is
   * what Janus's last `streams` said, never what we asked for: a subscription Janus skipped (its
   * publisher not set up yet) or a request answered out of turn is asked for again, not lost.
   */
  private sync() {
    if (this.closed || this.inflight || this.privateId === null) return;
    if (this.answering()) return;
    clearTimeout(this.retry);
    const wanted = [...this.publishers].filter((feed) => this.options.named(feed));
    if (!this.subscriberJoined) {
      // Not a subscriber in the room yet (the first time, or Janus refused the join, e.g. a feed
      // that had just left): join with everything wanted now; subscribe would be refused.
      if (wanted.length === 0) return;
      const streams = this.ask('join', wanted).map((feed) => ({ feed }));
      if (this.subscriber) return this.joinSubscriber(this.subscriber, streams);
      return this.attachSubscriber(streams);
    }
    const now = Date.now();
    const receiving = new Set([...this.carried.values()].map((c) => c.feed));
    for (const [feed, at] of this.comingWithOffer) {
      if (receiving.has(feed) || now - at >= ANSWER_TIMEOUT_MS) this.comingWithOffer.delete(feed);
      else receiving.add(feed);
    }
    // A stream Janus sends twice (asked for again after all): drop the later m-lines.
    const twice = duplicateMids(this.carried).filter((mid) => this.dueAt(`mid ${mid}`) <= now);
    if (twice.length > 0) {
      this.ask(
        'unsubscribe',
        twice.map((mid) => `mid ${mid}`),
      );
      return this.subscriber?.send({
        message: { request: 'unsubscribe', streams: twice.map((mid) => ({ sub_mid: mid })) },
      });
    }
    const missing = wanted.filter((feed) => !receiving.has(feed));
    const extra = [...receiving].filter((feed) => !wanted.includes(feed) && !this.comingWithOffer.has(feed));
    const add = missing.filter((feed) => this.dueAt(feed) <= now);
    const remove = extra.filter((feed) => this.dueAt(feed) <= now);
    if (add.length === 0 && remove.length === 0) {
      const next = Math.min(...[...missing, ...extra].map((feed) => this.dueAt(feed)));
      if (Number.isFinite(next)) this.retry = setTimeout(() => this.sync(), next - now);
      return;
    }
    const request = add.length > 0 ? 'subscribe' : 'unsubscribe';
    const streams = this.ask(request, add.length > 0 ? add : remove).map((feed) => ({ feed }));
    this.subscriber?.send({ message: { request, streams } });
  }

  /** An answer to Janus's offer is being made (given up on after ANSWER_TIMEOUT_MS). */
  private answering() {
    return this.answeringSince !== null && Date.now() - this.answeringSince < ANSWER_TIMEOUT_MS;
  }

  /** When a feed (or `mid <mid>`) asked about may be asked about again. */
  private dueAt(key: string) {
    return (this.asked.get(key) ?? Number.NEGATIVE_INFINITY) + ASK_AGAIN_MS;
  }

  /** Marks a request to Janus as under way (until its answer, or given up after ANSWER_TIMEOUT_MS). */
  private ask(request: string, feeds: string[]) {
    const now = Date.now();
    for (const feed of feeds) this.asked.set(feed, now);
    this.inflight = { feeds };
    this.lastAsked = { request, feeds };
    clearTimeout(this.answerTimeout);
    this.answerTimeout = setTimeout(() => {
      this.inflight = null;
      this.sync();
    }, ANSWER_TIMEOUT_MS);
    return feeds;
  }

  private attachSubscriber(streams: { feed: string }[]) {
    const generation = this.subscriberGeneration;
    const ours = () => generation === this.subscriberGeneration && !this.closed;
    const options: HandleOptions = {
      plugin: VIDEOROOM,
      success: (handle) => {
        if (!ours()) return handle.detach();
        this.subscriber = handle;
        this.joinSubscriber(handle, streams);
      },
      error: (err) => {
        if (ours()) this.lost(String(err));
      },
      onmessage: (msg, jsep) => {
        if (ours()) this.onSubscriberMessage(msg, jsep);
      },
      onremotetrack: (track, mid, on, metadata) => {
        if (!ours()) return;
        // janus.js calls a track that received nothing for 2.5 s (a stalled publisher) removed:
        // keep it, so the tile holds its last frame and plays on, instead of a rebuilt stream.
        if (!on && metadata?.reason === 'mute') return;
        if (on) this.trackOfMid.set(mid, track);
        else if (this.trackOfMid.get(mid) === track) this.trackOfMid.delete(mid);
        this.refreshStreams();
      },
      connectionState: (state) => {
        if (!ours()) return;
        if (state === 'failed') this.lost('subscriber connection failed');
        else this.options.onChange();
      },
    };
    this.janus?.attach(options);
  }

  private joinSubscriber(handle: JanusJS.PluginHandle, streams: { feed: string }[]) {
    const { room, token } = this.options.grant;
    handle.send({
      message: { request: 'join', ptype: 'subscriber', room, streams, private_id: this.privateId, token },
    });
  }

  private onSubscriberMessage(msg: Message, jsep?: JanusJS.JSEP) {
    if (this.closed) return;
    if (msg.videoroom === 'attached') this.subscriberJoined = true;
    if (msg.streams) {
      this.carried = applyStreams(this.carried, msg.streams);
      this.refreshStreams();
    }
    if (msg.error) {
      // Refused (a publisher that just left or is not up yet): what was asked may be asked again soon.
      console.error('Janus VideoRoom subscriber', msg.error);
      for (const feed of this.inflight?.feeds ?? []) this.asked.delete(feed);
      this.inflight = null;
      clearTimeout(this.answerTimeout);
      clearTimeout(this.retry);
      this.retry = setTimeout(() => this.sync(), RETRY_MS);
      return;
    }
    if (msg.videoroom === 'updating' && this.lastAsked?.request === 'subscribe') {
      // Added, but offered only after we answer the offer before: not to be asked for again.
      const now = Date.now();
      for (const feed of this.lastAsked.feeds) this.comingWithOffer.set(feed, now);
    }
    const answered = ['attached', 'updated', 'updating'].includes(String(msg.videoroom));
    if (answered) {
      this.inflight = null;
      clearTimeout(this.answerTimeout);
    }
    const handle = this.subscriber;
    if (jsep && handle) {
      this.answeringSince = Date.now();
      handle.createAnswer({
        jsep,
        tracks: [],
        success: (answer) => {
          if (handle !== this.subscriber) return;
          handle.send({ message: { request: 'start' }, jsep: answer });
          this.answeringSince = null;
          this.sync();
        },
        error: (err) => {
          if (handle === this.subscriber) this.lost(`subscription failed: ${String(err)}`);
        },
      });
    } else if (answered) this.sync();
  }

  /**
   * Looks at the frames each shown video m-line decoded. One that decoded none for NO_FRAMES_MS
   * while the connection is up is stuck however it got there (an offer answered out of turn, a
   * keyframe Janus never asked for): a new subscriber connection starts every stream afresh.
   */
  private async watchFrames() {
    const pc = this.subscriber?.webrtcStuff?.pc;
    if (this.closed || this.answering() || pc?.connectionState !== 'connected') return;
    const frames = new Map<string, number>();
    const report = await pc.getStats().catch(() => null);
    report?.forEach((r: { type?: string; kind?: string; mid?: string; framesDecoded?: number }) => {
      if (r.type === 'inbound-rtp' && r.kind === 'video' && r.mid !== undefined)
        frames.set(r.mid, r.framesDecoded ?? 0);
    });
    if (this.closed || pc !== this.subscriber?.webrtcStuff?.pc) return;
    const now = Date.now();
    const extra = new Set(duplicateMids(this.carried));
    const shown = new Set<string>();
    const stuck: string[] = [];
    for (const [mid, track] of this.trackOfMid) {
      const feed = this.carried.get(mid)?.feed;
      if (track.kind !== 'video' || feed === undefined || extra.has(mid)) continue;
      const key = `${mid} ${feed}`;
      shown.add(key);
      const first = this.videoWatch.get(key);
      if (first === 'decoding') continue;
      const count = frames.get(mid) ?? 0;
      if (!first) this.videoWatch.set(key, { since: now, frames: count });
      else if (count > first.frames) this.videoWatch.set(key, 'decoding');
      else if (now - first.since >= NO_FRAMES_MS) stuck.push(feed);
    }
    for (const key of this.videoWatch.keys()) if (!shown.has(key)) this.videoWatch.delete(key);
    if (stuck.length > 0 && now - this.rebuiltAt >= REBUILD_MS) this.rebuildSubscriber(stuck);
  }

  /** Hangs the subscriber connection up and joins again with every feed wanted now. */
  private rebuildSubscriber(stuck: string[]) {
    console.warn(
      'Janus subscriber: no video from',
      stuck.join(', '),
      `in ${NO_FRAMES_MS / 1000} s; reconnecting`,
    );
    this.rebuiltAt = Date.now();
    const old = this.subscriber;
    this.subscriberGeneration += 1;
    this.subscriber = null;
    this.subscriberJoined = false;
    this.inflight = null;
    this.lastAsked = null;
    this.answeringSince = null;
    this.asked.clear();
    this.comingWithOffer.clear();
    this.carried = new Map();
    this.trackOfMid.clear();
    this.videoWatch.clear();
    clearTimeout(this.answerTimeout);
    clearTimeout(this.retry);
    try {
      old?.hangup(true);
      old?.detach();
    } catch {
      // Already gone.
    }
    this.refreshStreams();
    this.sync();
  }

  /** One MediaStream per publisher, kept while its tracks stay the same (a new one re-renders). */
  private refreshStreams() {
    const next = new Map<string, MediaStream>();
    for (const [feed, tracks] of tracksByFeed(this.carried, this.trackOfMid)) {
      const old = this.streams.get(feed);
      const same =
        old && old.getTracks().length === tracks.length && tracks.every((t) => old.getTrackById(t.id) === t);
      next.set(feed, same ? old : new MediaStream(tracks));
    }
    this.streams = next;
    this.options.onChange();
  }

  private lost(reason: string) {
    if (this.closed) return;
    this.close();
    this.options.onLost(reason);
  }
}
