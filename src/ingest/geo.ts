// Country of an IP address from an mmdb database: the CC0 geo-whois-asn-country database shipped as
// an npm package by default, or the operator's own GeoLite2 / DB-IP file (GEOIP_DB).
import { createRequire } from 'node:module';
import path from 'node:path';
import maxmind, { type Reader, type CountryResponse } from 'maxmind';

export interface GeoLookup {
  /** ISO 3166-1 alpha-2 country code, or '' when unknown (private ranges, unlisted addresses). */
  country(ip: string): string;
}

function defaultGeoDatabasePath(): string {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve('@ip-location-db/geo-whois-asn-country-mmdb/package.json');
  return path.join(path.dirname(pkg), 'geo-whois-asn-country.mmdb');
}

type AnyCountry = CountryResponse & { country_code?: string };

export async function openGeoLookup(file: string = defaultGeoDatabasePath()): Promise<GeoLookup> {
  const reader: Reader<AnyCountry> = await maxmind.open<AnyCountry>(file, { watchForUpdates: false });
  return {
    country(ip) {
      const address = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
      if (!maxmind.validate(address)) return '';
      try {
        const hit = reader.get(address);
        // GeoLite2/DB-IP nest it under country.iso_code; ip-location-db stores country_code.
        return (hit?.country?.iso_code ?? hit?.country_code ?? '').toUpperCase();
      } catch {
        return '';
      }
    },
  };
}
