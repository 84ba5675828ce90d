// The console's campaign link builder: cid and tracker as query parameters, encoded, optional.
import { describe, expect, it } from 'vitest';
import { trackedUrl } from '../../console/src/tracked-url.js';

describe('campaign link builder', () => {
  it('adds cid and tracker, encoded, and leaves out what is empty', () => {
    expect(trackedUrl('https://sp.example/summer', 'user 42', 'kakao')).toBe(
      'https://sp.example/summer?cid=user+42&tracker=kakao',
    );
    expect(trackedUrl('https://sp.example/summer', '', ' ')).toBe('https://sp.example/summer');
    expect(trackedUrl('https://sp.example/app/summer?x=1', 'a&b', '')).toBe(
      'https://sp.example/app/summer?x=1&cid=a%26b',
    );
  });
});
