import { PRESENCE_EVENTS } from '@cohort/shared/presence';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../test/chat-api.ts';
import { type FakeSocket, openedSockets } from '../../test/fake-socket.ts';
import { renderAt } from '../../test/render.tsx';
import { BOB, ME } from '../workspaces/test-data.ts';
import { PresenceDot } from './presence-dot.tsx';
import { resetPresence } from './presence-store.ts';
import { usePresence, usePresenceConnection, useWorkspacePresence } from './use-presence.ts';

vi.mock('../../lib/socket.ts', async (importOriginal) => {
  const { fakeConnectNamespace } = await import('../../test/fake-socket.ts');
  return { ...(await importOriginal<object>()), connectNamespace: fakeConnectNamespace };
});

const PRESENCE = '/api/workspaces/team/presence';
let statuses: Record<string, string> = {};

function Harness({ idleAfterMs = 60_000 }: { idleAfterMs?: number }) {
  usePresenceConnection(ME._id, { idleAfterMs, hiddenIdleAfterMs: 30 });
  useWorkspacePresence('team');
  return (
    <p>
      Bob <PresenceDot status={usePresence(BOB._id)} />
    </p>
  );
}

function setup(props: { idleAfterMs?: number } = {}) {
  const api = stubApi({ [`GET ${PRESENCE}`]: () => ({ json: statuses }) });
  renderAt('/', <Harness {...props} />);
  return api;
}

async function presenceSocket(): Promise<FakeSocket> {
  await waitFor(() => expect(openedSockets.length).toBe(1));
  const socket = openedSockets[0] as FakeSocket;
  expect(socket.namespace).toBe('/presence');
  return socket;
}

let visibility: DocumentVisibilityState = 'visible';

beforeEach(() => {
  openedSockets.length = 0;
  statuses = { [ME._id]: 'online', [BOB._id]: 'offline' };
  resetPresence();
  visibility = 'visible';
  vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('presence in the web app', () => {
  it('starts from the workspace statuses and follows live changes', async () => {
    setup();
    const socket = await presenceSocket();
    socket.serverConnect();
    expect(await screen.findByRole('img', { name: 'offline' })).toBeTruthy();
    socket.push(PRESENCE_EVENTS.changed, { userId: BOB._id, status: 'online' });
    expect(screen.getByRole('img', { name: 'online' })).toBeTruthy();
    socket.push(PRESENCE_EVENTS.changed, { userId: BOB._id, status: 'away' });
    expect(screen.getByRole('img', { name: 'away' })).toBeTruthy();
  });

  it('fetches the statuses again after a reconnection (changes may have been missed)', async () => {
    const api = setup();
    const socket = await presenceSocket();
    socket.serverConnect();
    expect(await screen.findByRole('img', { name: 'offline' })).toBeTruthy();
    const fetches = () => api.calls.filter((c) => c.path === PRESENCE).length;
    const before = fetches();
    socket.serverDrop();
    statuses = { ...statuses, [BOB._id]: 'away' };
    socket.serverConnect();
    expect(await screen.findByRole('img', { name: 'away' })).toBeTruthy();
    expect(fetches()).toBe(before + 1);
  });

  it('reports the tab idle without input, active again on input', async () => {
    setup({ idleAfterMs: 40 });
    const socket = await presenceSocket();
    socket.serverConnect();
    await waitFor(() => expect(socket.sent(PRESENCE_EVENTS.activity)).toEqual([{ state: 'idle' }]));
    fireEvent.keyDown(window, { key: 'a' });
    expect(socket.sent(PRESENCE_EVENTS.activity)).toEqual([{ state: 'idle' }, { state: 'active' }]);
  });

  it('reports the tab idle once hidden for a while, active when shown again', async () => {
    setup();
    const socket = await presenceSocket();
    socket.serverConnect();
    visibility = 'hidden';
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    // Input while hidden (a stray event) does not count.
    fireEvent.keyDown(window, { key: 'a' });
    await waitFor(() => expect(socket.sent(PRESENCE_EVENTS.activity)).toEqual([{ state: 'idle' }]));
    visibility = 'visible';
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    expect(socket.sent(PRESENCE_EVENTS.activity)).toEqual([{ state: 'idle' }, { state: 'active' }]);
  });

  it('a tab that connects while idle says so (the server counts new tabs as active)', async () => {
    visibility = 'hidden';
    setup();
    const socket = await presenceSocket();
    socket.serverConnect();
    expect(socket.sent(PRESENCE_EVENTS.activity)).toEqual([{ state: 'idle' }]);
  });
});
