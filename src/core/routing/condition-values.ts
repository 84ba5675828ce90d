// The values a rule's conditions may name: ISO 3166-1 alpha-2 countries, ISO 3166-2 regions,
// primary language subtags and referrer host names. A value outside them would never match a click,
// so it is refused, not stored.

/** ISO 3166-1 alpha-2 (the 249 assigned codes), and XK (Kosovo), which geo databases report. */
const COUNTRY_CODES = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
    'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO ' +
    'FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE ' +
    'JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO ' +
    'MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW ' +
    'PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM ' +
    'TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW'
  ).split(' '),
);

/** Whether `code` is a country code (either case). */
export const isCountryCode = (code: string): boolean => COUNTRY_CODES.has(code.toUpperCase());

const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/** Whether `subtag` is a primary language subtag (`ko`, `en`, `fil`; either case) that has a name. */
export function isLanguageSubtag(subtag: string): boolean {
  if (!/^[a-z]{2,3}$/i.test(subtag)) return false;
  try {
    return languageNames.of(subtag.toLowerCase()) !== undefined;
  } catch {
    return false;
  }
}

/** Whether `code` has the shape of an ISO 3166-2 subdivision code (`KR-11`, `US-CA`; either case) of a known country. */
export function isRegionCode(code: string): boolean {
  const match = /^([a-z]{2})-[a-z0-9]{1,3}$/i.exec(code);
  return match !== null && isCountryCode(match[1]!);
}

/**
 * Whether `host` is a host name as a Referer carries it: lower case letters, digits, hyphens and
 * dots, at least two labels (`t.co`), no scheme, port or path. Upper case is refused rather than
 * folded so that what is stored is what is matched.
 */
export function isHostName(host: string): boolean {
  if (host.length > 253) return false;
  return /^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/.test(host);
}
