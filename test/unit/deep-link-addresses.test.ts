// The landing page's addresses and the device signals of a click: app URL, intent URL, store URL
// with the Install Referrer token, the token read back from a referrer, user agents, in-app browsers.
import { describe, expect, it } from 'vitest';
import { agentSignals, ipPrefix, normalizeResolution } from '../../src/core/deeplinks/device-signals.js';
import { inAppBrowserOf } from '../../src/core/deeplinks/in-app-browser.js';
import { appUrlFor, intentUrlFor, storeUrlFor, tokenFromReferrer } from '../../src/core/deeplinks/landing-addresses.js';

const T = 'AbCdEfGhIjKlMnOpQrStUv12';

describe('addresses', () => {
  it('builds {scheme}{path} with the token, before a fragment and after an existing query', () => {
    expect(appUrlFor('shop://', 'product/42', T)).toBe(`shop://product/42?signpost_token=${T}`);
    expect(appUrlFor('shop://', '/product/42?ref=x#top', T)).toBe(`shop://product/42?ref=x&signpost_token=${T}#top`);
    expect(appUrlFor('shop://', null, T)).toBe(`shop://?signpost_token=${T}`);
    expect(appUrlFor(null, 'product/42', T)).toBeNull();
  });

  it('builds the Android intent with the package and the encoded browser fallback', () => {
    const fallback = 'https://play.google.com/store/apps/details?id=com.example.shop&referrer=signpost_token%3DX';
    expect(
      intentUrlFor({
        scheme: 'shop://',
        packageName: 'com.example.shop',
        deepLinkPath: 'product/42',
        token: T,
        browserFallbackUrl: fallback,
      }),
    ).toBe(
      `intent://product/42?signpost_token=${T}#Intent;scheme=shop;package=com.example.shop;S.browser_fallback_url=${encodeURIComponent(fallback)};end`,
    );
    expect(
      intentUrlFor({
        scheme: null,
        packageName: 'p.q',
        deepLinkPath: null,
        token: T,
        browserFallbackUrl: 'https://x.example',
      }),
    ).toBeNull();
  });

  it('adds the referrer to a Play URL, keeping its query; leaves iOS store URLs alone', () => {
    expect(storeUrlFor('https://play.google.com/store/apps/details?id=com.example.shop&hl=ko', 'ANDROID', T)).toBe(
      `https://play.google.com/store/apps/details?id=com.example.shop&hl=ko&referrer=signpost_token%3D${T}`,
    );
    const merged = storeUrlFor(
      'https://play.google.com/store/apps/details?id=a.b&referrer=utm_source%3Dnews',
      'ANDROID',
      T,
    )!;
    expect(new URL(merged).searchParams.get('referrer')).toBe(`utm_source=news&signpost_token=${T}`);
    expect(storeUrlFor('https://apps.apple.com/app/id123', 'IOS', T)).toBe('https://apps.apple.com/app/id123');
    expect(storeUrlFor(null, 'ANDROID', T)).toBeNull();
  });

  it('reads the token back from whatever the Install Referrer API hands the app', () => {
    expect(tokenFromReferrer(`signpost_token=${T}`)).toBe(T);
    expect(tokenFromReferrer(`utm_source=news&signpost_token=${T}`)).toBe(T);
    expect(tokenFromReferrer(`signpost_token%3D${T}`)).toBe(T);
    expect(tokenFromReferrer(`https://x.example/?referrer=signpost_token%3D${T}`)).toBe(T);
    expect(tokenFromReferrer('utm_source=google-play&utm_medium=organic')).toBeNull();
    expect(tokenFromReferrer('signpost_token=short')).toBeNull();
    expect(tokenFromReferrer(undefined)).toBeNull();
  });
});

describe('device signals', () => {
  it('reads OS, version and model from phone user agents', () => {
    expect(
      agentSignals(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
      ),
    ).toEqual({ os: 'IOS', osVersion: '17.4', deviceModel: null });
    expect(
      agentSignals(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.1 Mobile/15E148 Safari/604.1',
      ),
    ).toEqual({ os: 'IOS', osVersion: '26.1', deviceModel: null });
    // From iOS 26.2 the frozen OS reads 18_7; Safari's version still follows the release.
    expect(
      agentSignals(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.3 Mobile/15E148 Safari/604.1',
      ),
    ).toEqual({ os: 'IOS', osVersion: '26.3', deviceModel: null });
    expect(
      agentSignals(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      ),
    ).toEqual({ os: 'IOS', osVersion: '17', deviceModel: null });
    expect(
      agentSignals(
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
      ),
    ).toEqual({ os: 'ANDROID', osVersion: '14', deviceModel: 'Pixel 8' });
    expect(
      agentSignals(
        'Mozilla/5.0 (Linux; Android 13; SM-X706N Build/TP1A.220624.014; wv) AppleWebKit/537.36 Chrome/115.0 Safari/537.36;KAKAOTALK 2410310',
      ),
    ).toEqual({ os: 'ANDROID', osVersion: '13', deviceModel: 'SM-X706N' });
    // Chrome's reduced user agent: neither the version nor the model is real.
    expect(
      agentSignals(
        'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
      ),
    ).toEqual({ os: 'ANDROID', osVersion: null, deviceModel: null });
    expect(agentSignals('Mozilla/5.0 (Windows NT 10.0; Win64; x64)')).toEqual({
      os: null,
      osVersion: null,
      deviceModel: null,
    });
  });

  it('normalises networks and screens', () => {
    expect(ipPrefix('203.0.113.7')).toBe('203.0.113.0/24');
    expect(ipPrefix('2001:db8:abcd:12::1')).toBe('2001:db8:abcd:12::/64');
    expect(ipPrefix('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(normalizeResolution('2532x1170')).toBe('1170x2532');
    expect(normalizeResolution('wide')).toBeNull();
  });

  it('recognises the in-app browsers the landing page escapes from', () => {
    const cases: [string, string | null][] = [
      [
        'Mozilla/5.0 (Linux; Android 14; SM-S918N) AppleWebKit/537.36 Chrome/124.0 Mobile Safari/537.36 KAKAOTALK 10.8.0',
        'kakaotalk',
      ],
      [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari Line/14.5.0',
        'line',
      ],
      [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 16_5_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.5 Mobile/15E148 Safari/605.1 NAVER(inapp; search; 1010; 11.24.5; 12PRO)',
        'naver',
      ],
      [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 330.0.0.0',
        'instagram',
      ],
      [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/450.0.0.0]',
        'facebook',
      ],
      [
        'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/UQ1A; wv) AppleWebKit/537.36 Chrome/124.0 Mobile Safari/537.36 musical_ly_2023405030 BytedanceWebview/d8a21c6',
        'tiktok',
      ],
      [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
        null,
      ],
    ];
    for (const [ua, expected] of cases) expect(inAppBrowserOf(ua), ua).toBe(expected);
  });
});
