import { describe, expect, it } from 'vitest';
import { displayName, fullName } from './names';

describe('names', () => {
  it('joins first and last name, skipping blanks', () => {
    expect(fullName({ firstName: ' Ada ', lastName: 'Lovelace' })).toBe('Ada Lovelace');
    expect(fullName({ firstName: '', lastName: 'Lovelace' })).toBe('Lovelace');
    expect(fullName({ firstName: null, lastName: undefined })).toBe('');
  });

  it('falls back to a composed name, then the e-mail local part, then "unknown"', () => {
    expect(displayName({ firstName: 'Ada', lastName: '', email: 'ada@example.com' })).toBe('Ada');
    expect(displayName({ name: 'Grace Hopper', email: 'g@example.com' })).toBe('Grace Hopper');
    expect(displayName({ firstName: ' ', lastName: '', email: 'grace@example.com' })).toBe('grace');
    expect(displayName({ name: '   ', email: 'bob@example.com' })).toBe('bob');
    expect(displayName({ email: '' })).toBe('unknown');
    expect(displayName({ email: '@example.com' })).toBe('unknown');
    expect(displayName(null)).toBe('unknown');
  });
});
