import { emojiSchema } from '@cohort/shared/chat';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { activeMention, expandMentions, matchMentions } from '../composer/mentions.ts';
import { activeShortcode, matchShortcodes, SHORTCODES } from '../composer/shortcodes.ts';
import { ChatComposer } from './chat-composer.tsx';

const members = [
  { id: 'u1', name: 'Ann Able', email: 'ann@example.com' },
  { id: 'u2', name: 'Andy Apple', email: 'andy@example.com' },
  { id: 'u3', name: 'Bob Baker', email: 'bob@example.com' },
];

function setup() {
  const onSend = vi.fn();
  render(<ChatComposer label="Message general" onSend={onSend} mentionCandidates={members} />);
  const box = screen.getByRole('textbox', { name: 'Message general' }) as HTMLTextAreaElement;
  return { onSend, box, user: userEvent.setup() };
}

const optionNames = () => screen.getAllByRole('option').map((o) => o.textContent);

describe('ChatComposer @mention autocomplete', () => {
  it('suggests members and @channel, navigates with the arrows and picks with Enter', async () => {
    const { box, user, onSend } = setup();
    expect(box.getAttribute('aria-autocomplete')).toBe('list');
    expect(box.getAttribute('aria-controls')).toBeNull();
    await user.type(box, 'hello @an');
    expect(box.getAttribute('aria-controls')).toBe(
      screen.getByRole('listbox', { name: 'Mention suggestions' }).id,
    );
    expect(optionNames()).toEqual(['Ann Ableann@example.com', 'Andy Appleandy@example.com']);
    expect(screen.getAllByRole('option').map((o) => o.getAttribute('aria-selected'))).toEqual([
      'true',
      'false',
    ]);
    await user.keyboard('{ArrowDown}');
    const selected = screen.getByRole('option', { selected: true });
    expect(selected.textContent).toContain('Andy Apple');
    expect(box.getAttribute('aria-activedescendant')).toBe(selected.id);
    await user.keyboard('{Enter}');
    // Enter picked the member; it did not send.
    expect(onSend).not.toHaveBeenCalled();
    // The composer reads "@Andy Apple"; the message carries the mention markup.
    expect(box.value).toBe('hello @Andy Apple ');
    expect(screen.queryByRole('listbox')).toBeNull();
    await user.type(box, '@ch');
    expect(optionNames()).toEqual(['@channelNotify everyone in this channel']);
    await user.keyboard('{Tab}');
    expect(box.value).toBe('hello @Andy Apple @channel ');
    await user.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledWith('hello @[Andy Apple](andy@example.com) @channel ', [], []);
  });

  it('Escape closes the list and Enter then sends; a click picks', async () => {
    const { box, user, onSend } = setup();
    await user.type(box, 'ping @bo');
    expect(optionNames()).toEqual(['Bob Bakerbob@example.com']);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    await user.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledWith('ping @bo', [], []);
    await user.type(box, '@b');
    await user.click(screen.getByRole('option', { name: /Bob Baker/ }));
    expect(box.value).toBe('@Bob Baker ');
    await user.type(box, 'and @Bob Bakery, not @Bob Baker.');
    await user.keyboard('{Enter}');
    expect(onSend).toHaveBeenLastCalledWith(
      '@[Bob Baker](bob@example.com) and @Bob Bakery, not @[Bob Baker](bob@example.com).',
      [],
      [],
    );
  });

  it('sends a typed @Name that was never picked as plain text', async () => {
    const { box, user, onSend } = setup();
    await user.type(box, 'cc @Ann Able{Escape}');
    await user.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledWith('cc @Ann Able', [], []);
  });

  it('does not suggest inside e-mail addresses or without candidates', () => {
    expect(activeMention('mail me at ann@ex', 17)).toBeNull();
    expect(activeMention('@', 1)).toEqual({ start: 0, query: '' });
    expect(activeMention('x (@an', 6)).toEqual({ start: 3, query: 'an' });
    expect(matchMentions('zz', members, true)).toEqual([]);
    render(<ChatComposer label="Plain" onSend={() => {}} />);
    expect(screen.getByRole('textbox', { name: 'Plain' })).toBeTruthy();
  });
});

describe('ChatComposer :shortcode: completion', () => {
  it('suggests emojis for `:smi`, smile first, and Enter inserts 😄 without sending', async () => {
    const { box, user, onSend } = setup();
    await user.type(box, 'great :smi');
    const list = screen.getByRole('listbox', { name: 'Emoji suggestions' });
    expect(list).toBeTruthy();
    expect(screen.getAllByRole('option')[0]?.textContent).toBe('😄:smile:');
    await user.keyboard('{Enter}');
    expect(onSend).not.toHaveBeenCalled();
    expect(box.value).toBe('great 😄');
    expect(screen.queryByRole('listbox')).toBeNull();
    await user.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledWith('great 😄', [], []);
  });

  it('leaves times, URLs and one-letter codes alone', () => {
    expect(activeShortcode('at 10:30', 8)).toBeNull();
    expect(activeShortcode('https://x', 9)).toBeNull();
    expect(activeShortcode(':s', 2)).toBeNull();
    expect(activeShortcode('(:Sm', 4)).toEqual({ start: 1, query: 'sm' });
    expect(activeShortcode('ok :+1', 6)).toEqual({ start: 3, query: '+1' });
    expect(matchShortcodes('+1').map((o) => o.emoji)).toEqual(['👍']);
    expect(matchShortcodes('zzz')).toEqual([]);
  });

  it('offers only emojis the server accepts as a reaction, each with its own shortcode', () => {
    for (const { emoji } of SHORTCODES) expect(emojiSchema.safeParse(emoji).success, emoji).toBe(true);
    expect(new Set(SHORTCODES.map((o) => o.code)).size).toBe(SHORTCODES.length);
  });

  it('expands only picked members, longest name first', () => {
    const ann = { id: 'a', name: 'Ann', email: 'a@x.io' };
    const annAble = { id: 'b', name: 'Ann Able', email: 'b@x.io' };
    expect(expandMentions('@Ann Able and @Ann, mail@Ann', [ann, annAble])).toBe(
      '@[Ann Able](b@x.io) and @[Ann](a@x.io), mail@Ann',
    );
    expect(expandMentions('@Ann', [])).toBe('@Ann');
  });
});
