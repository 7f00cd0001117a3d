import { describe, expect, it } from 'vitest';
import {
  analyzeConversation,
  type ConversationMessage,
  lexRank,
  renderSummary,
  summarizeConversation,
} from './builtin.ts';
import { splitSentences, tokenize } from './text.ts';

const T0 = Date.UTC(2026, 0, 5, 9, 0);
const MIN = 60_000;
const conv = (rows: [sender: string, content: string, minute: number][]): ConversationMessage[] =>
  rows.map(([sender, content, minute]) => ({ sender, content, at: T0 + minute * MIN }));

const planning = conv([
  ['Alice Smith', 'Morning! We need to pick a database for the billing service before Friday.', 0],
  ['Bob Jones', 'I compared PostgreSQL and MongoDB. PostgreSQL handles the billing transactions better.', 2],
  ['Carol', 'Transactions matter more than schema flexibility for billing.', 3],
  ['Alice Smith', "OK, let's go with PostgreSQL for the billing service.", 4],
  ['Bob Jones', "I'll write the migration script for the billing tables tonight.", 5],
  ['Carol', '👍', 6],
  ['Alice Smith', '@carol can you review the schema PR? https://github.com/acme/billing/pull/42', 7],
  ['Bob Jones', 'Here is the table:\n```sql\ncreate table invoices (id uuid primary key);\n```', 8],
  ['Carol', 'Who is going to update the deployment runbook for the release?', 9],
  ['Alice Smith', 'The release checklist lives in the wiki: https://wiki.acme.dev/release.', 100],
  ['Bob Jones', 'The release date moved to Thursday because QA needs another day.', 102],
  ['Alice Smith', 'Is the staging environment ready for the release testing?', 104],
  ['Bob Jones', 'Yes, staging was rebuilt this morning.', 105],
  ['Carol', 'TODO: update the changelog before the release.', 106],
  ['Dan', '@bob please check the flaky login test before the release.', 107],
]);

const texts = (quotes: { text: string }[]) => quotes.map((q) => q.text);

