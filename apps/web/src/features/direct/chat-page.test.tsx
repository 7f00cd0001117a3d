import type { DirectMessage } from '@cohort/shared/chat';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { historyReply, stubApi } from '../../test/chat-api.ts';
import { type FakeSocket, openedSockets } from '../../test/fake-socket.ts';
import { renderAt } from '../../test/render.tsx';
import { BOB, ME, meResponse } from '../workspaces/test-data.ts';
import ChatPage from './chat-page.tsx';
import { CHAT_STATE_KEY } from './chat-state.ts';

vi.mock('../../lib/socket.ts', async (importOriginal) => {
  const { fakeConnectNamespace } = await import('../../test/fake-socket.ts');
  return { ...(await importOriginal<object>()), connectNamespace: fakeConnectNamespace };
});

const HISTORY = `/api/messages/${encodeURIComponent(ME.email)}`;
let history: DirectMessage[] = [];

function aDirectMessage(seq: number, overrides: Partial<DirectMessage> = {}): DirectMessage {
  return {
    _id: `d${seq}`,
    seq,
    sender: BOB.email,
    receiver: ME.email,
    content: `dm ${seq}`,
    createdAt: new Date().toISOString(),
    messageType: 'text',
    clientId: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    ...overrides,
  };
}

function setup(path = '/chat') {
  const api = stubApi({
    'GET /api/me': () => ({ json: meResponse }),
    [`GET ${HISTORY}`]: (url) => historyReply(history, url),
  });
  return { ...renderAt(path, <ChatPage />), api };
}

async function dmSocket(): Promise<FakeSocket> {
  await waitFor(() => expect(openedSockets.at(-1)).toBeDefined());
  const socket = openedSockets.at(-1) as FakeSocket;
  expect(socket.namespace).toBe('/dm');
  return socket;
}

const savedState = () => JSON.parse(localStorage.getItem(CHAT_STATE_KEY) ?? 'null');

beforeEach(() => {
  openedSockets.length = 0;
  history = [];
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Direct chat: start step', () => {
  it('asks for the recipient e-mail, then opens the conversation and saves only the pair', async () => {
    setup();
    const recipient = await screen.findByRole('textbox', { name: 'Recipient e-mail' });
    expect(recipient.getAttribute('type')).toBe('email');
    expect(recipient.hasAttribute('required')).toBe(true);

    await userEvent.click(screen.getByRole('button', { name: 'Start Chat' }));
    expect(recipient.getAttribute('aria-invalid')).toBe('true');
    await userEvent.type(recipient, ME.email);
    await userEvent.click(screen.getByRole('button', { name: 'Start Chat' }));
    expect(screen.getByText('Enter the e-mail of someone else')).toBeTruthy();

    await userEvent.clear(recipient);
    await userEvent.type(recipient, ' Bob@Example.com {Enter}');
    expect(await screen.findByRole('heading', { name: BOB.email })).toBeTruthy();
    expect(screen.getByText(/Chatting as:/).textContent).toBe(`Chatting as: ${ME.email}`);
    expect(savedState()).toEqual({ myEmail: ME.email, recipientEmail: BOB.email });
    expect(await screen.findByText(`No messages yet. Say hello to ${BOB.email}.`)).toBeTruthy();
  });

  it('restores the saved pair on reload, on /livechat too, and shows Loading messages... first', async () => {
    localStorage.setItem(CHAT_STATE_KEY, JSON.stringify({ myEmail: ME.email, recipientEmail: BOB.email }));
    history = [
      aDirectMessage(1, { content: 'hi Ada' }),
      aDirectMessage(2, { sender: ME.email, receiver: BOB.email, content: 'hi Bob' }),
    ];
    const { api } = setup('/livechat');
    const log = await screen.findByRole('log', { name: `Messages with ${BOB.email}` });
    expect(within(log).getByText('Loading messages...')).toBeTruthy();
    expect(await within(log).findByText('hi Ada')).toBeTruthy();
    expect(api.calls.find((c) => c.path === HISTORY)?.query).toEqual({ with: BOB.email, limit: '50' });
    // Others' messages are received (left), own ones sent (right), each with its time.
    expect(within(log).getByText('hi Ada').closest('li')?.className).toContain('items-start');
    expect(within(log).getByText('hi Bob').closest('li')?.className).toContain('items-end');
    expect(log.querySelectorAll('time')).toHaveLength(2);
  });

  it('ignores a pair saved by another account on this browser', async () => {
    localStorage.setItem(
      CHAT_STATE_KEY,
      JSON.stringify({ myEmail: 'someone-else@example.com', recipientEmail: BOB.email }),
    );
    setup();
    expect(await screen.findByRole('textbox', { name: 'Recipient e-mail' })).toBeTruthy();
  });

  it('Logout clears the saved chat state (not the session) and goes back to the start step', async () => {
    localStorage.setItem(CHAT_STATE_KEY, JSON.stringify({ myEmail: ME.email, recipientEmail: BOB.email }));
    const { api } = setup();
    await userEvent.click(await screen.findByRole('button', { name: 'Logout' }));
    expect(localStorage.getItem(CHAT_STATE_KEY)).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Recipient e-mail' })).toBeTruthy();
    expect(api.calls.some((c) => c.path === '/api/logout')).toBe(false);
  });
});

