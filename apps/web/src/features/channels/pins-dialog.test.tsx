import type { ChannelMessage } from '@cohort/shared/chat';
import type { ChannelPin } from '@cohort/shared/pins';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderAt, requestsOf } from '../../test/render.tsx';
import { aChannel } from '../workspaces/test-data.ts';
import PinsDialog from './pins-dialog.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const aMessage = (seq: number, content: string): ChannelMessage => ({
  _id: `m${seq}`,
  seq,
  channel: 'c1',
  content,
  timestamp: new Date(2026, 10, 26, 9, seq).toISOString(),
  clientId: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
  attachments: [],
  kind: 'text',
  sender: { _id: 'u2', email: 'bob@example.com', name: 'Bob Builder' },
  rev: seq,
  editedAt: null,
  deleted: false,
  parentId: null,
  replyCount: 0,
  lastReplyAt: null,
  reactions: [],
  pinned: { by: { _id: 'u1', name: 'Ada Lovelace' }, at: new Date().toISOString() },
});
const aPin = (seq: number, content: string): ChannelPin => ({
  message: aMessage(seq, content),
  pinnedAt: new Date().toISOString(),
  pinnedBy: { _id: 'u1', name: 'Ada Lovelace' },
});

const PINS = '/api/workspaces/Apollo/channels/c1/pins';

describe('the Pins panel', () => {
  it('lists the pins as the server orders them, each linking to its message; Unpin unpins and refetches', async () => {
    let pins = [aPin(7, 'Newest pin'), aPin(3, 'Older pin')];
    const fetchMock = mockFetch({
      [`GET ${PINS}`]: () => ({ json: pins }),
      'DELETE /api/workspaces/Apollo/channels/c1/messages/m7/pin': () => {
        pins = pins.slice(1);
        return { json: aMessage(7, 'Newest pin') };
      },
    });
    renderAt('/x', <PinsDialog workspaceName="Apollo" channel={aChannel()} mayPin onClose={() => {}} />);
    const list = await screen.findByRole('list', { name: 'Pinned messages' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((i) => i.textContent)).toEqual([
      expect.stringContaining('Newest pin'),
      expect.stringContaining('Older pin'),
    ]);
    expect(items[0]?.textContent).toContain('Bob Builder');
    expect(items[0]?.textContent).toContain('Pinned by Ada Lovelace');
    expect(
      within(items[0] as HTMLElement)
        .getByRole('link')
        .getAttribute('href'),
    ).toBe('/workspace/Apollo/channel/c1?message=m7&seq=7');

    await userEvent.click(
      within(items[0] as HTMLElement).getByRole('button', { name: 'Unpin message from Bob Builder' }),
    );
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(1));
    expect(requestsOf(fetchMock).map((r) => r.route)).toContain(
      'DELETE /api/workspaces/Apollo/channels/c1/messages/m7/pin',
    );
  });

  it('offers no Unpin to someone who may not pin, and says when nothing is pinned', async () => {
    mockFetch({ [`GET ${PINS}`]: () => ({ json: [aPin(1, 'Only pin')] }) });
    renderAt(
      '/x',
      <PinsDialog workspaceName="Apollo" channel={aChannel()} mayPin={false} onClose={() => {}} />,
    );
    await screen.findByText('Only pin');
    expect(screen.queryByRole('button', { name: /^Unpin/ })).toBeNull();
    cleanup();
    vi.unstubAllGlobals();
    mockFetch({ [`GET ${PINS}`]: () => ({ json: [] }) });
    renderAt(
      '/x',
      <PinsDialog workspaceName="Apollo" channel={aChannel()} mayPin={false} onClose={() => {}} />,
    );
    expect(await screen.findByText('Nothing is pinned yet.')).toBeTruthy();
  });
});
