import { MESH_NAMESPACE } from '@cohort/shared/calls';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../test/chat-api.ts';
import { type FakeSocket, openedSockets } from '../../test/fake-socket.ts';
import { renderRoutes } from '../../test/render.tsx';
import MeshPage from './mesh-page.tsx';
import { ROOM_CLOSED, SFU_LOSS_GRACE_MS, SFU_LOST } from './use-mesh-call.ts';

vi.mock('../../lib/socket.ts', async (importOriginal) => {
  const { fakeConnectNamespace } = await import('../../test/fake-socket.ts');
  return { ...(await importOriginal<object>()), connectNamespace: fakeConnectNamespace };
});

interface JanusOptions {
  server: string;
  token: string;
  iceServers: RTCIceServer[];
  error: (err: unknown) => void;
}

/**
 * janus-gateway stands in only as far as this page's glue goes: the module counts being loaded and
 * records each session's options and teardown. No Janus protocol is played here (the walk-through
 * against a real Janus and the journey cover that).
 */
const janus = vi.hoisted(() => ({
  loads: 0,
  sessions: [] as { options: JanusOptions; destroyed: number }[],
}));
vi.mock('janus-gateway', () => {
  janus.loads += 1;
  class FakeJanus {
    destroyed = 0;
    static init(options: { callback: () => void }) {
      options.callback();
    }
    static useDefaultDependencies(deps: unknown) {
      return deps;
    }
    constructor(readonly options: JanusOptions) {
      janus.sessions.push(this);
    }
    attach() {}
    destroy() {
      this.destroyed += 1;
    }
  }
  return { default: FakeJanus };
});
vi.mock('webrtc-adapter', () => ({ default: {} }));

const stopped: string[] = [];
const constraints: unknown[] = [];
function fakeCamera() {
  const tracks = ['audio', 'video'].map((kind) => ({
    kind,
    id: kind,
    enabled: true,
    stop: () => stopped.push(kind),
    applyConstraints: async (c: unknown) => {
      constraints.push(c);
    },
  }));
  return {
    getTracks: () => tracks,
    getAudioTracks: () => tracks.filter((t) => t.kind === 'audio'),
    getVideoTracks: () => tracks.filter((t) => t.kind === 'video'),
  };
}

const grant = (token: string, feedId: string) => ({
  ok: true,
  sfu: { server: 'ws://janus.test:8188', token, room: 'cohort-r-1', feedId, max: 25 },
});
const bob = { id: 'sock-bob', email: 'bob@example.com', name: 'Bob Tester' };