describe('Direct chat: conversation', () => {
  beforeEach(() => {
    localStorage.setItem(CHAT_STATE_KEY, JSON.stringify({ myEmail: ME.email, recipientEmail: BOB.email }));
  });

  it('sends over /dm with a clientId; shows pushed messages of this pair only, once', async () => {
    setup();
    const log = await screen.findByRole('log');
    await within(log).findByText(/No messages yet/);
    const socket = await dmSocket();
    socket.respond('sendMessage', (payload) => {
      const { clientId, content } = payload as { clientId: string; content: string };
      return {
        ok: true,
        message: aDirectMessage(1, { sender: ME.email, receiver: BOB.email, clientId, content }),
      };
    });
    socket.serverConnect();

    await userEvent.type(screen.getByRole('textbox', { name: `Message ${BOB.email}` }), 'Hello Bob{Enter}');
    await waitFor(() => expect(within(log).queryByText('Sending…')).toBeNull());
    const [sent] = socket.sent('sendMessage') as Array<Record<string, string>>;
    expect(sent).toMatchObject({ content: 'Hello Bob', receiverEmail: BOB.email, messageType: 'text' });
    expect(sent?.clientId).toMatch(/^[0-9a-f-]{36}$/);

    // The same message comes back as a broadcast to our own room: still shown once.
    socket.push(
      'newMessage',
      aDirectMessage(1, {
        sender: ME.email,
        receiver: BOB.email,
        clientId: sent?.clientId,
        content: 'Hello Bob',
      }),
    );
    socket.push('newMessage', aDirectMessage(2, { content: 'Hi Ada' }));
    socket.push(
      'newMessage',
      aDirectMessage(7, { sender: 'carol@example.com', content: 'from another chat' }),
    );
    expect(within(log).getAllByText('Hello Bob')).toHaveLength(1);
    expect(within(log).getByText('Hi Ada')).toBeTruthy();
    expect(within(log).queryByText('from another chat')).toBeNull();
  });

  it('says inline that the recipient was not found', async () => {
    setup();
    const socket = await dmSocket();
    socket.respond('sendMessage', () => ({ ok: false, message: 'Recipient not found' }));
    socket.serverConnect();
    await userEvent.type(
      await screen.findByRole('textbox', { name: `Message ${BOB.email}` }),
      'anyone?{Enter}',
    );
    expect((await screen.findByRole('alert')).textContent).toContain('Recipient not found');
    expect(screen.getByText('Not sent: Recipient not found')).toBeTruthy();
  });

  it('backfills with after=<last seq> and resends the outbox after a reconnection', async () => {
    history = [aDirectMessage(1)];
    const { api } = setup();
    const log = await screen.findByRole('log');
    await within(log).findByText('dm 1');
    const socket = await dmSocket();
    socket.serverConnect();
    socket.serverDrop();
    expect(screen.getByRole('status').textContent).toBe('Reconnecting…');
    await userEvent.type(screen.getByRole('textbox', { name: `Message ${BOB.email}` }), 'queued{Enter}');
    expect(within(log).getByText('Sending…')).toBeTruthy();

    history = [aDirectMessage(1), aDirectMessage(2, { content: 'sent while you were away' })];
    socket.respond('sendMessage', (payload) => {
      const { clientId, content } = payload as { clientId: string; content: string };
      return {
        ok: true,
        message: aDirectMessage(3, { sender: ME.email, receiver: BOB.email, clientId, content }),
      };
    });
    socket.serverConnect();
    expect(await within(log).findByText('sent while you were away')).toBeTruthy();
    await waitFor(() => expect(within(log).queryByText('Sending…')).toBeNull());
    expect(api.calls.some((c) => c.query.after === '1' && c.query.with === BOB.email)).toBe(true);
    expect(socket.sent('sendMessage')).toHaveLength(1);
  });
});
