import type { DirectMessage } from '@cohort/shared/chat';
import { PEOPLE_MESSAGES } from '@cohort/shared/people';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ApiRoute, historyReply, stubApi } from '../../test/chat-api.ts';
import { type FakeSocket, openedSockets } from '../../test/fake-socket.ts';
import { renderAt } from '../../test/render.tsx';
import { applyPresenceChange, resetPresence } from '../presence/presence-store.ts';
import { BOB, ME, meResponse } from '../workspaces/test-data.ts';
import ChatPage from './chat-page.tsx';
import { CHAT_STATE_KEY } from './chat-state.ts';

vi.mock('../../lib/socket.ts', async (importOriginal) => {
  const { fakeConnectNamespace } = await import('../../test/fake-socket.ts');
  return { ...(await importOriginal<object>()), connectNamespace: fakeConnectNamespace };
});

const HISTORY = `/api/messages/${encodeURIComponent(ME.email)}`;
let history: DirectMessage[] = [];
/** The server's direct read state; empty: no conversation listed. */
let directReads: Array<{
  email: string;
  name: string;
  lastReadSeq: number;
  lastSeq: number;
  unread: number;
}> = [];
const marks: unknown[] = [];
/** Whether Bob shares a workspace with me (GET /api/people/:email answers him, else 404). */
let bobIsPeer = true;
const BOB_PERSON = {
  _id: BOB._id,
  email: BOB.email,
  firstName: 'Bob',
  lastName: 'Builder',
  name: 'Bob Builder',
  sharedWorkspaces: ['acme'],
};
const READ = `/api/direct/${encodeURIComponent(BOB.email)}/read`;

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
    rev: seq,
    editedAt: null,
    deleted: false,
    reactions: [],
    attachments: [],
    ...overrides,
  };
}

