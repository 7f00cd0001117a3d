import { CHAT_MESSAGES, type ChannelMessage } from '@cohort/shared/chat';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { historyReply, stubApi } from '../../test/chat-api.ts';
import { type FakeSocket, openedSockets } from '../../test/fake-socket.ts';
import { renderAt } from '../../test/render.tsx';
import { aChannel, aMember, BOB, ME, meResponse } from '../workspaces/test-data.ts';
import { ChannelPane } from './channel-pane.tsx';

vi.mock('../../lib/socket.ts', async (importOriginal) => {
  const { fakeConnectNamespace } = await import('../../test/fake-socket.ts');
  return { ...(await importOriginal<object>()), connectNamespace: fakeConnectNamespace };
});

const CAROL = { _id: '00000000-0000-4000-8000-000000000003', email: 'carol@example.com' };
const PATH = '/api/workspaces/Apollo/channels/c1/messages';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let history: ChannelMessage[] = [];
/** The server's read mark of c1 for this user; by default everything in `history` was read. */
let readSeq: number | null = null;
let muted = false;
const marks: unknown[] = [];
const readState = () => {
  const lastSeq = history.at(-1)?.seq ?? 0;
  const lastReadSeq = readSeq ?? lastSeq;
  return { channelId: 'c1', workspaceId: 'w1', lastReadSeq, lastSeq, unread: lastSeq - lastReadSeq, muted };
};

function aMessage(seq: number, overrides: Partial<ChannelMessage> = {}): ChannelMessage {
  return {
    _id: `m${seq}`,
    seq,
    channel: 'c1',
    content: `message ${seq}`,
    timestamp: new Date().toISOString(),
    clientId: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    attachments: [],
    kind: 'text',
    sender: { _id: BOB._id, email: BOB.email, name: 'Bob Builder' },
    rev: seq,
    editedAt: null,
    deleted: false,
    parentId: null,
    replyCount: 0,
    lastReplyAt: null,
    reactions: [],
    ...overrides,
  };
}

async function setup(channel = aChannel()) {
  const api = stubApi({
    'GET /api/me': () => ({ json: meResponse }),
    [`GET ${PATH}`]: (url) => historyReply(history, url),
    'GET /api/workspaces/Apollo/unread': () => ({ json: [readState()] }),
    'PUT /api/workspaces/Apollo/channels/c1/read': (_url, body) => {
      marks.push(body);
      readSeq = Math.max(readSeq ?? 0, (body as { seq: number }).seq);
      return { json: readState() };
    },
    'PUT /api/workspaces/Apollo/channels/c1/mute': (_url, body) => {
      muted = (body as { muted: boolean }).muted;
      return { json: readState() };
    },
    // The summary panel's request when it is opened.
    'GET /api/workspaces/Apollo/channels/c1/summary': () => ({
      json: {
        summary: '',
        messageCount: 0,
        participants: [],
        from: '',
        to: '',
        timeframe: 24,
        engine: 'builtin',
      },
    }),
    // Carol is not listed (left the workspace since): her name falls back to her messages or e-mail.
    'GET /api/workspaces/Apollo/members': () => ({
      json: [aMember(), aMember({ _id: BOB._id, email: BOB.email, firstName: 'Bob', lastName: 'Builder' })],
    }),
  });
  const view = renderAt('/', <ChannelPane workspaceName="Apollo" channel={channel} />);
  // The conversation appears once the signed-in user is known.
  await screen.findByRole('log', { name: 'Messages in general' });
  return { ...view, api };
}

/** The pane's socket, connected and joined (the fake server accepts the join). */
async function connected(): Promise<FakeSocket> {
  // The pane also opens a `/mesh` socket (the "Meeting in progress" banner): take the chat's.
  const chatSocket = () => openedSockets.filter((s) => s.namespace !== '/mesh').at(-1);
  await waitFor(() => expect(chatSocket()).toBeDefined());
  const socket = chatSocket() as FakeSocket;
  socket.respond('joinChannel', () => ({ ok: true }));
  socket.serverConnect();
  await waitFor(() => expect(socket.sent('joinChannel')).toHaveLength(1));
  return socket;
}

