// Browser contexts dressed as the phones the landing page and the web SDK serve: user agents and
// viewports of an iPhone, an Android phone and their in-app browsers.
import type { Browser, BrowserContext } from 'playwright-core';

export interface Device {
  userAgent: string;
  viewport: { width: number; height: number };
  deviceScaleFactor: number;
}

const iphone = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3 };
const pixel = { viewport: { width: 412, height: 915 }, deviceScaleFactor: 2.625 };
const IOS_WEBKIT = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko)';
const ANDROID_WEBVIEW =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/UQ1A.240205.004; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/122.0.6261.119 Mobile Safari/537.36';

export const DEVICES = {
  iphoneSafari: { ...iphone, userAgent: `${IOS_WEBKIT} Version/17.4 Mobile/15E148 Safari/604.1` },
  iphoneKakaoTalk: { ...iphone, userAgent: `${IOS_WEBKIT} Mobile/15E148 KAKAOTALK 10.6.5` },
  iphoneInstagram: {
    ...iphone,
    userAgent: `${IOS_WEBKIT} Mobile/15E148 Instagram 323.0.3.23.54 (iPhone15,2; iOS 17_4; ko_KR; ko; scale=3.00; 1179x2556; 577210397)`,
  },
  androidChrome: {
    ...pixel,
    userAgent:
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.6261.119 Mobile Safari/537.36',
  },
  androidInstagram: {
    ...pixel,
    userAgent: `${ANDROID_WEBVIEW} Instagram 323.0.0.46.109 Android (34/14; 420dpi; 1080x2400; Google; Pixel 8; shiba; shiba; ko_KR; 577210397)`,
  },
} satisfies Record<string, Device>;

export function phoneContext(browser: Browser, device: Device): Promise<BrowserContext> {
  return browser.newContext({ ...device, isMobile: true, hasTouch: true, locale: 'ko-KR', timezoneId: 'Asia/Seoul' });
}
