import { describe, expect, it } from 'vitest';
import { displayName } from './display-name.ts';

describe('displayName', () => {
  it('uses the name when the server knows one', () => {
    expect(displayName({ name: 'Ada Lovelace', email: 'ada@example.com' })).toBe('Ada Lovelace');
  });

  it('falls back to the part of the e-mail before the @', () => {
    expect(displayName({ name: '', email: 'grace.hopper@example.com' })).toBe('grace.hopper');
    expect(displayName({ name: '   ', email: 'bob@example.com' })).toBe('bob');
    expect(displayName({ email: 'carol@example.com' })).toBe('carol');
  });

  it('says "unknown" when there is neither', () => {
    expect(displayName({ name: '', email: '' })).toBe('unknown');
    expect(displayName({ email: '@example.com' })).toBe('unknown');
    expect(displayName(undefined)).toBe('unknown');
  });
});
