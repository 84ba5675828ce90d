// Click ids of links with conversion tracking: made in memory, verified by their signature alone.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createClickTokens, isClickTokenShaped } from '../../src/core/clicks/click-token.js';
import { withClickToken } from '../../src/core/redirect/destination.js';

const tokens = createClickTokens(randomBytes(32));
const link = { kind: 'url' as const, id: 4321, organizationId: 17 };

/** `token` with the character at `at` replaced by another of the same alphabet. */
const changedAt = (token: string, at: number) => {
  const c = token[at]!;
  const other = c === 'A' ? 'B' : c === '.' ? '.' : 'A';
  return `${token.slice(0, at)}${other}${token.slice(at + 1)}`;
};

describe('click tokens', () => {
  it('verify to the organization and link they were made for', () => {
    const token = tokens.make(link);
    expect(token).toMatch(/^w1\.[0-9a-z]+\.u[0-9a-z]+\.[\w-]{12}\.[\w-]{22}$/);
    expect(isClickTokenShaped(token)).toBe(true);
    expect(tokens.verify(token)).toEqual({ organizationId: 17, linkType: 'url', linkId: 4321 });
    const campaign = tokens.make({ kind: 'campaign', id: 9, organizationId: 1 });
    expect(tokens.verify(campaign)).toEqual({ organizationId: 1, linkType: 'campaign', linkId: 9 });
  });

  it('are different for every click', () => {
    const made = new Set(Array.from({ length: 1000 }, () => tokens.make(link)));
    expect(made.size).toBe(1000);
  });

  it('refuse any changed character, another key, and other shapes', () => {
    const token = tokens.make(link);
    for (let at = 0; at < token.length; at++) {
      if (token[at] === '.') continue;
      expect(tokens.verify(changedAt(token, at)), `changed at ${at}`).toBeUndefined();
    }
    // Another organization's id in a token signed for this one.
    expect(tokens.verify(token.replace('w1.h.', 'w1.i.'))).toBeUndefined();
    expect(createClickTokens(randomBytes(32)).verify(token)).toBeUndefined();
    for (const other of ['', 'w1.', 'Late0Click0Token00000001', `${token}x`, token.slice(0, -1), `x${token}`])
      expect(tokens.verify(other), other).toBeUndefined();
    expect(isClickTokenShaped('Late0Click0Token00000001')).toBe(false);
  });
});

describe('withClickToken', () => {
  it('appends the id, keeping the query and the fragment', () => {
    expect(withClickToken('https://shop.example/a', 'T')).toBe('https://shop.example/a?signpost_token=T');
    expect(withClickToken('https://shop.example/a?x=1', 'T')).toBe('https://shop.example/a?x=1&signpost_token=T');
    expect(withClickToken('https://shop.example/a?x=1#top', 'T')).toBe(
      'https://shop.example/a?x=1&signpost_token=T#top',
    );
    expect(withClickToken('https://shop.example/a#p?q', 'T')).toBe('https://shop.example/a?signpost_token=T#p?q');
  });

  it('replaces a signpost_token the click brought along', () => {
    expect(withClickToken('https://shop.example/a?signpost_token=mine&x=1', 'T')).toBe(
      'https://shop.example/a?signpost_token=T&x=1',
    );
  });
});
