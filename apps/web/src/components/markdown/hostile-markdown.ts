import fc from 'fast-check';

/**
 * Test-only generators of adversarial chat Markdown (issue 17): nested and unbalanced quotes, lists,
 * emphasis, code spans and fences, links, mentions and bare URLs, up to the 4,000-character limit.
 *
 * `words` are the lower-case words a reader must still see once the message is rendered. Only link
 * targets, mention e-mails and fence languages are hidden by the renderer, and the generators write
 * those in upper case and digits only, with no `(`, `@` or `:` anywhere else, so no other
 * combination of pieces can hide a word.
 */
export interface Piece {
  md: string;
  words: string[];
}

export const MESSAGE_MAX = 4000;

const word = fc.stringMatching(/^[a-z]{1,8}$/);
const hidden = fc.stringMatching(/^[A-Z0-9]{1,6}$/);
const piece = (md: string, words: string[] = []): Piece => ({ md, words });

/** Markup characters alone: markers that may or may not pair, line starts, escapes. */
const soup = fc
  .constantFrom(
    '*',
    '**',
    '***',
    '_',
    '__',
    '~',
    '~~',
    // Never three backticks in a row: a fence's language is not shown, and words must stay visible.
    '` ',
    '[',
    ']',
    '\\',
    '\\*',
    '\\_',
    '>',
    '> ',
    '>>>>>>>>',
    '- ',
    '* ',
    '+ ',
    '1. ',
    '2) ',
    '\n',
    '\n\n',
    '\n> ',
    '\n- ',
    ' ',
    '   ',
    '\t',
    '<',
    '#',
    '.',
    '!',
    '|',
    '\uE000',
  )
  .map((md) => piece(md));

const plainWord = word.map((w) => piece(w, [w]));

function join(parts: Piece[], separator = ''): Piece {
  return { md: parts.map((p) => p.md).join(separator), words: parts.flatMap((p) => p.words) };
}

/** Pieces nested inside each other: quotes in lists in emphasis in links… and unbalanced ones. */
export const hostilePiece: fc.Arbitrary<Piece> = fc.letrec<{ piece: Piece; inline: Piece }>((tie) => ({
  inline: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    plainWord,
    soup,
    fc
      .tuple(fc.constantFrom('**', '*', '_', '__', '~~', '***'), tie('inline'), fc.boolean(), fc.boolean())
      .map(([marker, inner, left, right]) =>
        piece(`${left ? marker : ''}${inner.md}${right ? marker : ''}`, inner.words),
      ),
    word.map((w) => piece(`\`${w}\``, [w])),
    fc
      .tuple(tie('inline'), hidden, fc.constantFrom('https://', 'http://', 'mailto:'))
      .map(([text, target, scheme]) =>
        piece(`[${text.md}](${scheme}${target}.EXAMPLE/${target})`, text.words),
      ),
    fc.tuple(word, hidden).map(([text, target]) => piece(`[${text}](JAVASCRIPT${target})`, [text])),
    fc.tuple(word, hidden).map(([w, target]) => piece(`[${w}](${target}`, [w])),
    hidden.map((target) => piece(`https://${target}.EXAMPLE/${target}`)),
    fc
      .tuple(fc.array(word, { minLength: 1, maxLength: 3 }), hidden)
      .map(([names, email]) => piece(`@[${names.join(' ')}](${email}@${email}.EXAMPLE)`, names)),
    word.map((w) => piece(`@${w}`, [w])),
    word.map((w) => piece(`@[${w}`, [w])),
  ),
  piece: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tie('inline'),
    fc
      .tuple(fc.constantFrom('>', '> ', '>>', '> > ', '>>>>>>>>>>>>', '- ', '1. ', '- > '), tie('piece'))
      .map(([prefix, inner]) => piece(`\n${prefix}${inner.md}`, inner.words)),
    fc
      .tuple(hidden, fc.array(word, { maxLength: 4 }), fc.boolean())
      .map(([lang, body, closed]) =>
        piece(`\n\`\`\`${lang}\n${body.join('\n')}${closed ? '\n```\n' : ''}`, body),
      ),
    fc.array(tie('piece'), { maxLength: 6 }).map((parts) => join(parts)),
    fc.array(tie('piece'), { maxLength: 6 }).map((parts) => join(parts, ' ')),
  ),
})).piece;

function fit(parts: Piece[]): Piece {
  const kept: Piece[] = [];
  let length = 0;
  for (const part of parts) {
    if (length + part.md.length > MESSAGE_MAX) break;
    kept.push(part);
    length += part.md.length;
  }
  return join(kept);
}

/** A whole message: many pieces, or one piece repeated up to the limit (where quadratic work shows). */
export const hostileMessage: fc.Arbitrary<Piece> = fc.oneof(
  fc.array(hostilePiece, { minLength: 1, maxLength: 60 }).map(fit),
  fc
    .tuple(hostilePiece, fc.integer({ min: 1, max: MESSAGE_MAX }))
    .filter(([unit]) => unit.md.length > 0)
    .map(([unit, times]) => {
      const count = Math.max(1, Math.min(times, Math.floor(MESSAGE_MAX / unit.md.length)));
      return fit(Array.from({ length: count }, () => unit));
    }),
);

/** Any string of the characters Markdown cares about (and a few it does not), up to the limit. */
export const markupSoup: fc.Arbitrary<string> = fc.oneof(
  fc.string({
    unit: fc.constantFrom(...'>*_~`[]()@\\\n -+1.#h:/ps<!|a\t\r'.split('')),
    maxLength: MESSAGE_MAX,
  }),
  fc
    .tuple(
      fc.string({
        unit: fc.constantFrom(...'>*_~`[]()@\\\n -1.hpst:/a'.split('')),
        minLength: 1,
        maxLength: 12,
      }),
      fc.integer({ min: 1, max: MESSAGE_MAX }),
    )
    .map(([unit, times]) => unit.repeat(Math.min(times, Math.floor(MESSAGE_MAX / unit.length)))),
);

/** The messages issue 17 reported, and their neighbours. */
export const KNOWN_HOSTILE = [
  '>>>>>>',
  '>>>>>>>>',
  '>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>',
  '> > > > > > > >',
  '> > > > > >',
  '>>>>>>x',
  '>>>>>> text',
  '>>>>>>\n>>>>>>>\n>',
  '>>>>>> - a\n>>>>>> - b',
  '>>>>>> ```\n>>>>>> code\n>>>>>> ```',
  '>>>>>>```\n>>>>>>>',
  '- >>>>>>>\n>>>>>>> 1. x',
  '>>>>>>> **bold\n>>>>>>> _x_',
  '> > > > > > [a](https://a.example)',
  `${'>'.repeat(3990)}x`,
  '> '.repeat(2000),
  '>\n'.repeat(2000),
];
