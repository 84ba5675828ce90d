// Phone and email rules of identify: the notations accepted, the one normal form stored and
// indexed, and the masks SDK callers see.
import { describe, expect, it } from 'vitest';
import { maskEmail, maskPhone, normalizeEmail, normalizePhone } from '../../src/core/journey/contact-fields.js';

describe('normalizePhone', () => {
  it('turns every notation of a Korean mobile number into one E.164 number', () => {
    for (const raw of [
      '010-1234-5678',
      '01012345678',
      '010 1234 5678',
      '(010) 1234-5678',
      '+82 10-1234-5678',
      '+821012345678',
      ' 010.1234.5678 ',
    ]) {
      expect(normalizePhone(raw), raw).toBe('+821012345678');
    }
    expect(normalizePhone('011-123-4567')).toBe('+82111234567');
  });

  it('accepts international E.164 numbers', () => {
    expect(normalizePhone('+1 415 555 0123')).toBe('+14155550123');
    expect(normalizePhone('+44 20 7946 0958')).toBe('+442079460958');
    expect(normalizePhone('+82 2 123 4567')).toBe('+8221234567');
  });

  it('refuses what is neither', () => {
    for (const raw of [
      '',
      '12345',
      '02-123-4567',
      '010-1234-567890',
      '+0123456789',
      '+1234567890123456',
      'call me',
      '010-1234-5678 ext 2',
      '+82 10 123',
      '+8215012345678',
    ]) {
      expect(normalizePhone(raw), raw).toBeUndefined();
    }
  });
});

describe('normalizeEmail', () => {
  it('keeps the local part, lower-cases the domain', () => {
    expect(normalizeEmail(' Minsu.Kim+promo@Example.CO.KR ')).toBe('Minsu.Kim+promo@example.co.kr');
  });

  it('refuses malformed or oversized addresses', () => {
    for (const raw of [
      'plain',
      'a@b',
      'a@@b.com',
      'a b@c.com',
      '@example.com',
      'a@-x.com',
      `${'x'.repeat(65)}@example.com`,
      `a@${'d'.repeat(250)}.com`,
    ]) {
      expect(normalizeEmail(raw), raw).toBeUndefined();
    }
  });
});

describe('masks', () => {
  it('masks Korean mobiles nationally and other numbers around the country code', () => {
    expect(maskPhone('+821012345678')).toBe('010-****-5678');
    expect(maskPhone('+82111234567')).toBe('011-***-4567');
    expect(maskPhone('+14155550123')).toBe('+14*****0123');
  });

  it('shows the first character of an address and its domain', () => {
    expect(maskEmail('minsu@example.com')).toBe('m***@example.com');
  });
});
