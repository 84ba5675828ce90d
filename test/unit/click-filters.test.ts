// The statistics filters, table-driven: what a request's parameters become (what the answer
// repeats, what the query compares), what is refused, and the SQL the raw table is read with.
import { describe, expect, it } from 'vitest';
import { type ClickFilterInput, parseClickFilters } from '../../src/core/stats/click-filters.js';
import { filterSql, hasFilters } from '../../src/olap/click-filters.js';
import type { DomainError } from '../../src/shared/errors.js';

const CITY_DB = { regions: true, cities: true };
const COUNTRY_DB = { regions: false, cities: false };

describe('statistics filters', () => {
  it.each<[string, ClickFilterInput, object, object]>([
    ['none', {}, {}, {}],
    ['an empty parameter is no filter', { country: '', os: ' , ' }, {}, {}],
    ['one value, lower-cased to compare', { country: 'KR' }, { country: ['KR'] }, { country: ['kr'] }],
    [
      'several values, trimmed, repeats dropped',
      { browser: 'Chrome, Mobile Safari,Chrome' },
      { browser: ['Chrome', 'Mobile Safari'] },
      { browser: ['chrome', 'mobile safari'] },
    ],
    ['values that differ only in case compare once', { os: 'iOS,ios' }, { os: ['iOS', 'ios'] }, { os: ['ios'] }],
    [
      'a referrer URL counts as its host',
      { referrer: 'https://M.Facebook.com/story,t.co' },
      { referrer: ['https://M.Facebook.com/story', 't.co'] },
      { referrer: ['m.facebook.com', 't.co'] },
    ],
    [
      'device types in any case',
      { deviceType: 'Mobile,TABLET' },
      { deviceType: ['Mobile', 'TABLET'] },
      {
        deviceType: ['mobile', 'tablet'],
      },
    ],
    [
      'regions and cities, with a database that tells them',
      { region: 'KR-11,us-ca', city: 'Seoul' },
      { region: ['KR-11', 'us-ca'], city: ['Seoul'] },
      { region: ['kr-11', 'us-ca'], city: ['seoul'] },
    ],
  ])('%s', (_, input, applied, match) => {
    expect(parseClickFilters(input, CITY_DB)).toEqual({ applied, match });
  });

  it.each<[ClickFilterInput, string, string]>([
    [{ deviceType: 'phone' }, 'deviceType', 'phone is not one of mobile, tablet, desktop'],
    [{ region: 'KR-11' }, 'region', 'the GeoIP database (GEOIP_DB) has no ISO 3166-2 region codes'],
    [{ city: 'Seoul' }, 'city', 'the GeoIP database (GEOIP_DB) has no cities'],
    [{ utmSource: Array.from({ length: 51 }, (_, i) => `s${i}`).join(',') }, 'utmSource', 'at most 50 values'],
    [{ os: 'x'.repeat(201) }, 'os', 'each value at most 200 characters'],
  ])('refuses %j naming %s', (input, field, problem) => {
    let refused: DomainError | undefined;
    try {
      parseClickFilters(input, COUNTRY_DB);
    } catch (err) {
      refused = err as DomainError;
    }
    expect(refused?.details).toEqual({ field, problem: expect.stringContaining(problem) });
  });

  it('reads nothing differently without filters, and compares every filtered column lower-cased', () => {
    expect(hasFilters({})).toBe(false);
    expect(hasFilters({ country: [] })).toBe(false);
    expect(filterSql({})).toEqual({ sql: '', params: {} });
    expect(filterSql({ country: ['kr'], utmMedium: ['email'] })).toEqual({
      sql:
        ' AND lower(toString(country)) IN {f_country:Array(String)}' +
        ' AND lower(toString(utm_medium)) IN {f_utmMedium:Array(String)}',
      params: { f_country: ['kr'], f_utmMedium: ['email'] },
    });
  });
});
