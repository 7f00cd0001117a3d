import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MessageActions, PinnedMarker } from './message-parts.tsx';

afterEach(cleanup);

const noop = () => {};
const base = {
  own: false,
  canEdit: false,
  canDelete: false,
  onReact: noop,
  onEdit: noop,
  onDelete: () => Promise.resolve(),
};

describe('MessageActions: pin and save', () => {
  it('offers "Pin to channel" and "Save for later", and calls back when chosen', async () => {
    const onTogglePin = vi.fn();
    const onToggleSave = vi.fn();
    render(<MessageActions {...base} onTogglePin={onTogglePin} onToggleSave={onToggleSave} />);
    const pin = screen.getByRole('button', { name: 'Pin to channel' });
    const save = screen.getByRole('button', { name: 'Save for later' });
    expect(pin.getAttribute('aria-pressed')).toBe('false');
    expect(save.getAttribute('aria-pressed')).toBe('false');
    await userEvent.click(pin);
    await userEvent.click(save);
    expect(onTogglePin).toHaveBeenCalledOnce();
    expect(onToggleSave).toHaveBeenCalledOnce();
  });

  it('names the way back when the message is pinned and saved', () => {
    render(<MessageActions {...base} pinned saved onTogglePin={noop} onToggleSave={noop} />);
    expect(screen.getByRole('button', { name: 'Unpin from channel' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(screen.getByRole('button', { name: 'Remove from saved' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
  });

  it('offers no pin to someone who may not pin (no callback), saving still', () => {
    render(<MessageActions {...base} onToggleSave={noop} />);
    expect(screen.queryByRole('button', { name: /pin/i })).toBeNull();
    expect(screen.getByRole('button', { name: 'Save for later' })).toBeTruthy();
  });

  it('says who pinned a message', () => {
    render(<PinnedMarker by="Ada Lovelace" />);
    expect(screen.getByText('Pinned by Ada Lovelace')).toBeTruthy();
  });
});
