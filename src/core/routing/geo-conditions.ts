// Rules that name regions or cities need a geo database that knows them. The bundled database is
// country-only, and DB-IP's Lite City names subdivisions without their ISO codes: a rule asking for
// what the database cannot tell would be saved and never match, so it is refused when saved, with
// the field and the reason. A rule saved before the database changed keeps its conditions and
// simply stops matching (the redirect reads '' for what the database does not know).
import { invalidField } from '../field-error.js';
import type { RoutingRule } from '../../oltp/link-table.js';

/** What the configured geo database can say beyond the country. */
export interface GeoFields {
  regions: boolean;
  cities: boolean;
}

/** Why a field naming regions or cities is refused when the database cannot tell them. */
export const GEO_FIELD_MISSING: Record<keyof GeoFields, string> = {
  regions:
    'the GeoIP database (GEOIP_DB) has no ISO 3166-2 region codes; configure a City database that has them, such as MaxMind GeoLite2 City',
  cities:
    'the GeoIP database (GEOIP_DB) has no cities; configure a City database such as DB-IP Lite City or MaxMind GeoLite2 City',
};

/** Throws the field error of the first rule whose regions or cities the database cannot tell. */
export function checkGeoConditions(rules: readonly RoutingRule[], fields: GeoFields): void {
  for (const [n, { conditions }] of rules.entries()) {
    if (conditions.regions && !fields.regions)
      throw invalidField(`routingRules.${n}.conditions.regions`, GEO_FIELD_MISSING.regions);
    if (conditions.cities && !fields.cities)
      throw invalidField(`routingRules.${n}.conditions.cities`, GEO_FIELD_MISSING.cities);
  }
}
