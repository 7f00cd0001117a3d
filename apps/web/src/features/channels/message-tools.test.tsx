import type { ChannelMessage } from '@cohort/shared/chat';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { historyReply, stubApi } from '../../test/chat-api.ts';
import { renderAt } from '../../test/render.tsx';
import { aChannel, aMember, BOB, ME, meResponse } from '../workspaces/test-data.ts';
import { ChannelPane } from './channel-pane.tsx';

vi.mock('../../lib/socket.ts', async (importOriginal) => {
  const { fakeConnectNamespace } = await import('../../test/fake-socket.ts');
  return { ...(await importOriginal<object>()), connectNamespace: fakeConnectNamespace };
});

const PATH = '/api/workspaces/Apollo/channels/c1/messages';
const ADA = { _id: ME._id, email: ME.email, name: 'Ada Lovelace' };
const BOB_SENDER = { _id: BOB._id, email: BOB.email, name: 'Bob Builder' };

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
    sender: BOB_SENDER,
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

let history: ChannelMessage[] = [];
const edits: Array<{ id: string; body: unknown }> = [];

async function setup() {
  const lastSeq = history.at(-1)?.seq ?? 0;
  const readState = {
    channelId: 'c1',
    workspaceId: 'w1',
    lastReadSeq: lastSeq,
    lastSeq,
    unread: 0,
    muted: false,
  };
  const routes: Parameters<typeof stubApi>[0] = {
    'GET /api/me': () => ({ json: meResponse }),
    [`GET ${PATH}`]: (url) => historyReply(history, url),
    'GET /api/workspaces/Apollo/unread': () => ({ json: [readState] }),
    'GET /api/workspaces/Apollo/members': () => ({ json: [aMember()] }),
    [`GET ${PATH}/m3/thread`]: () => ({ json: history.filter((m) => m.parentId === 'm3') }),
  };
  for (const m of history) {
    routes[`PATCH ${PATH}/${m._id}`] = (_url, body) => {
      edits.push({ id: m._id, body });
      const content = (body as { content: string }).content;
      return { json: { ...m, content, rev: m.rev + 100, editedAt: new Date().toISOString() } };
    };
  }
  const api = stubApi(routes);
  renderAt('/', <ChannelPane workspaceName="Apollo" channel={aChannel()} />);
  await screen.findByText(history[0]?.content ?? 'No messages yet.', { exact: false });
  return api;
}

const composer = () => screen.getByRole('textbox', { name: 'Message general' });
const editField = () => screen.queryByRole('textbox', { name: 'Edit message' }) as HTMLTextAreaElement | null;

beforeEach(() => {
  history = [
    aMessage(1, { sender: ADA }),
    aMessage(2, { sender: ADA }),
    aMessage(3),
    aMessage(4, { sender: ADA, deleted: true, content: '' }),
    aMessage(5, { kind: 'system', sender: ADA, content: 'Ada renamed the channel to general' }),
    aMessage(6),
  ];
  edits.length = 0;
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Up-arrow in an empty composer', () => {
  it('edits my newest message that is not deleted (caret at the end); Escape cancels back to the composer', async () => {
    await setup();
    await userEvent.click(composer());
    await userEvent.keyboard('{ArrowUp}');
    const field = editField();
    expect(field?.value).toBe('message 2');
    expect(document.activeElement).toBe(field);
    expect(field?.selectionStart).toBe('message 2'.length);
    expect(field?.selectionEnd).toBe('message 2'.length);
    await userEvent.keyboard(' changed{Escape}');
    expect(editField()).toBeNull();
    expect(document.activeElement).toBe(composer());
    expect(screen.getByText('message 2')).toBeTruthy();
    expect(edits).toEqual([]);
  });

  it('saves with Enter like the menu’s Edit, and gives the focus back to the composer', async () => {
    await setup();
    await userEvent.click(composer());
    await userEvent.keyboard('{ArrowUp} again{Enter}');
    await waitFor(() => expect(edits).toEqual([{ id: 'm2', body: { content: 'message 2 again' } }]));
    await waitFor(() => expect(editField()).toBeNull());
    expect(await screen.findByText('message 2 again')).toBeTruthy();
    expect(document.activeElement).toBe(composer());
  });

  it('keeps moving the caret when the composer has text', async () => {
    await setup();
    await userEvent.click(composer());
    await userEvent.keyboard('draft{ArrowUp}');
    expect(editField()).toBeNull();
    expect((composer() as HTMLTextAreaElement).value).toBe('draft');
  });

  it('does nothing when I have no message to edit', async () => {
    history = [aMessage(1), aMessage(2, { sender: ADA, deleted: true, content: '' })];
    await setup();
    await userEvent.click(composer());
    await userEvent.keyboard('{ArrowUp}');
    expect(editField()).toBeNull();
    expect(document.activeElement).toBe(composer());
  });
});

describe('Up-arrow in a thread', () => {
  it("edits my last reply of the thread, not the channel's messages; Escape goes back to the reply box", async () => {
    history = [
      aMessage(1, { sender: ADA }),
      aMessage(2, { sender: ADA }),
      aMessage(3, { replyCount: 3 }),
      aMessage(4, { sender: ADA, parentId: 'm3', content: 'my first reply' }),
      aMessage(5, { sender: ADA, parentId: 'm3', content: 'my last reply' }),
      aMessage(6, { parentId: 'm3', content: "Bob's reply" }),
    ];
    await setup();
    await userEvent.click(screen.getByRole('button', { name: '3 replies' }));
    await screen.findByText("Bob's reply");
    const replyBox = screen.getByRole('textbox', { name: 'Reply in thread' });
    await userEvent.click(replyBox);
    await userEvent.keyboard('{ArrowUp}');
    expect(editField()?.value).toBe('my last reply');
    expect(document.activeElement).toBe(editField());
    await userEvent.keyboard('{Escape}');
    expect(editField()).toBeNull();
    expect(document.activeElement).toBe(replyBox);
    // The thread is still open (Escape closed the edit only).
    expect(screen.getByRole('heading', { name: 'Thread' })).toBeTruthy();
  });
});

/** A message's toolbar renders once the pointer comes into it: bring it into every message. */
const showActions = () => {
  for (const item of screen.getAllByRole('listitem')) fireEvent.pointerEnter(item);
};

describe('Copy link to message', () => {
  it('copies the absolute link that opens the channel at the message, and says so', async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    await setup();
    showActions();
    const buttons = screen.getAllByRole('button', { name: 'Copy link to message' });
    // One per message of the flow (m1, m2, m3, m6): none on a deleted message or an announcement.
    expect(buttons).toHaveLength(4);
    await userEvent.click(buttons[0] as HTMLElement);
    expect(writeText).toHaveBeenCalledWith(
      `${window.location.origin}/workspace/Apollo/channel/c1?message=m1&seq=1`,
    );
    expect(screen.queryByRole('dialog', { name: 'Link to message' })).toBeNull();
  });

  it('shows the link to copy by hand when the clipboard cannot be written', async () => {
    const writeText = vi.fn(async () => {
      throw new DOMException('denied', 'NotAllowedError');
    });
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    await setup();
    showActions();
    await userEvent.click(screen.getAllByRole('button', { name: 'Copy link to message' })[1] as HTMLElement);
    const dialog = await screen.findByRole('dialog', { name: 'Link to message' });
    const field = screen.getByRole('textbox', { name: 'Link to message' }) as HTMLInputElement;
    expect(dialog.contains(field)).toBe(true);
    expect(field.value).toBe(`${window.location.origin}/workspace/Apollo/channel/c1?message=m2&seq=2`);
  });
});
