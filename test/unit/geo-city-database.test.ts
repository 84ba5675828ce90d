// The City database the tests write (test/support/mmdb-writer.ts) read back by the service's own
// lookup (src/ingest/geo.ts, the maxmind reader): what a GeoLite2 City or DB-IP Lite City file
// answers for a listed address, an unlisted one and a private one, with each record size.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import maxmind, { type CityResponse } from 'maxmind';
import { afterAll, describe, expect, it } from 'vitest';
import { openGeoLookup } from '../../src/ingest/geo.js';
import { writeCityDatabase } from '../support/mmdb-writer.js';

const dir = mkdtempSync(path.join(tmpdir(), 'signpost-mmdb-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PLACES = [
  {
    network: '203.0.113.0/25',
    country: 'KR',
    region: '11',
    city: 'Seoul',
    latitude: 37.5665,
    longitude: 126.978,
    timeZone: 'Asia/Seoul',
  },
  { network: '203.0.113.128/25', country: 'KR', region: '26', city: 'Busan', latitude: 35.1796, longitude: 129.0756 },
  {
    network: '198.51.100.7/32',
    country: 'US',
    region: 'CA',
    city: 'San José',
    latitude: 37.3382,
    longitude: -121.8863,
  },
  { network: '192.0.2.0/24', country: 'JP', latitude: 35.6895, longitude: 139.6917 },
  { network: '2001:db8:1::/48', country: 'DE', region: 'BE', city: 'Berlin', latitude: 52.52, longitude: 13.405 },
];

function database(name: string, options: Parameters<typeof writeCityDatabase>[2] = {}, places = PLACES): string {
  const file = path.join(dir, name);
  writeCityDatabase(file, places, options);
  return file;
}

describe('a City database written by the tests', () => {
  for (const recordSize of [24, 28, 32] as const) {
    it(`answers country, ISO 3166-2 region and English city through openGeoLookup (${recordSize}-bit records)`, async () => {
      const geo = await openGeoLookup(database(`city-${recordSize}.mmdb`, { recordSize }));
      expect(geo.fields).toEqual({ regions: true, cities: true });
      expect(geo.country('203.0.113.5')).toBe('KR');
      expect(geo.place('203.0.113.5')).toEqual({ region: 'KR-11', city: 'Seoul' });
      expect(geo.place('203.0.113.200')).toEqual({ region: 'KR-26', city: 'Busan' });
      expect(geo.place('::ffff:198.51.100.7')).toEqual({ region: 'US-CA', city: 'San José' });
      expect(geo.country('198.51.100.7')).toBe('US');
      expect(geo.place('2001:db8:1:2::9')).toEqual({ region: 'DE-BE', city: 'Berlin' });
      // A network the file lists without a subdivision or a city, one it does not list, a private one.
      expect([geo.country('192.0.2.44'), geo.place('192.0.2.44')]).toEqual(['JP', { region: '', city: '' }]);
      expect([geo.country('198.51.100.8'), geo.place('198.51.100.8')]).toEqual(['', { region: '', city: '' }]);
      expect(geo.place('10.1.2.3')).toEqual({ region: '', city: '' });
    });
  }

  it('holds what a GeoLite2 City record holds, with the metadata a reader checks', async () => {
    const reader = await maxmind.open<CityResponse>(database('full.mmdb'), { watchForUpdates: false });
    expect(reader.metadata).toMatchObject({
      binaryFormatMajorVersion: 2,
      binaryFormatMinorVersion: 0,
      databaseType: 'GeoLite2-City',
      ipVersion: 6,
      recordSize: 28,
      languages: ['en'],
      description: { en: 'Signpost test database' },
    });
    const hit = reader.get('203.0.113.9');
    expect(hit?.city?.names.en).toBe('Seoul');
    expect(hit?.subdivisions?.[0]?.iso_code).toBe('11');
    expect(hit?.location).toEqual({
      accuracy_radius: 20,
      latitude: 37.5665,
      longitude: 126.978,
      time_zone: 'Asia/Seoul',
    });
    expect(reader.getWithPrefixLength('203.0.113.200')).toEqual([expect.anything(), 25]);
  });

  it('as DB-IP Lite City (cities without ISO region codes) and as an IPv4-only tree', async () => {
    const dbip = await openGeoLookup(database('dbip.mmdb', { databaseType: 'DBIP-City-Lite' }));
    expect(dbip.fields).toEqual({ regions: false, cities: true });
    expect(dbip.place('203.0.113.5')).toEqual({ region: '', city: 'Seoul' });

    const v4 = await openGeoLookup(database('v4.mmdb', { ipVersion: 4, recordSize: 24 }, PLACES.slice(0, 4)));
    expect(v4.place('203.0.113.130')).toEqual({ region: 'KR-26', city: 'Busan' });
    expect(v4.country('2001:db8:1::1')).toBe('');
  });
});
