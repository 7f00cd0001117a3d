import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Markdown } from './markdown.tsx';

// The parser fails on messages that say BOOM: how any future parser or renderer bug would look.
vi.mock('./parse.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./parse.ts')>();
  return {
    ...actual,
    parseMarkdown: (source: string) => {
      if (source.includes('BOOM')) throw new Error('parser bug');
      return actual.parseMarkdown(source);
    },
  };
});

describe('a message whose rendering throws', () => {
  it('is shown as its plain text while the other messages render as Markdown', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { container } = render(
      <ul>
        <li>
          <Markdown source="before **bold**" />
        </li>
        <li>
          <Markdown source={'BOOM **not bold** <img src=x onerror=alert(1)>\nsecond line'} />
        </li>
        <li>
          <Markdown source="after _em_" />
        </li>
      </ul>,
    );
    expect(container.querySelector('strong')?.textContent).toBe('bold');
    expect(container.querySelector('em')?.textContent).toBe('em');
    const plain = container.querySelector('[data-plain-text]');
    expect(plain?.textContent).toBe('BOOM **not bold** <img src=x onerror=alert(1)>\nsecond line');
    expect(plain?.querySelector('img, strong')).toBeNull();
    expect(container.querySelectorAll('li')).toHaveLength(3);
  });

  it('renders as Markdown again once its text changes (an edit)', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { container, rerender } = render(<Markdown source="BOOM" />);
    expect(screen.getByText('BOOM').hasAttribute('data-plain-text')).toBe(true);
    rerender(<Markdown source="fixed **now**" />);
    expect(container.querySelector('[data-plain-text]')).toBeNull();
    expect(container.querySelector('strong')?.textContent).toBe('now');
  });
});
