import { describe, expect, it } from 'vitest';
import { lastEditableMessage, messageLink } from './message-tools.ts';

type M = { _id: string; deleted: boolean; kind?: string; mine: boolean };
const m = (id: string, mine: boolean, extra: Partial<M> = {}): M => ({
  _id: id,
  deleted: false,
  mine,
  ...extra,
});
const isOwn = (message: M) => message.mine;

describe('lastEditableMessage', () => {
  it("is the reader's newest message, skipping others', deleted ones and announcements", () => {
    const messages = [
      m('a', true),
      m('b', true),
      m('c', false),
      m('d', true, { deleted: true }),
      m('e', true, { kind: 'system' }),
      m('f', false),
    ];
    expect(lastEditableMessage(messages, isOwn)?._id).toBe('b');
  });

  it('is nothing when the reader has no message to edit', () => {
    expect(lastEditableMessage([m('a', false), m('b', true, { deleted: true })], isOwn)).toBeUndefined();
    expect(lastEditableMessage([], isOwn)).toBeUndefined();
  });
});

describe('messageLink', () => {
  it('is the absolute address that opens the channel at the message (?message=&seq=)', () => {
    expect(messageLink('https://cohort.example', 'Apollo 11', 'c1', { _id: 'm7', seq: 7 })).toBe(
      'https://cohort.example/workspace/Apollo%2011/channel/c1?message=m7&seq=7',
    );
  });
});
