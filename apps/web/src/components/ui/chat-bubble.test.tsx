import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ChatBubble } from './chat-bubble.tsx';

function Broken(): never {
  throw new Error('cannot render this message');
}

describe('ChatBubble', () => {
  it('shows a message that throws while rendering as plain text, and the rest of the log', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const date = new Date('2026-01-02T10:00:00Z');
    render(
      <ul>
        <ChatBubble own={false} name="Ann" content="first **message**" date={date} />
        <ChatBubble own={false} name="Bob" content={'> hostile\n**text**'} date={date} body={<Broken />} />
        <ChatBubble own content="still here" date={date} />
      </ul>,
    );
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
    expect(screen.getByText('message').tagName).toBe('STRONG');
    const plain = screen.getByText(/hostile/);
    expect(plain.hasAttribute('data-plain-text')).toBe(true);
    expect(plain.textContent).toBe('> hostile\n**text**');
    expect(screen.getByText('still here')).toBeTruthy();
  });

  it('renders its actions once the pointer or focus comes into the message, not before', () => {
    const date = new Date('2026-01-02T10:00:00Z');
    const actions = (
      <div role="toolbar" aria-label="Message actions">
        <button type="button">Edit message</button>
      </div>
    );
    render(
      <ul>
        <ChatBubble own={false} name="Ann" content="by pointer" date={date} actions={actions} />
        <ChatBubble
          own={false}
          name="Bob"
          content="by keyboard [a link](https://example.com)"
          date={date}
          actions={actions}
        />
      </ul>,
    );
    expect(screen.queryAllByRole('toolbar')).toHaveLength(0);
    const [byPointer, byKeyboard] = screen.getAllByRole('listitem') as [HTMLElement, HTMLElement];
    fireEvent.pointerEnter(byPointer);
    expect(byPointer.querySelector('[role="toolbar"]')).not.toBeNull();
    expect(byKeyboard.querySelector('[role="toolbar"]')).toBeNull();
    act(() => screen.getByRole('link', { name: 'a link' }).focus());
    expect(byKeyboard.querySelector('[role="toolbar"]')).not.toBeNull();
    // It stays once shown (the pointer leaving does not unmount a picker or dialog it opened).
    fireEvent.pointerLeave(byPointer);
    expect(screen.getAllByRole('toolbar')).toHaveLength(2);
  });
});