const log = () => screen.getByRole('log', { name: 'Messages in general' });
const input = () => screen.getByRole('textbox', { name: 'Message general' });

beforeEach(() => {
  openedSockets.length = 0;
  history = [];
  readSeq = null;
  muted = false;
  marks.length = 0;
});

afterEach(() => {
  // Unmount while fetch is still stubbed: leaving a conversation flushes a pending read mark.
  cleanup();
  vi.unstubAllGlobals();
});

describe('ChannelPane: header', () => {
  it('shows "{channel} Chat", a Video Meeting button and the summary toggle', async () => {
    await setup();
    expect(screen.getByRole('heading', { name: 'general Chat' })).toBeTruthy();
    const toggle = screen.getByRole('button', { name: 'Show Summary' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await userEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(toggle.textContent).toBe('Hide Summary');
    const panel = screen.getByRole('region', { name: 'Channel Conversation Summary' });
    expect(toggle.getAttribute('aria-controls')).toBe(panel.id);
    expect(await within(panel).findByText('No recent conversation to summarize')).toBeTruthy();
    await userEvent.click(within(panel).getByRole('button', { name: 'Close summary' }));
    expect(screen.queryByRole('region', { name: 'Channel Conversation Summary' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Show Summary' }).getAttribute('aria-expanded')).toBe('false');
  });

  it("opens the channel's meeting page (the channel is the room)", async () => {
    const { router } = await setup();
    await userEvent.click(screen.getByRole('button', { name: 'Video Meeting' }));
    expect(router.state.location.pathname).toBe('/videocall');
    const params = new URLSearchParams(router.state.location.search);
    expect(params.get('room')).toBe(aChannel()._id);
    expect(params.get('workspace')).toBe('Apollo');
  });
});

describe('ChannelPane: messages', () => {
  it('loads the newest messages, joins the channel on connect, and shows names, times and days', async () => {
    const yesterday = new Date();
    yesterday.setDate(yesterday.getDate() - 1);
    history = [
      aMessage(1, { timestamp: yesterday.toISOString(), content: 'from yesterday' }),
      aMessage(2, { content: 'hello from bob' }),
      aMessage(3, { content: 'hi from carol', sender: { ...CAROL, name: '' } }),
      aMessage(4, { content: 'mine', sender: { ...ME, name: 'Ada Lovelace' } }),
    ];
    const { api } = await setup();
    expect(await within(log()).findByText('hello from bob')).toBeTruthy();
    expect(api.calls.find((c) => c.path === PATH)?.query).toEqual({ limit: '50' });

    const headings = within(log())
      .getAllByRole('heading')
      .map((h) => h.textContent);
    expect(headings).toEqual(['Yesterday', 'Today']);
    // Each day's first message of a sender carries the name.
    expect(within(log()).getAllByText('Bob Builder')).toHaveLength(2);
    // No name from the server: the part of the e-mail before the @.
    expect(within(log()).getByText('carol')).toBeTruthy();
    const mine = within(log()).getByText('mine').closest('li');
    expect(mine?.className).toContain('items-end');
    expect(mine?.textContent).toContain('You');
    expect(within(log()).getByText('hello from bob').closest('li')?.className).toContain('items-start');
    expect(log().querySelectorAll('time')[0]?.textContent).toMatch(/^\d{1,2}.\d{2}/);

    const socket = await connected();
    expect(socket.namespace).toBe('/chat');
    expect(socket.sent('joinChannel')).toEqual([{ channelId: 'c1', workspaceName: 'Apollo' }]);
    // After joining, what was posted since the first page is fetched.
    await waitFor(() => expect(api.calls.some((c) => c.query.after === '4')).toBe(true));
    // Then what changed since the first page (edits, deletes, reactions).
    await waitFor(() => expect(api.calls.at(-1)?.query).toMatchObject({ changedAfter: '4' }));
  });

  it('appends pushed messages and fills a gap with after=<last seq>', async () => {
    history = [aMessage(1)];
    const { api } = await setup();
    await within(log()).findByText('message 1');
    const socket = await connected();

    socket.push('newMessage', aMessage(2));
    expect(within(log()).getByText('message 2')).toBeTruthy();
    history = [aMessage(1), aMessage(2), aMessage(3), aMessage(4)];
    const before = api.calls.length;
    socket.push('newMessage', aMessage(4));
    await within(log()).findByText('message 3');
    expect(api.calls.slice(before).map((c) => c.query.after)).toContain('2');
    // Another channel's message is not shown here.
    socket.push('newMessage', aMessage(9, { channel: 'c2', content: 'elsewhere' }));
    expect(within(log()).queryByText('elsewhere')).toBeNull();
  });

  it('sends with Enter: shown as sending, then stored; the input clears', async () => {
    await setup();
    await within(log()).findByText(/No messages yet/);
    const socket = await connected();
    let ack: (value: unknown) => void = () => {};
    socket.respond('sendMessage', () => new Promise((resolve) => (ack = resolve)));

    await userEvent.type(input(), '  Hello team  {Enter}');
    expect((input() as HTMLInputElement).value).toBe('');
    const [sent] = socket.sent('sendMessage') as Array<{ clientId: string; message: { content: string } }>;
    expect(sent).toMatchObject({
      channelId: 'c1',
      workspaceName: 'Apollo',
      message: { content: 'Hello team' },
    });
    expect(sent?.clientId).toMatch(UUID);
    expect(within(log()).getByText('Sending…')).toBeTruthy();

    const stored = aMessage(1, {
      content: 'Hello team',
      clientId: sent?.clientId,
      sender: { ...ME, name: '' },
    });
    await act(async () => ack({ ok: true, message: stored }));
    expect(within(log()).queryByText('Sending…')).toBeNull();
    socket.push('newMessage', stored); // the broadcast of the same message
    expect(within(log()).getAllByText('Hello team')).toHaveLength(1);
  });

  it('sends nothing for blank text', async () => {
    await setup();
    const socket = await connected();
    await userEvent.type(input(), '   {Enter}');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(socket.sent('sendMessage')).toEqual([]);
  });

  it('says "Reconnecting…" while down, queues what is written, and resends it after reconnecting', async () => {
    history = [aMessage(1)];
    const { api } = await setup();
    await within(log()).findByText('message 1');
    const socket = await connected();
    expect(screen.getByRole('status').textContent).toBe('');

    socket.serverDrop();
    expect(screen.getByRole('status').textContent).toBe('Reconnecting…');
    await userEvent.type(input(), 'written offline{Enter}');
    expect(within(log()).getByText('written offline')).toBeTruthy();
    expect(within(log()).getByText('Sending…')).toBeTruthy();
    expect(socket.sent('sendMessage')).toEqual([]);

    history = [aMessage(1), aMessage(2, { content: 'missed while away' })];
    socket.respond('sendMessage', (payload) => {
      const { clientId, message } = payload as { clientId: string; message: { content: string } };
      return {
        ok: true,
        message: aMessage(3, { clientId, content: message.content, sender: { ...ME, name: '' } }),
      };
    });
    socket.serverConnect();
    await within(log()).findByText('missed while away');
    await waitFor(() => expect(within(log()).queryByText('Sending…')).toBeNull());
    expect(screen.getByRole('status').textContent).toBe('');
    expect(socket.sent('joinChannel')).toHaveLength(2);
    expect(socket.sent('sendMessage')).toHaveLength(1);
    expect(api.calls.filter((c) => c.query.after).at(-1)?.query).toMatchObject({ after: '1' });
    expect(within(log()).getAllByText('written offline')).toHaveLength(1);
  });

  it('shows a refused message as not sent; Retry resends it with the same clientId', async () => {
    await setup();
    const socket = await connected();
    socket.respond('sendMessage', () => ({ ok: false, message: 'You may not post in this channel' }));
    await userEvent.type(input(), 'too fast{Enter}');
    expect(await within(log()).findByText('Not sent: You may not post in this channel')).toBeTruthy();

    socket.respond('sendMessage', (payload) => {
      const { clientId } = payload as { clientId: string };
      return {
        ok: true,
        message: aMessage(1, { clientId, content: 'too fast', sender: { ...ME, name: '' } }),
      };
    });
    await userEvent.click(within(log()).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(within(log()).queryByText(/Not sent/)).toBeNull());
    const [first, second] = socket.sent('sendMessage') as Array<{ clientId: string }>;
    expect(second?.clientId).toBe(first?.clientId);
  });

  it('tells the user a message was not sent when the server is out of storage, and Retry sends it later', async () => {
    await setup();
    const socket = await connected();
    socket.respond('sendMessage', () => ({ ok: false, message: CHAT_MESSAGES.storageFull }));
    await userEvent.type(input(), 'disk is full{Enter}');
    expect(await within(log()).findByText('Not sent: The server is out of storage space')).toBeTruthy();
    socket.respond('sendMessage', (payload) => {
      const { clientId } = payload as { clientId: string };
      return {
        ok: true,
        message: aMessage(1, { clientId, content: 'disk is full', sender: { ...ME, name: '' } }),
      };
    });
    await userEvent.click(within(log()).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(within(log()).queryByText(/Not sent/)).toBeNull());
    expect(within(log()).getAllByText('disk is full')).toHaveLength(1);
  });

  it('keeps a message "Sending…" while the database is unreachable and resends it by itself', async () => {
    await setup();
    const socket = await connected();
    socket.respond('sendMessage', () => ({ ok: false, message: CHAT_MESSAGES.unavailable }));
    await userEvent.type(input(), 'during the restart{Enter}');
    await waitFor(() => expect(socket.sent('sendMessage')).toHaveLength(1));
    expect(within(log()).getByText('Sending…')).toBeTruthy();
    expect(within(log()).queryByText(/Not sent/)).toBeNull();
    socket.respond('sendMessage', (payload) => {
      const { clientId } = payload as { clientId: string };
      return {
        ok: true,
        message: aMessage(1, { clientId, content: 'during the restart', sender: { ...ME, name: '' } }),
      };
    });
    await waitFor(() => expect(within(log()).queryByText('Sending…')).toBeNull(), { timeout: 8000 });
    const [first, second] = socket.sent('sendMessage') as Array<{ clientId: string }>;
    expect(second?.clientId).toBe(first?.clientId);
    expect(within(log()).queryByText(/Not sent/)).toBeNull();
  }, 15_000);

  it('keeps unsent messages across a reload (remount)', async () => {
    const first = await setup();
    const socket = await connected();
    socket.serverDrop();
    await userEvent.type(input(), 'not lost{Enter}');
    first.unmount();

    await setup();
    expect(await within(log()).findByText('not lost')).toBeTruthy();
    const again = await connected();
    expect(again.sent('sendMessage')).toMatchObject([{ message: { content: 'not lost' } }]);
  });

  it('leaves the channel and disconnects when the pane goes away', async () => {
    const { unmount } = await setup();
    const socket = await connected();
    unmount();
    expect(socket.sent('leaveChannel')).toEqual([{ channelId: 'c1', workspaceName: 'Apollo' }]);
    expect(socket.connected).toBe(false);
  });

  it('raises a "New messages" pill instead of scrolling when the reader has scrolled up', async () => {
    history = Array.from({ length: 30 }, (_, i) => aMessage(i + 1));
    await setup();
    await within(log()).findByText('message 30');
    const socket = await connected();
    const el = log();
    let top = 800;
    Object.defineProperty(el, 'scrollHeight', { configurable: true, get: () => 1000 });
    Object.defineProperty(el, 'clientHeight', { configurable: true, get: () => 200 });
    Object.defineProperty(el, 'scrollTop', { configurable: true, get: () => top, set: (v) => (top = v) });
    const scrollTo = vi.fn();
    el.scrollTo = scrollTo;

    fireEvent.scroll(el);
    top = 400; // the reader scrolls up to read
    fireEvent.scroll(el);
    socket.push('newMessage', aMessage(31));
    expect(scrollTo).not.toHaveBeenCalled();
    const pill = screen.getByRole('button', { name: 'New messages' });

    await userEvent.click(pill);
    expect(scrollTo).toHaveBeenCalledWith({ top: 1000, behavior: 'smooth' });
    expect(screen.queryByRole('button', { name: 'New messages' })).toBeNull();
    top = 800;
    fireEvent.scroll(el);
    socket.push('newMessage', aMessage(32));
    expect(scrollTo).toHaveBeenCalledTimes(2);
  });

  it('loads older history with before=<oldest seq> from the top of the list', async () => {
    history = Array.from({ length: 60 }, (_, i) => aMessage(i + 1));
    const { api } = await setup();
    await within(log()).findByText('message 60');
    expect(within(log()).queryByText('message 10')).toBeNull();
    await userEvent.click(within(log()).getByRole('button', { name: 'Load older messages' }));
    expect(await within(log()).findByText('message 10')).toBeTruthy();
    expect(api.calls.at(-1)?.query).toEqual({ before: '11', limit: '50' });
    expect(within(log()).queryByRole('button', { name: 'Load older messages' })).toBeNull();
  });
});

describe('ChannelPane: read marks', () => {
  const separators = () => within(log()).queryAllByRole('separator', { name: 'New messages' });

  it('draws "New messages" above the first unread message from someone else, keeps it, and moves the mark', async () => {
    readSeq = 1;
    history = [
      aMessage(1, { content: 'already read' }),
      aMessage(2, { content: 'mine from another tab', sender: { ...ME, name: 'Ada Lovelace' } }),
      aMessage(3, { content: 'first unread' }),
      aMessage(4, { content: 'second unread' }),
    ];
    const scrollIntoView = vi.spyOn(HTMLElement.prototype, 'scrollIntoView').mockImplementation(() => {});
    onTestFinished(() => scrollIntoView.mockRestore());
    await setup();
    await within(log()).findByText('first unread');
    await waitFor(() => expect(separators()).toHaveLength(1));
    // Reading starts at the line (it moves nothing when the line is already in view).
    expect(scrollIntoView.mock.contexts).toEqual([separators()[0]]);
    expect(scrollIntoView).toHaveBeenCalledWith({ block: 'nearest' });
    // The line sits right above Bob's first message after the mark (our own does not count).
    const line = separators()[0]?.closest('li');
    expect(line?.nextElementSibling?.textContent).toContain('first unread');
    expect(line?.previousElementSibling?.textContent).toContain('mine from another tab');
    // Seen: the mark moves to the newest message, once.
    await waitFor(() => expect(marks).toEqual([{ seq: 4 }]));

    const socket = await connected();
    socket.push('newMessage', aMessage(5, { content: 'while reading' }));
    await within(log()).findByText('while reading');
    // The line stays where it was until the reader leaves; the mark follows what arrives.
    expect(separators()).toHaveLength(1);
    expect(separators()[0]?.closest('li')?.nextElementSibling?.textContent).toContain('first unread');
    await waitFor(() => expect(marks).toEqual([{ seq: 4 }, { seq: 5 }]));
  });

  it('draws no line and sends no mark when everything was read', async () => {
    history = [aMessage(1), aMessage(2)];
    await setup();
    await within(log()).findByText('message 2');
    const socket = await connected();
    // Longer than the mark's throttle (400 ms): a move would be sent by now. A later message cannot
    // serve as the control sooner, as the throttle would fold a wrong move into its own.
    await new Promise((r) => setTimeout(r, 600));
    expect(separators()).toHaveLength(0);
    expect(marks).toEqual([]);
    // Positive control: a message arriving now is read, and that mark (only it) is sent.
    socket.push('newMessage', aMessage(3, { content: 'while reading' }));
    await within(log()).findByText('while reading');
    await waitFor(() => expect(marks).toEqual([{ seq: 3 }]));
    expect(separators()).toHaveLength(0);
  });

  it('mutes and unmutes the channel from the header', async () => {
    const { api } = await setup();
    await userEvent.click(await screen.findByRole('button', { name: 'Mute' }));
    expect(await screen.findByRole('button', { name: 'Unmute' })).toBeTruthy();
    expect(muted).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Unmute' }));
    expect(await screen.findByRole('button', { name: 'Mute' })).toBeTruthy();
    expect(muted).toBe(false);
    expect(api.calls.filter((c) => c.method === 'PUT' && c.path.endsWith('/mute'))).toHaveLength(2);
  });
});

describe('ChannelPane: managed channels (issue 22)', () => {
  it('shows the topic, announcements as quiet lines, and an archived channel as read-only', async () => {
    history = [aMessage(1), aMessage(2, { kind: 'system', content: 'Bob Builder archived the channel' })];
    await setup(aChannel({ topic: 'Ship on Friday', archived: true }));
    await connected();
    expect(screen.getByTestId('channel-topic').textContent).toBe('Topic: Ship on Friday');
    const line = await within(log()).findByText(/Bob Builder archived the channel/);
    // An announcement is a quiet line, not a bubble: no actions on it.
    expect(line.tagName).toBe('LI');
    expect(within(line).queryAllByRole('button')).toHaveLength(0);
    expect(
      screen.getAllByRole('status').some((s) => s.textContent?.includes('This channel is archived')),
    ).toBe(true);
    expect((input() as HTMLTextAreaElement).disabled).toBe(true);
  });

  it('offers Join for an open channel the reader has not joined, and Star', async () => {
    await setup(aChannel({ joined: false }));
    expect(screen.getByRole('button', { name: 'Join channel' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Star' }).getAttribute('aria-pressed')).toBe('false');
    expect(screen.queryByRole('button', { name: 'Leave channel' })).toBeNull();
  });
});

describe('ChannelPane: typing', () => {
  it('shows who is typing and clears it; several people read "several are typing..."', async () => {
    history = [];
    const { api } = await setup();
    await within(log()).findByText(/No messages yet/);
    const socket = await connected();

    // Bob's name comes from the member list: he has written nothing yet.
    socket.push('userTyping', { channelId: 'c1', userId: BOB._id, email: BOB.email, isTyping: true });
    expect(await screen.findByText('Bob Builder is typing...')).toBeTruthy();
    expect(api.calls.some((c) => c.path === '/api/workspaces/Apollo/members')).toBe(true);
    socket.push('userTyping', { channelId: 'c1', userId: CAROL._id, email: CAROL.email, isTyping: true });
    expect(screen.getByText('several are typing...')).toBeTruthy();
    socket.push('userTyping', { channelId: 'c1', userId: BOB._id, email: BOB.email, isTyping: false });
    expect(screen.getByText('carol is typing...')).toBeTruthy();
    // A message from the typist ends their typing.
    socket.push('newMessage', aMessage(2, { sender: { ...CAROL, name: '' } }));
    expect(screen.queryByText(/typing\.\.\./)).toBeNull();
    // Own typing (echoed by another tab) and other channels are not shown.
    socket.push('userTyping', { channelId: 'c1', userId: ME._id, email: ME.email, isTyping: true });
    socket.push('userTyping', { channelId: 'c2', userId: BOB._id, email: BOB.email, isTyping: true });
    expect(screen.queryByText(/typing\.\.\./)).toBeNull();
  });

  it('announces typing while the input is non-blank, and stops on blank or after sending', async () => {
    await setup();
    const socket = await connected();
    socket.respond('sendMessage', () => new Promise(() => {}));
    await userEvent.type(input(), 'abc');
    expect(socket.sent('typing')).toEqual([{ channelId: 'c1', workspaceName: 'Apollo', isTyping: true }]);
    await userEvent.clear(input());
    expect(socket.sent('typing').at(-1)).toMatchObject({ isTyping: false });
    await userEvent.type(input(), 'x{Enter}');
    expect((socket.sent('typing') as Array<{ isTyping: boolean }>).map((t) => t.isTyping)).toEqual([
      true,
      false,
      true,
      false,
    ]);
  });
});
