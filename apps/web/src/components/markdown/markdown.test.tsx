import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Markdown } from './markdown.tsx';
import { safeHref } from './parse.ts';

const renderMd = (source: string) => render(<Markdown source={source} />).container;

/** Nothing in the output may run script: no script/iframe/img elements, no on* attributes, no unsafe URLs. */
function expectInert(container: HTMLElement) {
  expect(
    container.querySelectorAll('script, iframe, object, embed, img, svg, style, form, input'),
  ).toHaveLength(0);
  for (const element of container.querySelectorAll('*')) {
    for (const attr of element.attributes) {
      expect(attr.name.startsWith('on'), `${element.tagName} ${attr.name}`).toBe(false);
      if (['href', 'src', 'action', 'formaction', 'xlink:href'].includes(attr.name)) {
        expect(attr.value).toMatch(/^(https?:|mailto:)/);
      }
    }
  }
}

describe('Markdown rendering', () => {
  it('renders bold, italic, underline, strike, code and mentions as elements', () => {
    const c = renderMd('**b** *i* _j_ __u__ ~~s~~ `c` @ada.lovelace, snake_case_name');
    expect(c.querySelector('strong')?.textContent).toBe('b');
    expect([...c.querySelectorAll('em')].map((e) => e.textContent)).toEqual(['i', 'j']);
    expect(c.querySelector('u')?.textContent).toBe('u');
    expect(c.querySelector('s')?.textContent).toBe('s');
    expect(c.querySelector('code')?.textContent).toBe('c');
    expect(c.querySelector('[data-mention]')?.textContent).toBe('@ada.lovelace');
    expect(c.textContent).toContain('snake_case_name');
  });

  it('renders a member mention @[Name](email) as one highlighted @Name, inert', () => {
    const c = renderMd(
      'hi @[Ann Able](ann@example.com), and @[<img src=x onerror=alert(1)>](x@y.z) `@[No](n@o.p)`',
    );
    const mentions = [...c.querySelectorAll('[data-mention]')];
    expect(mentions.map((m) => m.textContent)).toEqual(['@Ann Able', '@<img src=x onerror=alert(1)>']);
    expect(mentions[0]?.getAttribute('data-mention')).toBe('ann@example.com');
    expect(c.querySelector('code')?.textContent).toBe('@[No](n@o.p)');
    expect(c.querySelector('a')).toBeNull();
    expectInert(c);
  });

  it('nests markup and keeps markup inside code literal', () => {
    const c = renderMd('**bold *and italic* here** `**not bold**`');
    expect(c.querySelector('strong em')?.textContent).toBe('and italic');
    expect(c.querySelector('code')?.textContent).toBe('**not bold**');
    expect(renderMd('***both***').querySelector('strong em')?.textContent).toBe('both');
  });

  it('renders lists, quotes and fenced code blocks', () => {
    const c = renderMd(
      '- one\n- two\n\n1. first\n2. second\n\n> quoted **text**\n\n```ts\nconst x = 1;\n```',
    );
    expect([...c.querySelectorAll('ul li')].map((li) => li.textContent)).toEqual(['one', 'two']);
    expect([...c.querySelectorAll('ol li')].map((li) => li.textContent)).toEqual(['first', 'second']);
    expect(c.querySelector('blockquote strong')?.textContent).toBe('text');
    expect(c.querySelector('pre code')?.textContent).toBe('const x = 1;');
    expect(c.querySelector('pre code')?.getAttribute('data-lang')).toBe('ts');
  });

  it('links http(s) and mailto only, opening in a new tab without an opener', () => {
    const c = renderMd(
      '[docs](https://example.com/a?b=1) see https://cohort.example/x. [mail](mailto:a@b.c)',
    );
    const links = [...c.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      'https://example.com/a?b=1',
      'https://cohort.example/x',
      'mailto:a@b.c',
    ]);
    for (const a of links) {
      expect(a.getAttribute('rel')).toBe('noopener noreferrer');
      expect(a.getAttribute('target')).toBe('_blank');
    }
  });

  const corpus = [
    '[x](javascript:alert(1))',
    '[x](JaVaScRiPt:alert(1))',
    '[x](javascript&#58;alert(1))',
    '[x](java\tscript:alert(1))',
    '[x](%6A%61%76%61%73%63%72%69%70%74:alert(1))',
    '[x]( javascript:alert(1))',
    '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
    '[x](vbscript:msgbox(1))',
    '[x](//evil.example)',
    '<img src=x onerror=alert(1)>',
    '<script>alert(1)</script>',
    '<a href="javascript:alert(1)">x</a>',
    '<iframe src="https://evil.example"></iframe>',
    '**<img src=x onerror=alert(1)>**',
    '[<img src=x onerror=alert(1)>](https://example.com)',
    '[**x**](javascript:alert(1))',
    '`<script>alert(1)</script>`',
    '```html\n<script>alert(1)</script>\n```',
    '> <svg onload=alert(1)>',
    '- <style>*{display:none}</style>',
    'data:text/html,<script>alert(1)</script>',
    'javascript:alert(1)',
  ];

  it.each(corpus)('renders %j inert', (source) => {
    const c = renderMd(source);
    expectInert(c);
    // Inert, not dropped: an empty rendering would pass every check above.
    expect(c.textContent?.trim()).not.toBe('');
  });

  it('shows raw HTML as the literal text it is', () => {
    const c = renderMd('<img src=x onerror=alert(1)> and <script>alert(1)</script>');
    expect(c.textContent).toBe('<img src=x onerror=alert(1)> and <script>alert(1)</script>');
  });

  it('keeps an unsafe link as text instead of dropping it', () => {
    expect(renderMd('[x](javascript:alert(1))').textContent).toBe('[x](javascript:alert(1))');
  });

  it('safeHref accepts only absolute http, https and mailto URLs', () => {
    expect(safeHref('https://a.example/b')).toBe('https://a.example/b');
    expect(safeHref('mailto:a@b.c')).toBe('mailto:a@b.c');
    for (const bad of [
      'javascript:alert(1)',
      'data:,x',
      '/relative',
      'java\nscript:alert(1)',
      'file:///etc/passwd',
    ]) {
      expect(safeHref(bad)).toBeNull();
    }
  });
});
