import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { SpeakerLayoutView } from './mesh-call-view.tsx';
import type { MeshView, RemotePeer, SfuView } from './use-mesh-call.ts';

const peer = (id: string, name: string): RemotePeer => ({
  id,
  name,
  email: `${id}@example.com`,
  stream: null,
  connection: 'connected',
  audioMuted: false,
  videoMuted: false,
});

const view: MeshView = {
  status: 'in-call',
  local: null,
  peers: [peer('ann', 'Ann'), peer('bob', 'Bob'), peer('cy', 'Cy')],
  sharing: false,
  audioMuted: false,
  videoMuted: false,
  notice: null,
  sfu: null,
};
const sfu = (speaking: string[]): SfuView => ({ max: 25, self: 'me', speaking, lastSpeaker: null });

const tileOf = (name: string) =>
  screen.getAllByTestId('remote-tile').find((t) => t.querySelector('figcaption')?.textContent === name);

describe('the SFU speaker layout', () => {
  it('moves a tile between large and small without replacing its video', () => {
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    const { rerender } = render(<SpeakerLayoutView view={view} sfu={sfu([])} />);
    // Nobody speaks: the first participant is large.
    expect(tileOf('Ann')?.dataset.size).toBe('large');
    expect(tileOf('Cy')?.dataset.size).toBe('small');
    const cyVideo = tileOf('Cy')?.querySelector('video');
    const annVideo = tileOf('Ann')?.querySelector('video');
    const localVideo = screen.getByTestId('local-video');
    expect(cyVideo).toBeTruthy();

    // Cy speaks: Cy is large, Ann small; both keep the <video> that was playing their stream.
    rerender(<SpeakerLayoutView view={view} sfu={sfu(['cy'])} />);
    expect(tileOf('Cy')?.dataset.size).toBe('large');
    expect(tileOf('Cy')?.dataset.speaking).toBe('true');
    expect(tileOf('Ann')?.dataset.size).toBe('small');
    expect(tileOf('Cy')?.querySelector('video')).toBe(cyVideo);
    expect(tileOf('Ann')?.querySelector('video')).toBe(annVideo);
    expect(screen.getByTestId('local-video')).toBe(localVideo);
    // The speaker comes first, then our own small tile, then the others in their order.
    const order = [...document.querySelectorAll('figcaption > span:first-child')].map((c) => c.textContent);
    expect(order).toEqual(['Cy', 'You', 'Ann', 'Bob']);
  });

  it('alone in the meeting, our own picture is the large one', () => {
    render(<SpeakerLayoutView view={{ ...view, peers: [] }} sfu={sfu([])} />);
    expect(screen.getByTestId('local-video').closest('figure')?.dataset.size).toBe('large');
    expect(screen.queryAllByTestId('remote-tile')).toEqual([]);
  });
});
