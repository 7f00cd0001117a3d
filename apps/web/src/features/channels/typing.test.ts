import { describe, expect, it } from 'vitest';
import { TypingAnnouncer, typingText } from './typing.ts';

describe('typingText', () => {
  it('words the indicator as the spec does', () => {
    expect(typingText([])).toBe('');
    expect(typingText(['Ada'])).toBe('Ada is typing...');
    expect(typingText(['Ada', 'bob'])).toBe('several are typing...');
    expect(typingText(['Ada', 'bob', 'carol'])).toBe('several are typing...');
  });
});

describe('TypingAnnouncer', () => {
  function setup() {
    let now = 0;
    const emitted: boolean[] = [];
    const announcer = new TypingAnnouncer(
      (isTyping) => emitted.push(isTyping),
      () => now,
      2000,
    );
    return { announcer, emitted, tick: (ms: number) => (now += ms) };
  }

  it('announces typing at most once per 2 s while the input is non-blank', () => {
    const { announcer, emitted, tick } = setup();
    announcer.input('h');
    tick(500);
    announcer.input('he');
    tick(1000);
    announcer.input('hel');
    expect(emitted).toEqual([true]);
    tick(600);
    announcer.input('hell');
    expect(emitted).toEqual([true, true]);
  });

  it('announces not typing once when the input becomes blank or the message is sent', () => {
    const { announcer, emitted } = setup();
    announcer.input('   ');
    expect(emitted).toEqual([]);
    announcer.input('hi');
    announcer.input('  ');
    announcer.input('');
    expect(emitted).toEqual([true, false]);
    announcer.input('again');
    announcer.stop();
    announcer.stop();
    expect(emitted).toEqual([true, false, true, false]);
  });
});
