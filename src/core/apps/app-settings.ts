// What an app's settings may hold: the app's own URL scheme and the formats of the identifiers
// Apple and Google know it by.

/** Schemes a browser or the OS would treat as something other than "open this app". */
const FORBIDDEN_SCHEMES = new Set([
  'http',
  'https',
  'javascript',
  'data',
  'file',
  'intent',
  'about',
  'blob',
  'vbscript',
]);

/** `myapp`, `myapp:` and `myapp://` all name the scheme `myapp`. */
export const schemeName = (value: string) => value.replace(/:(\/\/)?$/, '').toLowerCase();

export const SCHEME_NAME_PATTERN = /^[a-z][a-z0-9+.-]*$/;

/** False for web and system schemes: opening them would not open the app. */
export const isAppOwnScheme = (name: string) => !FORBIDDEN_SCHEMES.has(name);

/** Reverse-DNS bundle id (iOS) or package name (Android), such as com.example.app. */
export const BUNDLE_ID_PATTERN = /^[A-Za-z][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)+$/;

/** Apple team id: 10 uppercase letters and digits. */
export const TEAM_ID_PATTERN = /^[A-Z0-9]{10}$/;

/** SHA-256 signing-certificate fingerprint, uppercase hex pairs joined by colons. */
export const CERT_FINGERPRINT_PATTERN = /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/;
