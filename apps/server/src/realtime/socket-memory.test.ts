import { describe, expect, it } from 'vitest';
import { SocketMemory } from './socket-memory.ts';

describe('SocketMemory', () => {
  it('stays bounded: a new entry that would not fit drops all, an existing one is only replaced', () => {
    const memory = new SocketMemory<number>(2);
    memory.remember('a', 1);
    memory.remember('b', 2);
    memory.remember('b', 3);
    expect([memory.get('a'), memory.get('b')]).toEqual([1, 3]);
    memory.remember('c', 4);
    expect([memory.get('a'), memory.get('b'), memory.get('c')]).toEqual([undefined, undefined, 4]);
    memory.forget('c');
    expect(memory.get('c')).toBeUndefined();
  });
});
