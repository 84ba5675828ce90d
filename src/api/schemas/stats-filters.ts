// The statistics filters as query parameters (contract: "Filters and shared statistics"): the
// Service API's link statistics and the console's click dashboards and their CSV take the same.
import { z } from 'zod';
import { DEVICE_TYPES, FILTER_NAMES } from '../../core/stats/click-filters.js';

/** What each filter parameter selects (contract: "Filters and shared statistics"). */
const FILTER_DOCS: Record<(typeof FILTER_NAMES)[number], string> = {
  country: 'ISO 3166-1 alpha-2 country codes (KR, US)',
  deviceType: `device types: ${DEVICE_TYPES.join(', ')}`,
  os: 'operating systems as topOs names them (iOS, Android, Windows)',
  browser: 'browsers as topBrowsers names them (Chrome, Safari)',
  referrer: 'referrer host names (m.facebook.com); a full URL counts as its host',
  utmSource: 'utm_source values the clicks carried',
  utmMedium: 'utm_medium values the clicks carried',
  utmCampaign: 'utm_campaign values the clicks carried',
  region:
    'extension: ISO 3166-2 region codes (KR-11, US-CA) as regionStats names them; 400 when the GeoIP database has no regions (meta.geo.regions false)',
  city: 'extension: English city names (Seoul) as cityStats names them; 400 when the GeoIP database has no cities (meta.geo.cities false)',
};

/** The filter query parameters: each a comma-separated list, compared case-insensitively. */
export const filterQuery = Object.fromEntries(
  FILTER_NAMES.map((name) => [
    name,
    z
      .string()
      .max(10_000)
      .optional()
      .describe(
        `only clicks with one of these ${FILTER_DOCS[name]}, comma-separated, compared case-insensitively; every figure of the answer then counts only the matching clicks`,
      ),
  ]),
) as Record<(typeof FILTER_NAMES)[number], z.ZodOptional<z.ZodString>>;

/** The filters an answer repeats (meta.filters). */
export const filtersSchema = z
  .object(
    Object.fromEntries(FILTER_NAMES.map((name) => [name, z.array(z.string()).optional()])) as Record<
      (typeof FILTER_NAMES)[number],
      z.ZodOptional<z.ZodArray<z.ZodString>>
    >,
  )
  .describe(
    'the filters applied, one array of values per filter parameter given (as given, trimmed, without repeats); {} without filters',
  )
  .meta({ id: 'StatsFilters' });

/** What the GeoIP database tells beyond the country: whether regionStats, cityStats and their filters work. */
export const geoSchema = z
  .object({
    regions: z
      .boolean()
      .describe('ISO 3166-2 regions: regionStats and the region filter (GEOIP_DB a MaxMind City database)'),
    cities: z.boolean().describe('cities: cityStats and the city filter (GEOIP_DB a City database)'),
  })
  .describe(
    'extension: what the configured GeoIP database can tell beyond the country; false: that breakdown stays empty and its filter is refused (400)',
  )
  .meta({ id: 'StatsGeo' });
