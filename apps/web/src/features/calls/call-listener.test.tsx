import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../test/chat-api.ts';
import { type FakeSocket, openedSockets } from '../../test/fake-socket.ts';
import { renderRoutes } from '../../test/render.tsx';
import { CallListener } from './call-listener.tsx';

vi.mock('../../lib/socket.ts', async (importOriginal) => {
  const { fakeConnectNamespace } = await import('../../test/fake-socket.ts');
  return { ...(await importOriginal<object>()), connectNamespace: fakeConnectNamespace };
});

const BOB = 'bob@example.com';
const OFFER = { type: 'offer', sdp: 'offer-sdp' };

/** Just enough of RTCPeerConnection for an accepted call. */
class FakePeerConnection {
  remoteDescription: unknown = null;
  connectionState = 'new';
  onicecandidate = null;
  ontrack = null;
  onconnectionstatechange = null;
  addTrack() {}
  getSenders() {
    return [];
  }
  async setRemoteDescription(d: unknown) {
    this.remoteDescription = d;
  }
  async addIceCandidate() {}
  async createAnswer() {
    return { type: 'answer', sdp: 'answer-sdp' };
  }
  async setLocalDescription() {}
  close() {}
}

beforeEach(() => {
  openedSockets.length = 0;
  vi.stubGlobal('RTCPeerConnection', FakePeerConnection);
  const tracks = ['audio', 'video'].map((kind) => ({ kind, enabled: true, stop: () => {} }));
  const camera = {
    getTracks: () => tracks,
    getAudioTracks: () => tracks.filter((t) => t.kind === 'audio'),
    getVideoTracks: () => tracks.filter((t) => t.kind === 'video'),
  };
  vi.stubGlobal('navigator', { ...navigator, mediaDevices: { getUserMedia: async () => camera } });
  vi.stubGlobal('AudioContext', undefined);
  stubApi({ 'GET /api/calls/ice-servers': () => ({ json: { iceServers: [] } }) });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function onDashboard() {
  // As in the app: the signed-in layout mounts the listener once, above every page.
  const view = renderRoutes(
    [
      {
        element: (
          <>
            <CallListener userId="me" />
            <Outlet />
          </>
        ),
        children: [
          { path: '/dashboard', element: <h1>Dashboard</h1> },
          { path: '/video', element: <h1>Video page</h1> },
        ],
      },
    ],
    '/dashboard',
  );
  await waitFor(() => expect(openedSockets.at(-1)?.namespace).toBe('/video'));
  const socket = openedSockets.at(-1) as FakeSocket;
  socket.serverConnect();
  return { ...view, socket };
}

const dialog = () => screen.queryByRole('alertdialog', { name: 'Incoming call from Bob Builder' });

describe('CallListener (calls ring on every page)', () => {
  it('shows the caller by name; Decline tells the caller', async () => {
    const { socket } = await onDashboard();
    expect(dialog()).toBeNull();
    socket.push('incoming-call', { from: BOB, name: 'Bob Builder', offer: OFFER });
    expect(await screen.findByRole('alertdialog', { name: 'Incoming call from Bob Builder' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Decline' }));
    expect(socket.sent('reject-call')).toEqual([{ to: BOB }]);
    await waitFor(() => expect(dialog()).toBeNull());
  });

  it('stops ringing when the call is answered in another tab, or rings out', async () => {
    const { socket } = await onDashboard();
    socket.push('incoming-call', { from: BOB, name: 'Bob Builder', offer: OFFER });
    await screen.findByRole('alertdialog', { name: 'Incoming call from Bob Builder' });
    // Someone else's call answered elsewhere changes nothing.
    socket.push('answered-elsewhere', { from: 'someone@example.com' });
    expect(dialog()).not.toBeNull();
    socket.push('answered-elsewhere', { from: BOB });
    await waitFor(() => expect(dialog()).toBeNull());
    expect(socket.sent('reject-call')).toEqual([]);

    socket.push('incoming-call', { from: BOB, name: 'Bob Builder', offer: OFFER });
    await screen.findByRole('alertdialog', { name: 'Incoming call from Bob Builder' });
    socket.push('call-missed', { from: BOB });
    await waitFor(() => expect(dialog()).toBeNull());
  });

  it('Accept opens /video and answers on the same connection', async () => {
    const { socket, router } = await onDashboard();
    socket.respond('accept-call', () => ({ ok: true }));
    socket.push('incoming-call', { from: BOB, name: 'Bob Builder', offer: OFFER });
    await userEvent.click(await screen.findByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/video'));
    await waitFor(() =>
      expect(socket.sent('accept-call')).toEqual([
        { to: BOB, answer: { type: 'answer', sdp: 'answer-sdp' } },
      ]),
    );
    expect(openedSockets.filter((s) => s.namespace === '/video')).toHaveLength(1);
  });
});
