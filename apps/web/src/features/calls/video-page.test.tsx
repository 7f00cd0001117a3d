import { VIDEO_NAMESPACE } from '@cohort/shared/calls';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../test/chat-api.ts';
import { type FakeSocket, openedSockets } from '../../test/fake-socket.ts';
import { renderRoutes } from '../../test/render.tsx';
import { ME, meResponse } from '../workspaces/test-data.ts';
import VideoPage from './video-page.tsx';

vi.mock('../../lib/socket.ts', async (importOriginal) => {
  const { fakeConnectNamespace } = await import('../../test/fake-socket.ts');
  return { ...(await importOriginal<object>()), connectNamespace: fakeConnectNamespace };
});

const BOB = 'bob@example.com';
const OFFER = { type: 'offer', sdp: 'offer-sdp' };
const candidate = (name: string) => ({ candidate: name, sdpMid: '0', sdpMLineIndex: 0 });

/** Stands in for RTCPeerConnection: records what the call does to it, in order. */
class FakePeerConnection {
  static last: FakePeerConnection | undefined;
  readonly log: string[] = [];
  remoteDescription: unknown = null;
  connectionState = 'new';
  closed = false;
  onicecandidate: ((e: { candidate: unknown }) => void) | null = null;
  ontrack: unknown = null;
  onconnectionstatechange: (() => void) | null = null;
  constructor() {
    FakePeerConnection.last = this;
  }
  addTrack() {}
  getSenders() {
    return [];
  }
  getTransceivers() {
    return [];
  }
  async setRemoteDescription(d: unknown) {
    this.remoteDescription = d;
    this.log.push('remote description');
  }
  async addIceCandidate(c: { candidate: string }) {
    this.log.push(`add ${c.candidate}`);
  }
  async createOffer() {
    return OFFER;
  }
  async createAnswer() {
    return { type: 'answer', sdp: 'answer-sdp' };
  }
  async setLocalDescription() {}
  close() {
    this.closed = true;
  }
  /** The browser found a local candidate. */
  gather(name: string) {
    this.onicecandidate?.({ candidate: { toJSON: () => candidate(name) } });
  }
}

const stopped: string[] = [];
function fakeCamera() {
  const tracks = ['audio', 'video'].map((kind) => ({ kind, enabled: true, stop: () => stopped.push(kind) }));
  return {
    getTracks: () => tracks,
    getAudioTracks: () => tracks.filter((t) => t.kind === 'audio'),
    getVideoTracks: () => tracks.filter((t) => t.kind === 'video'),
  };
}

beforeEach(() => {
  openedSockets.length = 0;
  stopped.length = 0;
  FakePeerConnection.last = undefined;
  vi.stubGlobal('RTCPeerConnection', FakePeerConnection);
  vi.stubGlobal('navigator', { ...navigator, mediaDevices: { getUserMedia: async () => fakeCamera() } });
  // No WebAudio here: the ringing stays silent.
  vi.stubGlobal('AudioContext', undefined);
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  vi.spyOn(HTMLMediaElement.prototype, 'srcObject', 'set').mockImplementation(() => {});
  vi.spyOn(HTMLMediaElement.prototype, 'srcObject', 'get').mockReturnValue(null);
  stubApi({
    'GET /api/me': () => ({ json: meResponse }),
    'GET /api/calls/ice-servers': () => ({ json: { iceServers: [] } }),
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function open(): Promise<FakeSocket> {
  renderRoutes([{ path: '/video', element: <VideoPage /> }], '/video');
  await screen.findByText(ME.email);
  await waitFor(() => expect(openedSockets.at(-1)?.namespace).toBe(VIDEO_NAMESPACE));
  const socket = openedSockets.at(-1) as FakeSocket;
  socket.serverConnect();
  return socket;
}

const phase = () => screen.getByTestId('video-call').getAttribute('data-phase');

describe('/video', () => {
  it('shows Your ID and refuses a blank callee', async () => {
    const socket = await open();
    expect(screen.getByText('Your ID:').textContent).toContain(ME.email);
    await userEvent.click(screen.getByRole('button', { name: 'Call' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Please enter a user ID to call');
    expect(socket.sent('initiate-call')).toEqual([]);
  });

  it('a busy callee: the caller is told and everything is released', async () => {
    const socket = await open();
    socket.respond('initiate-call', () => ({ ok: false, reason: 'busy' }));
    await userEvent.type(screen.getByPlaceholderText('Enter email ID to call'), BOB);
    await userEvent.click(screen.getByRole('button', { name: 'Call' }));
    expect((await screen.findByRole('alert')).textContent).toContain(`${BOB} is busy in another call`);
    expect(socket.sent('initiate-call')).toEqual([{ toEmail: BOB, offer: OFFER }]);
    expect(phase()).toBe('idle');
    expect(FakePeerConnection.last?.closed).toBe(true);
    expect(stopped.sort()).toEqual(['audio', 'video']);
  });

  it('callee: candidates that arrive while ringing wait for the offer; ours wait for the accept; a failed connection ends the call', async () => {
    const socket = await open();
    socket.push('incoming-call', { from: BOB, offer: OFFER });
    expect(await screen.findByRole('heading', { name: `Incoming call from ${BOB}` })).toBeTruthy();
    socket.push('candidate', { from: BOB, candidate: candidate('early') });
    // Not the other party: ignored.
    socket.push('candidate', { from: 'eve@example.com', candidate: candidate('injected') });

    let ack: (reply: unknown) => void = () => {};
    socket.respond('accept-call', () => new Promise((resolve) => (ack = resolve)));
    await userEvent.click(screen.getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(socket.sent('accept-call')).toHaveLength(1));
    const pc = FakePeerConnection.last as FakePeerConnection;
    expect(pc.log).toEqual(['remote description', 'add early']);

    // Gathered before the server confirmed the call: held, then sent in order.
    pc.gather('local-1');
    expect(socket.sent('candidate')).toEqual([]);
    ack({ ok: true });
    await waitFor(() =>
      expect(socket.sent('candidate')).toEqual([{ to: BOB, candidate: candidate('local-1') }]),
    );
    pc.gather('local-2');
    expect(socket.sent('candidate')).toHaveLength(2);
    socket.push('candidate', { from: BOB, candidate: candidate('late') });
    await waitFor(() => expect(pc.log).toContain('add late'));
    expect(pc.log).not.toContain('add injected');
    expect(phase()).toBe('in-call');

    pc.connectionState = 'failed';
    pc.onconnectionstatechange?.();
    await waitFor(() => expect(phase()).toBe('idle'));
    expect(socket.sent('end-call')).toEqual([{ to: BOB }]);
    expect(pc.closed).toBe(true);
    expect(stopped.sort()).toEqual(['audio', 'video']);
    expect(screen.getByRole('alert').textContent).toContain('the connection was lost');
  });

  it('callee: Reject tells the caller; the remote end stops a ringing call', async () => {
    const socket = await open();
    socket.push('incoming-call', { from: BOB, offer: OFFER });
    await userEvent.click(await screen.findByRole('button', { name: 'Reject' }));
    expect(socket.sent('reject-call')).toEqual([{ to: BOB }]);
    expect(phase()).toBe('idle');

    socket.push('incoming-call', { from: BOB, offer: OFFER });
    await screen.findByRole('button', { name: 'Accept' });
    socket.push('call-ended', { from: BOB });
    expect(screen.queryByRole('button', { name: 'Accept' })).toBeNull();
    expect(phase()).toBe('idle');
  });
});
