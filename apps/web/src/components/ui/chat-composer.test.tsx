import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ChatComposer } from './chat-composer.tsx';

function setup(props: Partial<Parameters<typeof ChatComposer>[0]> = {}) {
  const onSend = vi.fn();
  const onInput = vi.fn();
  render(<ChatComposer label="Message general" onSend={onSend} onInput={onInput} {...props} />);
  const box = screen.getByRole('textbox', { name: 'Message general' }) as HTMLTextAreaElement;
  return { onSend, onInput, box, user: userEvent.setup() };
}

const selectText = (box: HTMLTextAreaElement, text: string) => {
  const start = box.value.indexOf(text);
  box.setSelectionRange(start, start + text.length);
};

describe('ChatComposer', () => {
  it('has the spec toolbar, in order, and the placeholder', () => {
    setup({ keepFilesLocally: true });
    const names = screen
      .getByRole('toolbar', { name: 'Formatting and attachments' })
      .querySelectorAll('button');
    expect([...names].map((b) => b.getAttribute('aria-label'))).toEqual([
      'Bold',
      'Italic',
      'Underline',
      'Emojis',
      'Voice Note',
      'Attach Document',
      'Insert Code',
      'Annotate',
    ]);
    expect(screen.getByPlaceholderText('Type a message...')).toBeTruthy();
  });

  it('formats the selection with the toolbar and with Ctrl+B/I/U', async () => {
    const { box, user, onInput } = setup();
    await user.type(box, 'one two three four');
    selectText(box, 'one');
    await user.click(screen.getByRole('button', { name: 'Bold' }));
    selectText(box, 'two');
    await user.click(screen.getByRole('button', { name: 'Italic' }));
    selectText(box, 'three');
    await user.click(screen.getByRole('button', { name: 'Underline' }));
    expect(box.value).toBe('**one** *two* __three__ four');
    selectText(box, 'four');
    await user.keyboard('{Control>}b{/Control}');
    expect(box.value).toBe('**one** *two* __three__ **four**');
    selectText(box, 'four');
    await user.keyboard('{Control>}b{/Control}');
    expect(box.value).toBe('**one** *two* __three__ four');
    expect(onInput).toHaveBeenLastCalledWith('**one** *two* __three__ four');
  });

  it('selects the formatted text at once, and keeps a selection made right after', async () => {
    const { box, user } = setup();
    await user.type(box, 'one two');
    selectText(box, 'one');
    // A synchronous click: nothing gets a frame in between, as when the browser is busy.
    fireEvent.click(screen.getByRole('button', { name: 'Bold' }));
    expect(box.value).toBe('**one** two');
    expect([box.selectionStart, box.selectionEnd]).toEqual([2, 5]);
    // A quick user (or a test) selects the next word before the next frame: it must stay selected.
    selectText(box, 'two');
    await new Promise((resolve) => requestAnimationFrame(resolve));
    expect([box.selectionStart, box.selectionEnd]).toEqual([8, 11]);
  });

  it('inserts inline code for a selection in a line, a fenced block for several lines', async () => {
    const { box, user } = setup();
    await user.type(box, 'run npm test');
    selectText(box, 'npm test');
    await user.click(screen.getByRole('button', { name: 'Insert Code' }));
    expect(box.value).toBe('run `npm test`');
    await user.clear(box);
    await user.type(box, 'a{Shift>}{Enter}{/Shift}b');
    box.setSelectionRange(0, 3);
    await user.click(screen.getByRole('button', { name: 'Insert Code' }));
    expect(box.value).toBe('```\na\nb\n```');
  });

  it('picks an emoji through the searchable picker', async () => {
    const { box, user } = setup();
    await user.type(box, 'launch ');
    await user.click(screen.getByRole('button', { name: 'Emojis' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search emojis' }), 'rocket');
    const results = screen.getByRole('dialog', { name: 'Emojis' }).querySelectorAll('li button');
    expect(results).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'rocket launch ship' }));
    expect(box.value).toBe('launch 🚀');
    expect(screen.queryByRole('dialog', { name: 'Emojis' })).toBeNull();
  });

  it('sends with Enter (Shift+Enter is a new line), clears, and sends nothing blank', async () => {
    const { box, user, onSend } = setup();
    await user.type(box, '   {Enter}');
    expect(onSend).not.toHaveBeenCalled();
    await user.type(box, 'line one{Shift>}{Enter}{/Shift}line two{Enter}');
    expect(onSend).toHaveBeenCalledWith('   line one\nline two', [], []);
    expect(box.value).toBe('');
  });

  it('has no file tools without a conversation, unless it keeps files locally', async () => {
    setup();
    expect(screen.queryByRole('button', { name: 'Attach Document' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Voice Note' })).toBeNull();
  });

  it('keeps chosen files locally and hands them over on Send (the Canvas)', async () => {
    const { box, user, onSend } = setup({ keepFilesLocally: true, requireText: true });
    const file = new File(['%PDF-1.4'], 'plan.pdf', { type: 'application/pdf' });
    await user.upload(screen.getByLabelText('Choose files'), file);
    expect(screen.getByRole('list', { name: 'Files to send' }).textContent).toContain('plan.pdf');
    // The Canvas needs text: a file alone does not send.
    await user.type(box, '{Enter}');
    expect(onSend).not.toHaveBeenCalled();
    await user.type(box, 'see attached{Enter}');
    expect(onSend).toHaveBeenCalledTimes(1);
    const [text, uploaded, files] = onSend.mock.calls[0] as [
      string,
      unknown[],
      Array<{ name: string; status: string }>,
    ];
    expect(text).toBe('see attached');
    expect(uploaded).toEqual([]);
    expect(files.map((f) => [f.name, f.status])).toEqual([['plan.pdf', 'local']]);
    expect(screen.queryByRole('list', { name: 'Files to send' })).toBeNull();
  });
});
