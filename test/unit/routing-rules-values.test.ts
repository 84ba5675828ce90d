// What rule conditions may name and what the geo database must know for them: host names and
// ISO 3166-2 codes as validation reads them, which database types carry regions and cities, and
// the refusal of a rule the configured database could never match.
import { describe, expect, it } from 'vitest';
import { isHostName, isRegionCode } from '../../src/core/routing/condition-values.js';
import { checkGeoConditions } from '../../src/core/routing/geo-conditions.js';
import { fieldProblemOf } from '../../src/core/field-error.js';
import { geoFieldsOf, openGeoLookup } from '../../src/ingest/geo.js';

describe('referrer host names', () => {
  it.each([
    ['t.co', true],
    ['twitter.com', true],
    ['l.m.facebook.com', true],
    ['xn--9n2bp8q.kr', true],
    ['my-site.example', true],
    ['Twitter.com', false],
    ['https://t.co', false],
    ['t.co/abc', false],
    ['t.co:443', false],
    ['localhost', false],
    ['-bad.example', false],
    ['bad-.example', false],
    ['a..example', false],
    ['', false],
    [`${'a'.repeat(64)}.example`, false],
  ])('%j is a host name: %s', (host, ok) => expect(isHostName(host)).toBe(ok));
});

describe('region codes', () => {
  it.each([
    ['KR-11', true],
    ['us-ca', true],
    ['GB-ENG', true],
    ['FR-75C', true],
    ['XX-11', false],
    ['KR11', false],
    ['KR-', false],
    ['KR-1234', false],
    ['Seoul', false],
  ])('%j is an ISO 3166-2 code: %s', (code, ok) => expect(isRegionCode(code)).toBe(ok));
});

describe('what a geo database knows', () => {
  it.each([
    ['geo-whois-asn-country', { regions: false, cities: false }],
    ['GeoLite2-Country', { regions: false, cities: false }],
    ['DBIP-Country-Lite', { regions: false, cities: false }],
    ['GeoLite2-City', { regions: true, cities: true }],
    ['GeoIP2-City', { regions: true, cities: true }],
    ['GeoIP2-Enterprise', { regions: true, cities: true }],
    // DB-IP names subdivisions without their ISO codes: cities only.
    ['DBIP-City-Lite', { regions: false, cities: true }],
  ])('%s: %j', (type, fields) => expect(geoFieldsOf(type)).toEqual(fields));

  it('the bundled database is country-only: no region or city for any address', async () => {
    const geo = await openGeoLookup();
    expect(geo.fields).toEqual({ regions: false, cities: false });
    expect(geo.country('8.8.8.8')).toBe('US');
    expect(geo.place('8.8.8.8')).toEqual({ region: '', city: '' });
  });
});

describe('rules the geo database cannot tell', () => {
  const rules = [
    { conditions: { countries: ['KR'] }, url: 'https://a.example/' },
    { conditions: { regions: ['KR-11'] }, url: 'https://b.example/' },
    { conditions: { cities: ['Seoul'] }, url: 'https://c.example/' },
  ];
  const problem = (fields: { regions: boolean; cities: boolean }) => {
    try {
      checkGeoConditions(rules, fields);
      return undefined;
    } catch (err) {
      return fieldProblemOf(err)?.field;
    }
  };

  it.each([
    [{ regions: false, cities: false }, 'routingRules.1.conditions.regions'],
    [{ regions: false, cities: true }, 'routingRules.1.conditions.regions'],
    [{ regions: true, cities: false }, 'routingRules.2.conditions.cities'],
    [{ regions: true, cities: true }, undefined],
  ])('with %j: refused at %s', (fields, field) => expect(problem(fields)).toBe(field));

  it('are no concern of rules without regions or cities', () => {
    expect(() => checkGeoConditions([rules[0]!], { regions: false, cities: false })).not.toThrow();
  });
});
