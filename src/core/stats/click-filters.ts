// The filters a statistics request names (contract: "Filters and shared statistics"): per query
// parameter a comma-separated list of values, of which a click must have one. Values are compared
// case-insensitively (a country code, an OS, a browser, a referrer host or a UTM value in any case);
// `deviceType` takes mobile, tablet and desktop only; `referrer` is a host name (a full URL is
// reduced to its host). What the answer repeats (`meta.filters`) is what was applied: the values
// as given, trimmed, without repeats. `region` (ISO 3166-2) and `city` (English name) need a GeoIP
// database that tells them: with one that cannot, the filter could only ever match nothing, so it is
// refused, as routing rules naming them are.
import { type ClickFilterName, type ClickFilters, FILTER_NAMES } from '../../olap/click-filters.js';
import { invalidField } from '../field-error.js';
import { GEO_FIELD_MISSING, type GeoFields } from '../routing/geo-conditions.js';

export type { ClickFilterName, ClickFilters };
export { FILTER_NAMES };

/** The filter parameters as the request carries them: comma-separated values, each optional. */
export type ClickFilterInput = Partial<Record<ClickFilterName, string | undefined>>;

export const DEVICE_TYPES = ['mobile', 'tablet', 'desktop'] as const;

const MAX_VALUES = 50;
const MAX_VALUE_LENGTH = 200;

/** A referrer's host: the host of a URL, else the value itself. */
function referrerHost(value: string): string {
  if (!value.includes('://')) return value;
  try {
    return new URL(value).hostname;
  } catch {
    return value;
  }
}

/**
 * The filters of a request: `applied` as the answer repeats them, `match` as the queries compare
 * them (lower case). A filter given empty (`country=`) is no filter.
 */
export function parseClickFilters(
  input: ClickFilterInput,
  geo: GeoFields,
): { applied: ClickFilters; match: ClickFilters } {
  const applied: ClickFilters = {};
  const match: ClickFilters = {};
  for (const name of FILTER_NAMES) {
    const raw = input[name];
    if (raw === undefined) continue;
    const values = [...new Set(raw.split(',').map((v) => v.trim()))].filter((v) => v !== '');
    if (values.length === 0) continue;
    if (name === 'region' && !geo.regions) throw invalidField(name, GEO_FIELD_MISSING.regions);
    if (name === 'city' && !geo.cities) throw invalidField(name, GEO_FIELD_MISSING.cities);
    if (values.length > MAX_VALUES) throw invalidField(name, `at most ${MAX_VALUES} values`);
    if (values.some((v) => v.length > MAX_VALUE_LENGTH))
      throw invalidField(name, `each value at most ${MAX_VALUE_LENGTH} characters`);
    const lower = values.map((v) => (name === 'referrer' ? referrerHost(v) : v).toLowerCase());
    if (name === 'deviceType') {
      const wrong = lower.find((v) => !(DEVICE_TYPES as readonly string[]).includes(v));
      if (wrong !== undefined)
        throw invalidField(name, `${values[lower.indexOf(wrong)]} is not one of ${DEVICE_TYPES.join(', ')}`);
    }
    applied[name] = values;
    match[name] = [...new Set(lower)];
  }
  return { applied, match };
}