describe('built-in summarizer', () => {
  it('finds the decisions, open questions, action items, links and code of a conversation', () => {
    const a = analyzeConversation(planning);
    expect(texts(a.decisions)).toEqual(["OK, let's go with PostgreSQL for the billing service."]);
    expect(a.decisions[0]?.sender).toBe('Alice Smith');
    // The staging question got a "Yes" from someone else; the runbook question got no answer.
    expect(texts(a.openQuestions)).toEqual([
      'Who is going to update the deployment runbook for the release?',
    ]);
    expect(a.actionItems.map((x) => [x.sender, x.assignee, x.text])).toEqual([
      ['Bob Jones', undefined, "I'll write the migration script for the billing tables tonight."],
      ['Alice Smith', 'Carol', '@carol can you review the schema PR?'],
      ['Carol', undefined, 'TODO: update the changelog before the release.'],
      ['Dan', 'Bob Jones', '@bob please check the flaky login test before the release.'],
    ]);
    // Each as a sentence of its own: who does what, "I" resolved, the @handle a participant's name.
    expect(a.actionItems.map((x) => x.statement)).toEqual([
      'Bob Jones will write the migration script for the billing tables tonight.',
      'Carol to review the schema PR (asked by Alice Smith).',
      'To do (noted by Carol): update the changelog before the release.',
      'Bob Jones to check the flaky login test before the release (asked by Dan).',
    ]);
    expect(a.decisions[0]?.statement).toBe(
      'Alice Smith and the team will go with PostgreSQL for the billing service.',
    );
    // The release date is kept; the staging answer is not a date line of its own.
    expect(a.dates.map((d) => d.statement)).toEqual([
      'Alice Smith and the team need to pick a database for the billing service before Friday.',
      'The release date moved to Thursday because QA needs another day (Bob Jones).',
    ]);
    expect(a.links).toEqual([
      { url: 'https://github.com/acme/billing/pull/42', sender: 'Alice Smith' },
      { url: 'https://wiki.acme.dev/release', sender: 'Alice Smith' },
    ]);
    expect(a.code).toEqual([{ sender: 'Bob Jones', language: 'sql' }]);
    expect(a.reactions).toBe(1);
    expect(a.participants).toEqual([
      { name: 'Alice Smith', messages: 5 },
      { name: 'Bob Jones', messages: 5 },
      { name: 'Carol', messages: 4 },
      { name: 'Dan', messages: 1 },
    ]);
  });

  it('groups messages into topics by silence and vocabulary, labelled with their own words', () => {
    const a = analyzeConversation(planning);
    expect(a.topics).toHaveLength(2);
    expect(a.topics[0]?.label).toContain('billing');
    expect(a.topics[1]?.label).toContain('release');
    expect(a.topics.map((t) => t.messageCount)).toEqual([8, 6]);
  });

  it('writes short text with bullet lines that quote the window and name only its senders', () => {
    const summary = summarizeConversation(planning);
    const lines = summary.split('\n');
    expect(lines[0]).toBe(
      '15 messages from 4 participants, including 1 emoji-only reaction: Alice Smith (5), Bob Jones (5), Carol (4), Dan (1).',
    );
    for (const title of [
      'Main topics:',
      'Key points:',
      'Decisions:',
      'Open questions:',
      'Action items:',
      'Dates and deadlines:',
      'Links shared:',
    ]) {
      expect(lines).toContain(title);
    }
    expect(lines).toContain('- Alice Smith and the team will go with PostgreSQL for the billing service.');
    expect(lines).toContain('- Carol to review the schema PR (asked by Alice Smith).');
    expect(lines).toContain('Code: 1 snippet shared (sql) by Bob Jones.');
    expect(summary.length).toBeLessThan(2500);
    // Every "Name: sentence" bullet names a sender and quotes a sentence of that sender's message.
    const senders = new Set(planning.map((m) => m.sender));
    for (const line of lines.filter((l) => l.startsWith('- ') && !l.startsWith('- @'))) {
      const match = /^- ([^:(]+?): (.+)$/.exec(line);
      if (!match) continue;
      const [, name, quoted] = match as unknown as [string, string, string];
      expect(senders.has(name), line).toBe(true);
      expect(
        planning.some((m) => m.sender === name && m.content.includes(quoted)),
        line,
      ).toBe(true);
    }
    // Code itself is not quoted; the emoji reaction is not a key point.
    expect(summary).not.toContain('create table');
    expect(summary).not.toMatch(/^- Carol: 👍/m);
  });

  it('is deterministic', () => {
    expect(summarizeConversation(planning)).toBe(summarizeConversation([...planning]));
  });

  it('answers an empty conversation with an empty text, and emoji-only talk without inventing content', () => {
    expect(summarizeConversation([])).toBe('');
    const emoji = conv([
      ['Ann', '🎉🎉', 0],
      ['Ben', '👍', 1],
      ['Ann', '😂 😂', 2],
    ]);
    expect(summarizeConversation(emoji)).toBe(
      '3 messages from 2 participants, including 3 emoji-only reactions: Ann (2), Ben (1).\n\nNo text beyond reactions to summarize.',
    );
  });

  it('handles non-English conversations: Spanish, German, Japanese and Chinese', () => {
    const spanish = conv([
      ['María', 'Tenemos que elegir el proveedor de pagos antes del viernes.', 0],
      ['Jorge', 'Stripe cobra menos comisión que Adyen para los pagos europeos.', 1],
      ['María', 'Hemos decidido usar Stripe para los pagos.', 2],
      ['Jorge', 'Me encargo de la integración con Stripe esta semana.', 3],
      ['Lucía', '¿Quién revisa el contrato con el proveedor de pagos?', 4],
    ]);
    const es = analyzeConversation(spanish);
    expect(texts(es.decisions)).toEqual(['Hemos decidido usar Stripe para los pagos.']);
    expect(texts(es.actionItems)).toEqual(['Me encargo de la integración con Stripe esta semana.']);
    expect(texts(es.openQuestions)).toEqual(['¿Quién revisa el contrato con el proveedor de pagos?']);
    expect(es.topics[0]?.label).toEqual(expect.arrayContaining(['pagos', 'stripe']));

    const german = analyzeConversation(
      conv([
        ['Jonas', 'Wir haben entschieden, die Konferenz im Mai zu machen.', 0],
        ['Mia', 'Ich werde die Räume für die Konferenz buchen.', 1],
      ]),
    );
    expect(texts(german.decisions)).toHaveLength(1);
    expect(texts(german.actionItems)).toEqual(['Ich werde die Räume für die Konferenz buchen.']);

    const japanese = conv([
      ['佐藤', '新しいデザインについて話しましょう。ロゴの色を変更したいです。', 0],
      ['田中', 'ロゴの色は青にすることに決定しました。', 1],
      ['佐藤', '明日までにデザイン案を送ります。', 2],
    ]);
    const ja = analyzeConversation(japanese);
    expect(texts(ja.decisions)).toEqual(['ロゴの色は青にすることに決定しました。']);
    expect(summarizeConversation(japanese)).toContain('佐藤');
    // Words, not characters or whole sentences: ICU's dictionary segmentation.
    expect(tokenize('新しいデザインについて話しましょう').map((t) => t.surface)).toEqual(
      expect.arrayContaining(['デザイン']),
    );
    expect(splitSentences('我们决定使用新的服务器。明天开始迁移！')).toEqual([
      '我们决定使用新的服务器。',
      '明天开始迁移！',
    ]);
    const chinese = analyzeConversation(conv([['王伟', '我们决定使用新的服务器。明天开始迁移数据库。', 0]]));
    expect(texts(chinese.decisions)).toEqual(['我们决定使用新的服务器。']);
  });

  it('handles code blocks: the code is counted, not quoted or ranked, and the text around it still counts', () => {
    const code = conv([
      [
        'Kim',
        'The parser crashes on empty input. Here is the stack:\n```\nTypeError: x is undefined\n  at parse (parser.ts:10)\n```',
        0,
      ],
      ['Lee', 'Fix:\n```ts\nif (!input) return [];\n```\nI will open a pull request for the parser fix.', 1],
      ['Kim', '```python\nprint("unterminated', 2],
    ]);
    const a = analyzeConversation(code);
    expect(a.code.map((c) => c.language)).toEqual(['code', 'ts', 'python']);
    expect(texts(a.actionItems)).toEqual(['I will open a pull request for the parser fix.']);
    const summary = summarizeConversation(code);
    expect(summary).not.toContain('TypeError');
    expect(summary).not.toContain('return []');
    expect(summary).toContain('Code: 3 snippets shared (code, ts, python) by Kim, Lee.');
  });

  it('copes with one very long message: bounded work, clipped quotes', () => {
    const sentence =
      'The migration plan covers the billing database, the reporting cluster and the archive storage';
    const long = Array.from({ length: 400 }, (_, i) => `${sentence} in phase ${i}.`).join(' ');
    const unbroken = 'word'.repeat(5000);
    const messages = conv([
      ['Ann', long, 0],
      ['Ben', unbroken, 1],
      ['Ann', 'Can you confirm the archive storage budget?', 2],
    ]);
    const started = performance.now();
    const summary = summarizeConversation(messages);
    expect(performance.now() - started).toBeLessThan(2_000);
    for (const line of summary.split('\n')) expect(line.length).toBeLessThan(260);
    expect(summary).toContain('- Someone to confirm the archive storage budget (asked by Ann).');
  });

  it('ranks central sentences first (LexRank)', () => {
    const v = (entries: [string, number][]) => {
      const m = new Map(entries);
      const norm = Math.sqrt([...m.values()].reduce((s, x) => s + x * x, 0));
      return new Map([...m].map(([k, x]) => [k, x / norm]));
    };
    // The middle vector shares terms with both others; the outliers only with it.
    const scores = lexRank([
      v([
        ['a', 1],
        ['b', 1],
      ]),
      v([
        ['a', 1],
        ['b', 1],
        ['c', 1],
        ['d', 1],
      ]),
      v([
        ['c', 1],
        ['d', 1],
      ]),
      v([['z', 1]]),
    ]);
    expect(scores[1]).toBeGreaterThan(scores[0] as number);
    expect(scores[1]).toBeGreaterThan(scores[2] as number);
    expect(scores[3]).toBeLessThan(scores[0] as number);
    expect(scores.reduce((s, x) => s + x, 0)).toBeCloseTo(1, 6);
  });

  describe('lines people can act on (issue 19)', () => {
    const launch = conv([
      ['Maya Patel', 'We need to decide when the new checkout launches.', 0],
      [
        'Tom Berg',
        'Should we launch the new checkout on March 3 and keep the old checkout as a fallback for two weeks?',
        1,
      ],
      ['Maya Patel', 'Agreed.', 2],
      ['Tom Berg', 'I will send the invite for the launch review.', 3],
      ['Lena Fischer', 'Who updates the help center articles?', 4],
      ['Tom Berg', "I'll take the help center articles by Friday.", 5],
      ['Lena Fischer', 'Can someone check the payment provider limits?', 6],
      ['Maya Patel', "I'm on it.", 7],
      ['Lena Fischer', 'The load test must finish before February 27.', 8],
      ['Maya Patel', 'Do we have budget for the extra servers?', 9],
      ['Lena Fischer', "What's the rollback plan if the payment error rate goes above 2%?", 10],
      ['Tom Berg', 'If the error rate goes above 2% we roll back to the old checkout within an hour.', 11],
    ]);

    it('carries what "Agreed." agrees to, and keeps the fallback plan as a decision', () => {
      const a = analyzeConversation(launch);
      expect(a.decisions.map((d) => d.statement)).toEqual([
        'Maya Patel and Tom Berg agreed to launch the new checkout on March 3 and keep the old checkout as a fallback for two weeks.',
        'If the error rate goes above 2% Tom Berg and the team roll back to the old checkout within an hour.',
      ]);
      // "Agreed." alone is never a line.
      expect(summarizeConversation(launch)).not.toMatch(/^- .*: Agreed\.$/m);
    });

    it('names who does what: "I" is the speaker, "On it." takes the request it answers', () => {
      const a = analyzeConversation(launch);
      expect(a.actionItems.map((x) => x.statement)).toEqual([
        'Tom Berg will send the invite for the launch review.',
        'Tom Berg will take the help center articles by Friday.',
        'Maya Patel to check the payment provider limits (asked by Lena Fischer).',
      ]);
    });

    it('keeps dates and deadlines, and lists only unanswered questions as open', () => {
      const a = analyzeConversation(launch);
      expect(a.dates.map((d) => d.statement)).toEqual([
        'The load test must finish before February 27 (Lena Fischer).',
      ]);
      // Answered by someone taking it on, by "I'm on it", by the plan itself: not open.
      expect(texts(a.openQuestions)).toEqual(['Do we have budget for the extra servers?']);
      const summary = summarizeConversation(launch);
      for (const date of ['March 3', 'Friday', 'February 27']) expect(summary).toContain(date);
    });

    it('quotes a member mention as @Name, not its markup, and resolves it to the participant', () => {
      const a = analyzeConversation(
        conv([
          ['Maya Patel', 'Thanks @[Tom Berg](tom@example.com), see you at the launch review tomorrow.', 0],
          ['Maya Patel', '@[Tom Berg](tom@example.com) please send the slides before noon.', 1],
          ['Tom Berg', 'Sure.', 2],
        ]),
      );
      const summary = renderSummary(a);
      expect(summary).not.toContain('tom@example.com');
      expect(summary).toContain('@Tom Berg, see you at the launch review tomorrow');
      expect(a.actionItems.map((x) => x.statement)).toEqual([
        'Tom Berg to send the slides before noon (asked by Maya Patel).',
      ]);
    });

    it('a when-question answered with a date and a request by first name', () => {
      const a = analyzeConversation(
        conv([
          ['Olivia', 'When do we have to give notice if we want to cancel?', 0],
          ['Ola', 'Notice is due 60 days before, so by July 3.', 1],
          ['Marco Rossi', 'Hana, could you estimate the effort for the funnel reports?', 2],
          ['Hana Kim', 'Sure, I can have an estimate by Monday.', 3],
          ['Hana Kim', 'Yes, let us switch to the new vendor.', 4],
          ['Marco Rossi', 'OK.', 5],
        ]),
      );
      expect(a.openQuestions).toEqual([]);
      expect(a.actionItems.map((x) => x.statement)).toEqual([
        'Hana Kim to estimate the effort for the funnel reports (asked by Marco Rossi).',
      ]);
      expect(a.dates.map((d) => d.statement)).toEqual([
        'Notice is due 60 days before, so by July 3 (Ola).',
        'Hana Kim can have an estimate by Monday.',
      ]);
      // "OK." agrees to nothing in particular: no decision from it.
      expect(a.decisions).toEqual([]);
    });
  });
});