function setup(path = '/chat', extra: Record<string, ApiRoute> = {}) {
  const api = stubApi({
    'GET /api/me': () => ({ json: meResponse }),
    [`GET ${HISTORY}`]: (url) => historyReply(history, url),
    'GET /api/direct/unread': () => ({ json: directReads }),
    [`GET /api/people/${encodeURIComponent(BOB.email)}`]: () =>
      bobIsPeer ? { json: BOB_PERSON } : { status: 404, json: { message: PEOPLE_MESSAGES.notMessageable } },
    [`PUT ${READ}`]: (_url, body) => {
      marks.push(body);
      const seq = (body as { seq: number }).seq;
      const lastSeq = history.at(-1)?.seq ?? 0;
      return { json: { email: BOB.email, name: 'Bob Builder', lastReadSeq: seq, lastSeq, unread: 0 } };
    },
    ...extra,
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
  directReads = [];
  marks.length = 0;
  bobIsPeer = true;
});

afterEach(() => {
  // Unmount while fetch is still stubbed: leaving a conversation flushes a pending read mark.
  cleanup();
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
    expect(await screen.findByRole('heading', { name: 'Bob Builder' })).toBeTruthy();
    expect(screen.getByText(/Chatting as:/).textContent).toBe('Chatting as: Ada Lovelace');
    expect(savedState()).toEqual({ myEmail: ME.email, recipientEmail: BOB.email });
    expect(await screen.findByText('No messages yet. Say hello to Bob Builder.')).toBeTruthy();
  });

  it('restores the saved pair on reload, on /livechat too, and shows Loading messages... first', async () => {
    localStorage.setItem(CHAT_STATE_KEY, JSON.stringify({ myEmail: ME.email, recipientEmail: BOB.email }));
    history = [
      aDirectMessage(1, { content: 'hi Ada' }),
      aDirectMessage(2, { sender: ME.email, receiver: BOB.email, content: 'hi Bob' }),
    ];
    // The history is held back until the loading state has been seen (a fast answer would hide it).
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { api } = setup('/livechat', {
      [`GET ${HISTORY}`]: async (url) => {
        await held;
        return historyReply(history, url);
      },
    });
    // Named "bob" until Bob's name arrives: the log is there (loading) from the start either way.
    const log = await screen.findByRole('log');
    expect(within(log).getByText('Loading messages...')).toBeTruthy();
    release();
    expect(await within(log).findByText('hi Ada')).toBeTruthy();
    expect(await screen.findByRole('log', { name: 'Messages with Bob Builder' })).toBe(log);
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

  it('refuses someone I share no workspace with when I pick them, before I type', async () => {
    bobIsPeer = false;
    setup();
    const recipient = await screen.findByRole('textbox', { name: 'Recipient e-mail' });
    await userEvent.type(recipient, `${BOB.email}{Enter}`);
    expect(await screen.findByText(PEOPLE_MESSAGES.notMessageable)).toBeTruthy();
    expect(recipient.getAttribute('aria-invalid')).toBe('true');
    expect(savedState()).toBeNull();
    expect(screen.queryByRole('log')).toBeNull();
    // The positive control: the same address opens once Bob is someone I may message.
    bobIsPeer = true;
    await userEvent.click(screen.getByRole('button', { name: 'Start Chat' }));
    expect(await screen.findByRole('heading', { name: 'Bob Builder' })).toBeTruthy();
  });

  it('says at once when a linked conversation cannot be written to, and keeps its history', async () => {
    bobIsPeer = false;
    directReads = [{ email: BOB.email, name: 'Bob Builder', lastReadSeq: 1, lastSeq: 1, unread: 0 }];
    history = [aDirectMessage(1, { content: 'from the old days' })];
    setup(`/chat?with=${encodeURIComponent(BOB.email)}`);
    expect(await screen.findByText('from the old days')).toBeTruthy();
    expect((await screen.findByRole('alert')).textContent).toContain(PEOPLE_MESSAGES.notMessageable);
    expect(screen.getByRole('textbox', { name: 'Message Bob Builder' }).hasAttribute('disabled')).toBe(true);
  });

  it('Close clears the saved chat state (not the session) and goes back to the start step', async () => {
    localStorage.setItem(CHAT_STATE_KEY, JSON.stringify({ myEmail: ME.email, recipientEmail: BOB.email }));
    const { api } = setup();
    await userEvent.click(await screen.findByRole('button', { name: 'Close' }));
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

    await userEvent.type(screen.getByRole('textbox', { name: 'Message Bob Builder' }), 'Hello Bob{Enter}');
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
      await screen.findByRole('textbox', { name: 'Message Bob Builder' }),
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
    await userEvent.type(screen.getByRole('textbox', { name: 'Message Bob Builder' }), 'queued{Enter}');
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

describe('Direct chat: Up-arrow edits my last message', () => {
  beforeEach(() => {
    localStorage.setItem(CHAT_STATE_KEY, JSON.stringify({ myEmail: ME.email, recipientEmail: BOB.email }));
  });

  it('opens my newest message in its edit field from the empty composer; Enter saves, focus comes back', async () => {
    const mine = { sender: ME.email, receiver: BOB.email };
    history = [
      aDirectMessage(1, mine),
      aDirectMessage(2, mine),
      aDirectMessage(3),
      aDirectMessage(4, { ...mine, deleted: true, content: '' }),
    ];
    const saved: unknown[] = [];
    setup('/chat', {
      'PATCH /api/direct-messages/d2': (_url, body) => {
        saved.push(body);
        const content = (body as { content: string }).content;
        return { json: { ...history[1], content, rev: 20, editedAt: new Date().toISOString() } };
      },
    });
    await screen.findByText('dm 2');
    const composer = screen.getByRole('textbox', { name: 'Message Bob Builder' });
    await userEvent.click(composer);
    await userEvent.keyboard('x{ArrowUp}');
    expect(screen.queryByRole('textbox', { name: 'Edit message' })).toBeNull();
    await userEvent.keyboard('{Backspace}{ArrowUp}');
    const field = screen.getByRole('textbox', { name: 'Edit message' }) as HTMLTextAreaElement;
    expect(field.value).toBe('dm 2');
    expect(document.activeElement).toBe(field);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('textbox', { name: 'Edit message' })).toBeNull();
    expect(document.activeElement).toBe(composer);
    await userEvent.keyboard('{ArrowUp}!{Enter}');
    await waitFor(() => expect(saved).toEqual([{ content: 'dm 2!' }]));
    expect(await screen.findByText('dm 2!')).toBeTruthy();
    expect(document.activeElement).toBe(composer);
  });
});

describe('Direct chat: unread', () => {
  it('lists conversations with their unread counts, kept live, and opens one on click', async () => {
    directReads = [{ email: BOB.email, name: 'Bob Builder', lastReadSeq: 1, lastSeq: 3, unread: 2 }];
    const { api } = setup();
    const list = await screen.findByRole('navigation', { name: 'Conversations' });
    const bob = await within(list).findByRole('button', { name: /Bob Builder/ });
    expect(bob.textContent).toContain('2 unread');
    // Read in another tab: the push clears the count here.
    const socket = await dmSocket();
    const listings = () => api.calls.filter((c) => c.path === '/api/direct/unread').length;
    socket.serverConnect();
    await waitFor(() => expect(listings()).toBe(2));
    socket.push('readMarkChanged', { ...directReads[0], lastReadSeq: 3, unread: 0 });
    await waitFor(() => expect(bob.textContent).not.toContain('unread'));
    await userEvent.click(bob);
    expect(await screen.findByRole('heading', { name: 'Bob Builder' })).toBeTruthy();
  });

  it('draws "New messages" above the first unread message and moves the mark as they show', async () => {
    localStorage.setItem(CHAT_STATE_KEY, JSON.stringify({ myEmail: ME.email, recipientEmail: BOB.email }));
    history = [
      aDirectMessage(1, { content: 'read before' }),
      aDirectMessage(2, { sender: ME.email, receiver: BOB.email, content: 'my answer' }),
      aDirectMessage(3, { content: 'new from Bob' }),
    ];
    directReads = [{ email: BOB.email, name: 'Bob Builder', lastReadSeq: 2, lastSeq: 3, unread: 1 }];
    setup();
    const log = await screen.findByRole('log', { name: 'Messages with Bob Builder' });
    await within(log).findByText('new from Bob');
    const line = await within(log).findByRole('separator', { name: 'New messages' });
    expect(line.closest('li')?.nextElementSibling?.textContent).toContain('new from Bob');
    await waitFor(() => expect(marks).toEqual([{ seq: 3 }]));
  });
});

describe('Direct chat: presence in the header', () => {
  const PERSON = `/api/presence/${encodeURIComponent(BOB.email)}`;

  beforeEach(() => {
    resetPresence();
    localStorage.setItem(CHAT_STATE_KEY, JSON.stringify({ myEmail: ME.email, recipientEmail: BOB.email }));
  });

  const header = async () => (await screen.findByRole('heading', { name: 'Bob Builder' })).closest('header');

  it("shows the other person's status and follows live changes", async () => {
    setup('/chat', { [`GET ${PERSON}`]: () => ({ json: { userId: BOB._id, status: 'away' } }) });
    const bar = (await header()) as HTMLElement;
    expect(await within(bar).findByRole('img', { name: 'away' })).toBeTruthy();
    act(() => applyPresenceChange(BOB._id, 'online'));
    expect(within(bar).getByRole('img', { name: 'online' })).toBeTruthy();
    act(() => applyPresenceChange(BOB._id, 'offline'));
    expect(within(bar).getByRole('img', { name: 'offline' })).toBeTruthy();
  });

  it('shows no dot for someone whose presence the server does not show (404)', async () => {
    let shown = false;
    const {
      client,
      api: { calls },
    } = setup('/chat', {
      [`GET ${PERSON}`]: () =>
        shown
          ? { json: { userId: BOB._id, status: 'online' } }
          : { status: 404, json: { message: 'User not found' } },
    });
    const bar = (await header()) as HTMLElement;
    // The 404 has been answered and every query has settled (and rendered): no waiting for a while.
    await waitFor(() => expect(calls.some((c) => c.path === PERSON)).toBe(true));
    await waitFor(() => expect(client.isFetching()).toBe(0));
    expect(within(bar).queryByRole('img')).toBeNull();
    // Positive control: the same header shows the dot once the server shows the presence.
    shown = true;
    await act(() => client.invalidateQueries({ queryKey: ['presence'] }));
    expect(await within(bar).findByRole('img', { name: 'online' })).toBeTruthy();
  });
});
