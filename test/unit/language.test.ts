// Accept-Language negotiation: q-values, region subtags, order of equal preferences, and no match.
import { describe, expect, it } from 'vitest';
import { negotiateLanguage, PAGE_LANGUAGES } from '../../src/shared/language.js';

describe('negotiateLanguage', () => {
  it.each([
    ['ko-KR,ko;q=0.9,en-US;q=0.8,en;q=0.7', 'ko'],
    ['en-US,en;q=0.9,ko;q=0.8', 'en'],
    ['ja-JP', 'ja'],
    ['fr-FR,fr;q=0.9,ja;q=0.5,en;q=0.4', 'ja'],
    ['en;q=0.5, ko;q=0.8', 'ko'],
    ['EN-gb', 'en'],
    ['ko, en', 'ko'],
    ['en, ko', 'en'],
    ['ko;q=0, en;q=0.1', 'en'],
    ['*', undefined],
    ['fr-FR,de', undefined],
    ['', undefined],
  ])('%s → %s', (header, expected) => {
    expect(negotiateLanguage(header, PAGE_LANGUAGES)).toBe(expected);
  });

  it('leaves the default to the caller when the header is absent', () => {
    expect(negotiateLanguage(undefined, PAGE_LANGUAGES)).toBeUndefined();
  });

  it('offers only what the caller speaks', () => {
    expect(negotiateLanguage('ja-JP,en;q=0.5', ['ko', 'en'] as const)).toBe('en');
  });
});
