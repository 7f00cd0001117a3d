import { describe, expect, it } from 'vitest';
import { AFTER_SIGN_IN, safeNext } from './safe-next.ts';

describe('safeNext', () => {
  it('keeps same-site paths', () => {
    expect(safeNext('/workspace/acme?x=1#m')).toBe('/workspace/acme?x=1#m');
    expect(safeNext('/dashboard')).toBe('/dashboard');
  });

  it('lands on the dashboard without a next', () => {
    expect(safeNext(null)).toBe(AFTER_SIGN_IN);
    expect(safeNext('')).toBe(AFTER_SIGN_IN);
  });

  it('refuses anything a URL parser could read as another site', () => {
    for (const next of [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      '/\r\n/evil.example',
      '\\\\evil.example',
      'javascript:alert(1)',
    ]) {
      expect(safeNext(next), JSON.stringify(next)).toBe(AFTER_SIGN_IN);
    }
  });
});
