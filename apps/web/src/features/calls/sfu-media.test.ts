import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * SfuMedia's own bookkeeping of the subscriber handle, with janus-gateway replaced by handles that
 * record what is sent and let the test answer as the VideoRoom would. (The real exchange with Janus
 * is the SFU journey's: e2e/calls-sfu.spec.ts.)
 */
interface FakeHandle {
  sent: { request?: string; ptype?: string; streams?: unknown }[];
  options: {
    onmessage: (msg: Record<string, unknown>, jsep?: unknown) => void;
    onremotetrack?: (track: unknown, mid: string, on: boolean, metadata?: { reason: string }) => void;
    connectionState?: (state: string) => void;
  };
  /** The handle's peer connection: its state, and the frames each video mid decoded (getStats). */
  pc: { connectionState: string; framesDecoded: Map<string, number> };
  hungUp: boolean;
}
const handles = vi.hoisted(() => [] as FakeHandle[]);
/** Answers to Janus's offers held back until released (a page too busy to answer at once). */
const answers = vi.hoisted(() => ({ held: false, pending: [] as (() => void)[] }));
/** How many of the next connections to Janus fail (as a dropped WebSocket handshake does). */
const failing = vi.hoisted(() => ({ connects: 0, error: (_err: string) => {} }));
vi.mock('janus-gateway', () => {
  class FakeJanus {
    static init(options: { callback: () => void }) {
      options.callback();
    }
    static useDefaultDependencies(deps: unknown) {
      return deps;
    }
    constructor(options: { success: () => void; error: (err: string) => void }) {
      failing.error = options.error;
      if (failing.connects > 0) {
        failing.connects -= 1;
        queueMicrotask(() =>
          options.error('Error connecting to the Janus WebSockets server: Is the server down?'),
        );
      } else queueMicrotask(options.success);
    }
    attach(options: FakeHandle['options'] & { success: (h: unknown) => void }) {
      const pc = { connectionState: 'connected', framesDecoded: new Map<string, number>() };
      const record: FakeHandle = { sent: [], options, pc, hungUp: false };
      handles.push(record);
      const stats = () =>
        new Map(
          [...pc.framesDecoded].map(([mid, framesDecoded]) => [
            mid,
            { type: 'inbound-rtp', kind: 'video', mid, framesDecoded },
          ]),
        );
      options.success({
        webrtcStuff: {
          pc: {
            get connectionState() {
              return pc.connectionState;
            },
            getStats: async () => stats(),
          },
        },
        send: ({ message }: { message: FakeHandle['sent'][number] }) => record.sent.push(message),
        createOffer: () => {},
        createAnswer: ({ success }: { success: (jsep: unknown) => void }) => {
          const answer = () => success({ type: 'answer', sdp: '' });
          if (answers.held) answers.pending.push(answer);
          else answer();
        },
        handleRemoteJsep: () => {},
        hangup: () => {
          record.hungUp = true;
        },
        detach: () => {},
      });
    }
    destroy() {}
  }
  return { default: FakeJanus };
});
vi.mock('webrtc-adapter', () => ({ default: {} }));

const { SfuMedia } = await import('./sfu-media.ts');

const grant = { server: 'ws://janus.test', token: 't', room: 'cohort-r', feedId: 'f-me', max: 25 };

function newMedia(lost: string[]) {
  return new SfuMedia({
    grant,
    iceServers: [],
    tracks: () => ({}),
    onChange: () => {},
    onLost: (reason) => lost.push(reason),
    onJoined: () => {},
    named: () => true,
  });
}

async function joinedMedia() {
  const lost: string[] = [];
  const media = newMedia(lost);
  await media.start();
  await vi.waitFor(() => expect(handles).toHaveLength(1));
  const publisher = handles[0] as FakeHandle;
  publisher.options.onmessage({ videoroom: 'joined', private_id: 7, publishers: [{ id: 'f-bob' }] });
  return { media, publisher, lost };
}

/** jsdom has no MediaStream: one that holds its tracks is enough here. */
function stubMediaStream() {
  vi.stubGlobal(
    'MediaStream',
    class {
      constructor(private readonly tracks: { id: string }[]) {}
      getTracks() {
        return this.tracks;
      }
      getTrackById(id: string) {
        return this.tracks.find((t) => t.id === id) ?? null;
      }
    },
  );
}

beforeEach(() => {
  handles.length = 0;
  failing.connects = 0;
  answers.held = false;
  answers.pending.length = 0;
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('SfuMedia subscriptions', () => {
  it('joins as a subscriber with the first publishers, then subscribes to newcomers', async () => {
    const { publisher, media } = await joinedMedia();
    const subscriber = handles[1] as FakeHandle;
    expect(subscriber.sent).toEqual([expect.objectContaining({ request: 'join', ptype: 'subscriber' })]);
    expect(subscriber.sent[0]?.streams).toEqual([{ feed: 'f-bob' }]);

    subscriber.options.onmessage({ videoroom: 'attached', streams: [] }, { type: 'offer', sdp: '' });
    expect(subscriber.sent.at(-1)).toEqual({ request: 'start' });
    publisher.options.onmessage({ videoroom: 'event', publishers: [{ id: 'f-cy' }] });
    expect(subscriber.sent.at(-1)).toEqual({ request: 'subscribe', streams: [{ feed: 'f-cy' }] });
    media.close();
  });

  it('after a refused subscriber join it joins again (a subscribe would be refused too)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { publisher, media, lost } = await joinedMedia();
    const subscriber = handles[1] as FakeHandle;
    // Bob left between the list and the join: Janus refuses the whole join.
    subscriber.options.onmessage({ videoroom: 'event', error_code: 428, error: 'No such feed (f-bob)' });
    publisher.options.onmessage({ videoroom: 'event', leaving: 'f-bob' });
    publisher.options.onmessage({ videoroom: 'event', publishers: [{ id: 'f-cy' }] });
    vi.advanceTimersByTime(1000);
    expect(subscriber.sent.map((m) => m.request)).toEqual(['join', 'join']);
    expect(subscriber.sent[1]?.streams).toEqual([{ feed: 'f-cy' }]);
    expect(lost).toEqual([]);
    media.close();
  });

  /** Janus's offer carrying Bob on mid 0 and Cy on mid 1. */
  function offerBobAndCy(handle: FakeHandle, videoroom: 'attached' | 'updated') {
    handle.options.onmessage(
      {
        videoroom,
        streams: [
          { mid: '0', feed_id: 'f-bob', feed_mid: '0', active: true },
          { mid: '1', feed_id: 'f-cy', feed_mid: '0', active: true },
        ],
      },
      { type: 'offer', sdp: '' },
    );
  }

  /** Joined, receiving Bob; then Cy publishes and we ask Janus for her. */
  async function askingForCy() {
    const joined = await joinedMedia();
    const subscriber = handles[1] as FakeHandle;
    subscriber.options.onmessage(
      { videoroom: 'attached', streams: [{ mid: '0', feed_id: 'f-bob', active: true }] },
      { type: 'offer', sdp: '' },
    );
    joined.publisher.options.onmessage({ videoroom: 'event', publishers: [{ id: 'f-cy' }] });
    expect(subscriber.sent.at(-1)).toEqual({ request: 'subscribe', streams: [{ feed: 'f-cy' }] });
    const asksForCy = () => subscriber.sent.filter((m) => m.request === 'subscribe').length;
    return { ...joined, subscriber, asksForCy };
  }

  it('a subscription Janus answers with no change (its publisher not up yet) is asked for again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { media, subscriber, asksForCy } = await askingForCy();
    // Janus skipped Cy: `updated` with neither streams nor an offer.
    subscriber.options.onmessage({ videoroom: 'updated', room: 'cohort-r' });
    expect(asksForCy()).toBe(1);
    vi.advanceTimersByTime(3000);
    expect(asksForCy()).toBe(2);
    // This time Janus has her: nothing more is asked.
    subscriber.options.onmessage(
      {
        videoroom: 'updated',
        streams: [
          { mid: '0', feed_id: 'f-bob', active: true },
          { mid: '1', feed_id: 'f-cy', active: true },
        ],
      },
      { type: 'offer', sdp: '' },
    );
    vi.advanceTimersByTime(30_000);
    expect(asksForCy()).toBe(2);
    expect(subscriber.sent.at(-1)).toEqual({ request: 'start' });
    media.close();
  });

  it('an offer Janus makes on its own while a subscription is asked for does not lose that subscription', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { media, subscriber, asksForCy, publisher, lost } = await askingForCy();
    // Bob leaves: Janus offers his m-line as inactive, then refuses Cy (not set up yet).
    subscriber.options.onmessage(
      { videoroom: 'updated', streams: [{ mid: '0', active: false }] },
      { type: 'offer', sdp: '' },
    );
    publisher.options.onmessage({ videoroom: 'event', leaving: 'f-bob' });
    subscriber.options.onmessage({ videoroom: 'event', error_code: 428, error: 'No such feed (f-cy)' });
    vi.advanceTimersByTime(3000);
    expect(asksForCy()).toBe(2);
    expect(subscriber.sent.at(-1)).toEqual({ request: 'subscribe', streams: [{ feed: 'f-cy' }] });
    expect(lost).toEqual([]);
    media.close();
  });

  it('a subscription change Janus never answers is given up and asked for again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { media, asksForCy } = await askingForCy();
    vi.advanceTimersByTime(29_000);
    expect(asksForCy()).toBe(1);
    vi.advanceTimersByTime(1_000);
    expect(asksForCy()).toBe(2);
    media.close();
  });

  it('nothing is asked while an offer is being answered, and a feed Janus added for its next offer is not asked for twice', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { media, subscriber, publisher } = await askingForCy();
    // A busy page: Janus answers the subscription for Cy with an offer we are slow to answer.
    answers.held = true;
    offerBobAndCy(subscriber, 'updated');
    // Dee publishes meanwhile: she is asked for only once the answer is sent (Janus would postpone it).
    publisher.options.onmessage({ videoroom: 'event', publishers: [{ id: 'f-dee' }] });
    vi.advanceTimersByTime(5000);
    const subscribes = () => subscriber.sent.filter((m) => m.request === 'subscribe');
    expect(subscribes()).toHaveLength(1);
    (answers.pending.shift() as () => void)();
    expect(subscriber.sent.at(-2)).toEqual({ request: 'start' });
    expect(subscriber.sent.at(-1)).toEqual({ request: 'subscribe', streams: [{ feed: 'f-dee' }] });

    // Janus made an offer of its own (Bob's camera) before reading our answer: it adds Dee and
    // says `updating`; her m-line comes with its next offer. Asking again would add her twice.
    subscriber.options.onmessage({ videoroom: 'updated' }, { type: 'offer', sdp: '' });
    subscriber.options.onmessage({ videoroom: 'updating' });
    vi.advanceTimersByTime(10_000);
    (answers.pending.shift() as () => void)();
    vi.advanceTimersByTime(10_000);
    expect(subscribes().map((m) => m.streams)).toEqual([[{ feed: 'f-cy' }], [{ feed: 'f-dee' }]]);
    media.close();
  });

  it('an answer janus.js never finishes holds changes back for 30 s, not for ever', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { media, subscriber, publisher } = await askingForCy();
    answers.held = true;
    subscriber.options.onmessage(
      { videoroom: 'updated', streams: [{ mid: '1', feed_id: 'f-cy', feed_mid: '0', active: true }] },
      { type: 'offer', sdp: '' },
    );
    publisher.options.onmessage({ videoroom: 'event', publishers: [{ id: 'f-dee' }] });
    await vi.advanceTimersByTimeAsync(29_000);
    publisher.options.onmessage({ videoroom: 'event', publishers: [{ id: 'f-eve' }] });
    expect(subscriber.sent.at(-1)).toEqual({ request: 'subscribe', streams: [{ feed: 'f-cy' }] });
    await vi.advanceTimersByTimeAsync(1_000);
    publisher.options.onmessage({ videoroom: 'event', publishers: [{ id: 'f-eve' }] });
    expect(subscriber.sent.at(-1)).toEqual({
      request: 'subscribe',
      streams: [{ feed: 'f-dee' }, { feed: 'f-eve' }],
    });
    media.close();
  });

  it('a stream Janus sends on two m-lines is shown once and the later m-line is dropped', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    stubMediaStream();
    const { media, subscriber } = await askingForCy();
    subscriber.options.onmessage(
      {
        videoroom: 'updated',
        streams: [
          { mid: '0', feed_id: 'f-bob', feed_mid: '0', active: true },
          { mid: '1', feed_id: 'f-cy', feed_mid: '0', active: true },
          { mid: '2', feed_id: 'f-cy', feed_mid: '0', active: true },
        ],
      },
      { type: 'offer', sdp: '' },
    );
    const first = { id: 'cy-video', kind: 'video' };
    subscriber.options.onremotetrack?.(first, '1', true, { reason: 'created' });
    subscriber.options.onremotetrack?.({ id: 'cy-video-2', kind: 'video' }, '2', true, { reason: 'created' });
    expect(media.streamOf('f-cy')?.getTracks()).toEqual([first]);
    expect(subscriber.sent.at(-1)).toEqual({ request: 'unsubscribe', streams: [{ sub_mid: '2' }] });
    // Janus takes it away: the m-line goes inactive; nothing more is asked.
    subscriber.options.onmessage(
      { videoroom: 'updated', streams: [{ mid: '2', active: false }] },
      { type: 'offer', sdp: '' },
    );
    vi.advanceTimersByTime(10_000);
    expect(subscriber.sent.filter((m) => m.request === 'unsubscribe')).toHaveLength(1);
    expect(media.streamOf('f-cy')?.getTracks()).toEqual([first]);
    media.close();
  });

  it('a video m-line that decodes no frame for 30 s gets a new subscriber connection with every feed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    stubMediaStream();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { media, subscriber, lost } = await askingForCy();
    offerBobAndCy(subscriber, 'updated');
    subscriber.options.onremotetrack?.({ id: 'bob-video', kind: 'video' }, '0', true, { reason: 'created' });
    subscriber.options.onremotetrack?.({ id: 'cy-video', kind: 'video' }, '1', true, { reason: 'created' });
    // Bob's video decodes; Cy's m-line receives nothing.
    for (let second = 0; second < 30; second += 5) {
      subscriber.pc.framesDecoded.set('0', second * 5);
      await vi.advanceTimersByTimeAsync(5000);
    }
    expect(handles).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(5000);

    expect(subscriber.hungUp).toBe(true);
    const rebuilt = handles[2] as FakeHandle;
    expect(rebuilt.sent).toEqual([expect.objectContaining({ request: 'join', ptype: 'subscriber' })]);
    expect(rebuilt.sent[0]?.streams).toEqual([{ feed: 'f-bob' }, { feed: 'f-cy' }]);
    expect(media.streamOf('f-bob')).toBeNull();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('no video from'), 'f-cy', expect.any(String));
    // The old connection closing is not the call failing, and its late messages change nothing.
    subscriber.options.connectionState?.('failed');
    subscriber.options.onmessage({
      videoroom: 'updated',
      streams: [{ mid: '5', feed_id: 'f-x', active: true }],
    });
    expect(lost).toEqual([]);
    expect(rebuilt.sent).toHaveLength(1);

    // The new connection carries both; Cy's video stays black: not rebuilt again within a minute.
    offerBobAndCy(rebuilt, 'attached');
    expect(rebuilt.sent.at(-1)).toEqual({ request: 'start' });
    rebuilt.options.onremotetrack?.({ id: 'cy-video-2', kind: 'video' }, '1', true, { reason: 'created' });
    await vi.advanceTimersByTimeAsync(50_000);
    expect(handles).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(handles).toHaveLength(4);
    media.close();
  });

  it('video that decodes, however slowly, never rebuilds the subscriber connection', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    stubMediaStream();
    const { media } = await joinedMedia();
    const subscriber = handles[1] as FakeHandle;
    subscriber.options.onmessage(
      { videoroom: 'attached', streams: [{ mid: '0', feed_id: 'f-bob', feed_mid: '0', active: true }] },
      { type: 'offer', sdp: '' },
    );
    subscriber.options.onremotetrack?.({ id: 'bob-video', kind: 'video' }, '0', true, { reason: 'created' });
    // Its first frame after 25 s (a starved page), then none for minutes (a still screen).
    await vi.advanceTimersByTimeAsync(25_000);
    subscriber.pc.framesDecoded.set('0', 1);
    await vi.advanceTimersByTimeAsync(300_000);
    expect(handles).toHaveLength(2);
    expect(subscriber.hungUp).toBe(false);
    media.close();
  });

  it('a track janus.js reports muted (nothing received for a while) stays in the stream; an ended one goes', async () => {
    stubMediaStream();
    const { media } = await joinedMedia();
    const subscriber = handles[1] as FakeHandle;
    subscriber.options.onmessage(
      { videoroom: 'attached', streams: [{ mid: '0', feed_id: 'f-bob', active: true }] },
      { type: 'offer', sdp: '' },
    );
    const video = { id: 'bob-video', kind: 'video' };
    subscriber.options.onremotetrack?.(video, '0', true, { reason: 'created' });
    const stream = media.streamOf('f-bob');
    expect(stream?.getTracks()).toEqual([video]);

    // Bob's camera stalled: the same stream, so his tile's <video> keeps playing when packets resume.
    subscriber.options.onremotetrack?.(video, '0', false, { reason: 'mute' });
    expect(media.streamOf('f-bob')).toBe(stream);
    subscriber.options.onremotetrack?.(video, '0', true, { reason: 'unmute' });
    expect(media.streamOf('f-bob')).toBe(stream);

    subscriber.options.onremotetrack?.(video, '0', false, { reason: 'ended' });
    expect(media.streamOf('f-bob')).toBeNull();
    media.close();
  });

  it('a connection to Janus that fails before joining is tried again; the third failure ends the call', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    failing.connects = 1;
    const lost: string[] = [];
    const media = newMedia(lost);
    await media.start();
    await Promise.resolve();
    expect(handles).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1000);
    // The second connection is up: the publisher joins under the granted feed.
    expect(handles).toHaveLength(1);
    expect(handles[0]?.sent[0]).toMatchObject({ request: 'join', ptype: 'publisher', id: 'f-me' });
    expect(lost).toEqual([]);
    media.close();

    failing.connects = 3;
    const given: string[] = [];
    const hopeless = newMedia(given);
    await hopeless.start();
    await vi.advanceTimersByTimeAsync(5000);
    expect(handles).toHaveLength(1);
    expect(given).toEqual(['Error connecting to the Janus WebSockets server: Is the server down?']);
  });

  it('a connection lost once in the room ends the call at once', async () => {
    const { media, lost } = await joinedMedia();
    failing.error('Lost connection to the server (is it down?)');
    expect(lost).toEqual(['Lost connection to the server (is it down?)']);
    media.close();
  });
});
