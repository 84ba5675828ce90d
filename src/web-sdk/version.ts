// The web SDK's version and the addresses it is served at; the version is part of the bundle's
// path, so the bundle can be cached for a year and a new release is a new address.
export const WEB_SDK_VERSION = '1.0.0';
export const WEB_SDK_NAME = 'signpost-web-sdk';
export const webSdkPath = (version = WEB_SDK_VERSION) => `/sdk/web/${version}/signpost.js`;
export const WEB_SDK_CHANGELOG_PATH = '/sdk/web/CHANGELOG.md';
