// In-app browsers of messengers and social apps, which cannot open other apps by scheme and need
// the landing page's escape (Android intent to the default browser, KakaoTalk's external-browser
// scheme, an "open in Safari" step on iOS). Told apart by the marks their user agents carry.
export type InAppBrowser = 'kakaotalk' | 'line' | 'naver' | 'instagram' | 'facebook' | 'tiktok';

const MARKS: [InAppBrowser, RegExp][] = [
  ['kakaotalk', /\bKAKAOTALK\b/i],
  ['line', /\bLine\/[\d.]+/],
  ['naver', /\bNAVER\(inapp|\bNAVER\/[\d.]+|\bwhale\/[\d.]+.*\bNAVER/],
  ['instagram', /\bInstagram\b/],
  ['facebook', /\bFBAN\/|\bFBAV\/|\bFB_IAB\//],
  ['tiktok', /\bmusical_ly\b|\bBytedanceWebview\b|\bTikTok\b|\btrill_\d/i],
];

export function inAppBrowserOf(userAgent: string | undefined): InAppBrowser | null {
  if (!userAgent) return null;
  for (const [name, mark] of MARKS) if (mark.test(userAgent)) return name;
  return null;
}
