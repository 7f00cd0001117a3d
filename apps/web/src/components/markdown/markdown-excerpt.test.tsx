import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MarkdownExcerpt } from './markdown-excerpt.tsx';

describe('MarkdownExcerpt', () => {
  it('shows the formatting, not the markup, with nothing to click inside', () => {
    const { container } = render(
      <MarkdownExcerpt
        source={
          'The **release** is _Friday_: see [the plan](https://example.com/plan) @[Ada Lovelace](ada@example.com)\n\n- one\n- `two`'
        }
      />,
    );
    expect(container.textContent).toBe('The release is Friday: see the plan @Ada Lovelace one · two');
    expect(container.querySelector('strong')?.textContent).toBe('release');
    expect(container.querySelector('em')?.textContent).toBe('Friday');
    expect(container.querySelector('code')?.textContent).toBe('two');
    // Each item of a list of messages is a link itself: no link, button or form inside.
    expect(container.querySelectorAll('a, button, input')).toHaveLength(0);
  });

  it('shows HTML in a message as the text it is', () => {
    const { container } = render(<MarkdownExcerpt source={'<img src=x onerror=alert(1)> **hi**'} />);
    expect(container.querySelectorAll('img')).toHaveLength(0);
    expect(container.textContent).toBe('<img src=x onerror=alert(1)> hi');
  });
});
