// Countries and languages a routing rule may name, with their names in the console's language
// (Intl.DisplayNames): ISO 3166-1 alpha-2 countries and two-letter primary language subtags, the
// values the API accepts. The browser's own data gives the list: every two-letter code it has a
// name for, less the codes it also names that are not countries.

/** Named by Intl but refused by the API: groupings, pseudo-regions, reserved and withdrawn codes. */
const NOT_COUNTRIES = new Set(
  'AC AN BU CP CQ CS DD DG DY EA EU EZ FX HV IC NH QO RH SU TA TP UK UN VD XA XB YD YU ZR ZZ'.split(' '),
);

export interface NamedCode {
  value: string;
  label: string;
}

function twoLetterCodes(base: number): string[] {
  const codes: string[] = [];
  for (let a = 0; a < 26; a++) for (let b = 0; b < 26; b++) codes.push(String.fromCharCode(base + a, base + b));
  return codes;
}

function named(language: string, type: 'region' | 'language', codes: string[]): NamedCode[] {
  let names: Intl.DisplayNames;
  try {
    names = new Intl.DisplayNames([language], { type, fallback: 'none' });
  } catch {
    return [];
  }
  const out: NamedCode[] = [];
  for (const value of codes) {
    const label = names.of(value);
    if (label && label !== value) out.push({ value, label });
  }
  return out.sort((x, y) => x.label.localeCompare(y.label, language));
}

const cache = new Map<string, NamedCode[]>();
const cached = (key: string, make: () => NamedCode[]) => {
  let list = cache.get(key);
  if (!list) {
    list = make();
    cache.set(key, list);
  }
  return list;
};

/** Every country, by name in `language`. */
export const countryOptions = (language: string): NamedCode[] =>
  cached(`region:${language}`, () =>
    named(
      language,
      'region',
      twoLetterCodes(65).filter((c) => !NOT_COUNTRIES.has(c)),
    ),
  );

/** Every two-letter language, by name in `language`. */
export const languageOptions = (language: string): NamedCode[] =>
  cached(`language:${language}`, () => named(language, 'language', twoLetterCodes(97)));
