import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { excerptOf, MENTION_PATTERN, mentionMarkup, NOTIFICATION_EXCERPT_MAX } from './notifications.ts';

/** excerptOf as it was: the mention pattern, then whitespace (what the one-pass version must equal). */
function reference(content: string, max: number): string {
  const plain = content
    .replace(MENTION_PATTERN, (_all, name: string) => `@${name}`)
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > max ? `${plain.slice(0, max - 1)}…` : plain;
}

const MESSAGE_MAX = 4000;
/** Characters read per character of the message, at most (issue 17: linear, whatever the text). */
const STEPS_PER_CHAR = 6;

const piece = fc.oneof(
  fc.constantFrom(
    '@',
    '@[',
    '[',
    ']',
    '](',
    '(',
    ')',
    '@[a](b@c)',
    '@[@[',
    'x@y',
    '\n',
    ' ',
    '\t',
    '  ',
    'ann',
    '😀',
    '\uD83D',
  ),
  fc
    .tuple(fc.string({ maxLength: 120 }), fc.string({ maxLength: 8 }))
    .map(([name, user]) => `@[${name}](${user}@example.com)`),
  fc
    .tuple(fc.string({ minLength: 1, maxLength: 20 }), fc.emailAddress())
    .map(([name, email]) => mentionMarkup(name, email)),
);

const message = fc.oneof(
  fc.array(piece, { maxLength: 300 }).map((parts) => parts.join('').slice(0, MESSAGE_MAX)),
  fc
    .tuple(fc.array(piece, { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: MESSAGE_MAX }))
    .map(([parts, times]) => {
      const unit = parts.join('') || '@[';
      return unit.repeat(Math.min(times, Math.ceil(MESSAGE_MAX / unit.length))).slice(0, MESSAGE_MAX);
    }),
);

describe('excerptOf', () => {
  it('shows mentions as @Name, collapses whitespace and cuts long text', () => {
    expect(excerptOf('  hi  @[Ann  Able](ann@example.com),\n\tlook ')).toBe('hi @Ann Able, look');
    expect(excerptOf('@[x](not-an-email) @[y](a@b')).toBe('@[x](not-an-email) @[y](a@b');
    const long = excerptOf('word '.repeat(100));
    expect(long).toHaveLength(NOTIFICATION_EXCERPT_MAX);
    expect(long.endsWith('…')).toBe(true);
  });

  it('reads the same as the mention pattern would, on any text', () => {
    fc.assert(
      fc.property(message, fc.constantFrom(NOTIFICATION_EXCERPT_MAX, 20, MESSAGE_MAX * 2), (content, max) => {
        expect(excerptOf(content, max)).toBe(reference(content, max));
      }),
      { numRuns: 300 },
    );
  });

  it('reads a hostile message in linear steps, however many `@[` share one `](…)`', () => {
    const hostile = [
      `${'@['.repeat(50)}](a@${'b'.repeat(3890)}`,
      `${`${'@['.repeat(45)}](a@${'b'.repeat(200)}`.repeat(13)}`,
      '@[)'.repeat(1333),
      ' '.repeat(MESSAGE_MAX),
    ];
    for (const content of hostile) {
      const meter = { steps: 0 };
      excerptOf(content, MESSAGE_MAX * 2, meter);
      expect(meter.steps).toBeLessThanOrEqual(STEPS_PER_CHAR * (content.length + 1));
    }
    fc.assert(
      fc.property(message, (content) => {
        const meter = { steps: 0 };
        excerptOf(content, MESSAGE_MAX * 2, meter);
        expect(meter.steps).toBeLessThanOrEqual(STEPS_PER_CHAR * (content.length + 1));
      }),
      { numRuns: 300 },
    );
  });
});
