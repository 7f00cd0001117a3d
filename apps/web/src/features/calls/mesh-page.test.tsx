import { MESH_NAMESPACE } from '@cohort/shared/calls';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../test/chat-api.ts';
import { type FakeSocket, openedSockets } from '../../test/fake-socket.ts';
import { renderRoutes } from '../../test/render.tsx';
import MeshPage from './mesh-page.tsx';
import { ROOM_CLOSED } from './use-mesh-call.ts';

vi.mock('../../lib/socket.ts', async (importOriginal) => {
  const { fakeConnectNamespace } = await import('../../test/fake-socket.ts');
  return { ...(await importOriginal<object>()), connectNamespace: fakeConnectNamespace };
});

const stopped: string[] = [];
/** A camera stream with one audio and one video track that record being stopped. */
function fakeCamera() {
  const tracks = ['audio', 'video'].map((kind) => ({ kind, enabled: true, stop: () => stopped.push(kind) }));
  return {
    getTracks: () => tracks,
    getAudioTracks: () => tracks.filter((t) => t.kind === 'audio'),
    getVideoTracks: () => tracks.filter((t) => t.kind === 'video'),
  };
}

let getUserMedia: ReturnType<typeof vi.fn>;

beforeEach(() => {
  openedSockets.length = 0;
  stopped.length = 0;
  getUserMedia = vi.fn(async () => fakeCamera());
  vi.stubGlobal('navigator', { ...navigator, mediaDevices: { getUserMedia } });
  // The DOM here has no real MediaStream: the tiles' srcObject and play() are inert.
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  vi.spyOn(HTMLMediaElement.prototype, 'srcObject', 'set').mockImplementation(() => {});
  vi.spyOn(HTMLMediaElement.prototype, 'srcObject', 'get').mockReturnValue(null);
  stubApi({
    'POST /api/calls/rooms': () => ({ status: 201, json: { roomId: 'r-1', url: '/mesh?room=r-1' } }),
    'GET /api/calls/ice-servers': () => ({ json: { iceServers: [] } }),
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const render = (path: string) => renderRoutes([{ path: '/mesh', element: <MeshPage /> }], path);

/** Start Call, then the page's `/mesh` socket connects and asks to join. */
async function start(joinReply: unknown): Promise<FakeSocket> {
  await userEvent.click(await screen.findByRole('button', { name: 'Start Call' }));
  await waitFor(() => expect(openedSockets.at(-1)?.namespace).toBe(MESH_NAMESPACE));
  const socket = openedSockets.at(-1) as FakeSocket;
  socket.respond('join', () => joinReply);
  socket.serverConnect();
  await waitFor(() => expect(socket.sent('join')).toEqual([{ room: 'r-1' }]));
  return socket;
}

describe('/mesh', () => {
  it('creates a room when the URL has none and puts it in the URL', async () => {
    const { router } = render('/mesh');
    expect(screen.getByRole('heading', { name: 'Mesh video call' })).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toBe('?room=r-1'));
    expect(await screen.findByRole('button', { name: 'Copy Link' })).toBeTruthy();
    expect(screen.getByLabelText('You video')).toHaveProperty('muted', true);
  });

  it('joins the room on Start Call and asks who is there', async () => {
    render('/mesh?room=r-1');
    const socket = await start({ ok: true });
    await waitFor(() => expect(socket.sent('get-users')).toHaveLength(1));
    expect(await screen.findByText('Waiting for others to join…')).toBeTruthy();
    expect(getUserMedia).toHaveBeenCalledWith({
      video: { width: { ideal: 640 }, height: { ideal: 480 } },
      audio: true,
    });
  });

  it('a full room is refused with a message, and the camera is released', async () => {
    render('/mesh?room=r-1');
    const socket = await start({ ok: false, reason: 'room full' });
    expect((await screen.findByRole('alert')).textContent).toContain('This call is full.');
    expect(screen.getByRole('button', { name: 'Start Call' })).toBeTruthy();
    expect(socket.connected).toBe(false);
    expect(stopped.sort()).toEqual(['audio', 'video']);
  });

  it('room-closed (access lost) ends the call with a message', async () => {
    render('/mesh?room=r-1');
    const socket = await start({ ok: true });
    await screen.findByText('Waiting for others to join…');
    socket.push('room-closed', { room: 'r-1', reason: 'forbidden' });
    expect((await screen.findByRole('alert')).textContent).toContain(ROOM_CLOSED);
    expect(screen.getByRole('button', { name: 'Start Call' })).toBeTruthy();
    expect(stopped.sort()).toEqual(['audio', 'video']);
  });

  it('a reconnection refused because access ended meanwhile says the person was removed', async () => {
    render('/mesh?room=r-1');
    const socket = await start({ ok: true });
    await screen.findByText('Waiting for others to join…');
    // The connection dropped, and the removal happened before it came back: no room-closed.
    socket.serverDrop();
    socket.respond('join', () => ({ ok: false, reason: 'forbidden' }));
    socket.serverConnect();
    expect((await screen.findByRole('alert')).textContent).toContain(ROOM_CLOSED);
    expect(screen.getByRole('button', { name: 'Start Call' })).toBeTruthy();
    expect(stopped.sort()).toEqual(['audio', 'video']);
  });

  it('says so when the camera or microphone cannot be opened', async () => {
    getUserMedia.mockRejectedValue(new DOMException('denied', 'NotAllowedError'));
    render('/mesh?room=r-1');
    await userEvent.click(await screen.findByRole('button', { name: 'Start Call' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Cannot access camera or microphone');
    expect(openedSockets.filter((s) => s.namespace === MESH_NAMESPACE)).toHaveLength(0);
  });
});