beforeEach(() => {
  openedSockets.length = 0;
  stopped.length = 0;
  constraints.length = 0;
  janus.sessions.length = 0;
  vi.stubGlobal('navigator', {
    ...navigator,
    mediaDevices: { getUserMedia: vi.fn(async () => fakeCamera()) },
  });
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  vi.spyOn(HTMLMediaElement.prototype, 'srcObject', 'set').mockImplementation(() => {});
  vi.spyOn(HTMLMediaElement.prototype, 'srcObject', 'get').mockReturnValue(null);
  stubApi({
    'GET /api/calls/ice-servers': () => ({ json: { iceServers: [{ urls: 'stun:stun.test:3478' }] } }),
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function start(joinReply: unknown): Promise<FakeSocket> {
  renderRoutes([{ path: '/mesh', element: <MeshPage /> }], '/mesh?room=r-1');
  await userEvent.click(await screen.findByRole('button', { name: 'Start Call' }));
  await waitFor(() => expect(openedSockets.at(-1)?.namespace).toBe(MESH_NAMESPACE));
  const socket = openedSockets.at(-1) as FakeSocket;
  socket.respond('join', () => joinReply);
  socket.serverConnect();
  await waitFor(() => expect(socket.sent('get-users')).toHaveLength(1));
  return socket;
}

describe('SFU rooms on /mesh', () => {
  // First in this file: the module registry keeps janus-gateway once a later test loaded it.
  it('a mesh join (no grant) never loads janus-gateway', async () => {
    const socket = await start({ ok: true });
    expect(await screen.findByText('Waiting for others to join…')).toBeTruthy();
    await new Promise((r) => setTimeout(r, 50));
    expect(janus.loads).toBe(0);
    expect(janus.sessions).toHaveLength(0);
    expect(document.querySelector('[data-layout="speaker"]')).toBeNull();
    expect(constraints).toEqual([]);
    socket.disconnect();
  });

  it('a grant loads it and opens Janus with the server, the token and the ICE servers', async () => {
    const socket = await start(grant('token-1', 'sock-me'));
    await waitFor(() => expect(janus.sessions).toHaveLength(1));
    expect(janus.loads).toBe(1);
    const { options } = janus.sessions[0] as { options: JanusOptions };
    expect(options).toMatchObject({
      server: 'ws://janus.test:8188',
      token: 'token-1',
      iceServers: [{ urls: 'stun:stun.test:3478' }],
    });
    // The camera is shrunk before it is published.
    expect(constraints).toEqual([
      { width: { ideal: 640, max: 640 }, height: { ideal: 360, max: 360 }, frameRate: { max: 15 } },
    ]);

    // Participants come from /mesh, with their names; nobody is offered a mesh connection.
    socket.push('user-list', [bob]);
    const layout = await waitFor(() => {
      const el = document.querySelector('[data-layout="speaker"]');
      expect(el).not.toBeNull();
      return el as HTMLElement;
    });
    const tile = await within(layout).findByTestId('remote-tile');
    expect(tile.querySelector('figcaption')?.textContent).toContain('Bob Tester');
    // Nobody speaks yet: the first participant is large, we are small.
    expect(tile.dataset.size).toBe('large');
    expect(screen.getByTestId('local-video').closest('figure')?.dataset.size).toBe('small');
    expect(socket.sent('offer')).toEqual([]);
    socket.push('user-joined', { id: 'sock-cy', email: 'cy@example.com', name: 'Cy Tester' });
    await waitFor(() => expect(screen.getAllByTestId('remote-tile')).toHaveLength(2));
    socket.push('user-left', { id: 'sock-cy' });
    await waitFor(() => expect(screen.getAllByTestId('remote-tile')).toHaveLength(1));
    expect(await screen.findByText('2 people in the call')).toBeTruthy();
  });

  it('a /mesh drop tears Janus down; the next join sets it up with the new grant', async () => {
    const socket = await start(grant('token-1', 'sock-me-1'));
    await waitFor(() => expect(janus.sessions).toHaveLength(1));
    socket.push('user-list', [bob]);
    await screen.findByTestId('remote-tile');

    socket.serverDrop();
    expect(janus.sessions[0]?.destroyed).toBe(1);
    expect(screen.queryByTestId('remote-tile')).toBeNull();
    expect(stopped).toEqual([]);

    socket.respond('join', () => grant('token-2', 'sock-me-2'));
    socket.serverConnect();
    await waitFor(() => expect(janus.sessions).toHaveLength(2));
    expect(janus.sessions[1]?.options.token).toBe('token-2');

    // A full SFU room says its own size, not the mesh's six.
    socket.serverDrop();
    socket.respond('join', () => ({ ok: false, reason: 'room full' }));
    socket.serverConnect();
    expect((await screen.findByRole('alert')).textContent).toContain(
      'This call is full (at most 25 people).',
    );
    expect(janus.sessions[1]?.destroyed).toBe(1);
    expect(stopped.sort()).toEqual(['audio', 'video']);
  });

  it('Leave Call destroys the Janus session and releases the camera', async () => {
    await start(grant('token-1', 'sock-me'));
    await waitFor(() => expect(janus.sessions).toHaveLength(1));
    await userEvent.click(screen.getByRole('button', { name: 'Leave Call' }));
    expect(janus.sessions[0]?.destroyed).toBe(1);
    expect(stopped.sort()).toEqual(['audio', 'video']);
    expect(screen.getByRole('button', { name: 'Start Call' })).toBeTruthy();
  });

  it('a Janus connection that keeps failing ends the call with a message', async () => {
    await start(grant('token-1', 'sock-me'));
    // Three tries with the same grant, a second apart and then two.
    for (const tries of [1, 2, 3]) {
      await waitFor(() => expect(janus.sessions).toHaveLength(tries), { timeout: 3000 });
      janus.sessions[tries - 1]?.options.error('Error connecting to the Janus WebSockets server');
    }
    expect(janus.sessions.map((s) => s.options.token)).toEqual(['token-1', 'token-1', 'token-1']);
    expect(
      (await screen.findByRole('alert', {}, { timeout: SFU_LOSS_GRACE_MS + 1000 })).textContent,
    ).toContain(SFU_LOST);
    expect(stopped.sort()).toEqual(['audio', 'video']);
  }, 10_000);

  it('losing access ends Janus first, then room-closed explains it', async () => {
    const socket = await start(grant('token-1', 'sock-me'));
    await waitFor(() => expect(janus.sessions).toHaveLength(1));
    // The server revokes the token (Janus goes) before it sends room-closed.
    janus.sessions[0]?.options.error('session destroyed');
    socket.push('room-closed', { room: 'r-1', reason: 'forbidden' });
    expect((await screen.findByRole('alert')).textContent).toContain(ROOM_CLOSED);
    await new Promise((r) => setTimeout(r, SFU_LOSS_GRACE_MS + 200));
    expect(screen.getByRole('alert').textContent).not.toContain(SFU_LOST);
  });
});
