// Country (and, with a City database, region and city) of an IP address from an mmdb database:
// the CC0 geo-whois-asn-country database shipped as an npm package by default, or the operator's
// own GeoLite2 / DB-IP file (GEOIP_DB).
import { createRequire } from 'node:module';
import path from 'node:path';
import maxmind, { type Reader, type CityResponse } from 'maxmind';

/** Where an address is, as far as the database says; '' for what it does not know. */
export interface GeoPlace {
  /** ISO 3166-2 code of the first-level subdivision (`KR-11`, `US-CA`), upper case. */
  region: string;
  /** The city's English name as the database spells it (`Seoul`). */
  city: string;
}

/** What the configured database can say beyond the country (decided once, from its metadata). */
export interface GeoFields {
  /** ISO 3166-2 subdivision codes: MaxMind's City databases carry them; DB-IP's Lite City names subdivisions only. */
  regions: boolean;
  /** English city names: any City database (GeoLite2 City, DB-IP Lite City). */
  cities: boolean;
}

export interface GeoLookup {
  /** ISO 3166-1 alpha-2 country code, or '' when unknown (private ranges, unlisted addresses). */
  country(ip: string): string;
  /** Region and city; both '' with a country-only database. */
  place(ip: string): GeoPlace;
  fields: GeoFields;
}

function defaultGeoDatabasePath(): string {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve('@ip-location-db/geo-whois-asn-country-mmdb/package.json');
  return path.join(path.dirname(pkg), 'geo-whois-asn-country.mmdb');
}

type AnyRecord = CityResponse & { country_code?: string };

const NOWHERE: GeoPlace = { region: '', city: '' };

/** What a database of this type (its metadata's `database_type`) holds beyond the country. */
export function geoFieldsOf(databaseType: string): GeoFields {
  const cities = /city|enterprise/i.test(databaseType);
  return { cities, regions: cities && !/^dbip/i.test(databaseType) };
}

export async function openGeoLookup(file: string = defaultGeoDatabasePath()): Promise<GeoLookup> {
  const reader: Reader<AnyRecord> = await maxmind.open<AnyRecord>(file, { watchForUpdates: false });
  const fields = geoFieldsOf(reader.metadata.databaseType);
  const record = (ip: string): AnyRecord | null => {
    const address = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
    if (!maxmind.validate(address)) return null;
    try {
      return reader.get(address);
    } catch {
      return null;
    }
  };
  // GeoLite2/DB-IP nest it under country.iso_code; ip-location-db stores country_code.
  const countryOf = (hit: AnyRecord | null) => (hit?.country?.iso_code ?? hit?.country_code ?? '').toUpperCase();
  return {
    fields,
    country: (ip) => countryOf(record(ip)),
    place(ip) {
      if (!fields.cities) return NOWHERE;
      const hit = record(ip);
      if (!hit) return NOWHERE;
      const country = countryOf(hit);
      const subdivision = hit.subdivisions?.[0]?.iso_code;
      return {
        region: fields.regions && country && subdivision ? `${country}-${subdivision.toUpperCase()}` : '',
        city: hit.city?.names?.en ?? '',
      };
    },
  };
}
