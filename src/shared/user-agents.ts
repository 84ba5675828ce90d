// Who is asking: link-preview fetchers (they get the share-preview page), other automated clients
// (they are redirected but never counted), or a person. Pure and cheap: the redirect asks it on
// every request.
import { isbot } from 'isbot';

/**
 * Fetchers that render a preview card of a shared link. Listed explicitly because isbot alone would
 * also send search engines, uptime checkers and curl to the preview page, and they want the
 * redirect. LINE's and KakaoTalk's in-app browsers are people, their scrapers are not; so are the
 * in-app browsers of Snapchat (`Snapchat/13.1`), Teams (`TeamsMobile-iOS`) and Daum (`DaumApps/8.5`),
 * hence the narrower names of those fetchers (`Snap URL Preview Service`, `MicrosoftPreview`, `Daum/4.1`).
 */
const UNFURLERS = new RegExp(
  [
    'facebookexternalhit',
    'facebot',
    'twitterbot',
    'slackbot',
    'slack-imgproxy',
    'linkedinbot',
    'discordbot',
    'telegrambot',
    'whatsapp',
    'kakaotalk-scrap',
    'kakaostory-og-reader',
    'yeti',
    'naverbot',
    'line-poker',
    'skypeuripreview',
    'pinterestbot',
    'redditbot',
    'embedly',
    'iframely',
    'vkshare',
    'viber',
    'snap url preview',
    'mastodon',
    'bluesky',
    'cardyb',
    'google-pagerenderer',
    'applebot',
    'daum/',
    'daumoa',
    'zalo',
    'microsoftpreview',
  ].join('|'),
  'i',
);

export type AgentKind = 'unfurler' | 'bot' | 'person';

/** Real traffic repeats a few thousand user agents; the regular expressions run once for each. */
const MAX_REMEMBERED = 2_000;
const remembered = new Map<string, AgentKind>();

export function classifyAgent(userAgent: string | undefined): AgentKind {
  if (!userAgent) return 'person';
  let kind = remembered.get(userAgent);
  if (kind === undefined) {
    kind = classifyUncached(userAgent);
    if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value as string);
    remembered.set(userAgent, kind);
  }
  return kind;
}

function classifyUncached(userAgent: string): AgentKind {
  if (UNFURLERS.test(userAgent) && !/ line\/[\d.]+/i.test(userAgent) && !/kakaotalk [\d.]+/i.test(userAgent))
    return 'unfurler';
  return isbot(userAgent) ? 'bot' : 'person';
}

export type MobilePlatform = 'IOS' | 'ANDROID';

/** The phone platform that could open an app, from the user agent alone (cheap, no parser). */
export function mobilePlatformOf(userAgent: string | undefined): MobilePlatform | undefined {
  if (!userAgent) return undefined;
  if (/\b(iPhone|iPad|iPod)\b/.test(userAgent)) return 'IOS';
  if (/\bAndroid\b/.test(userAgent)) return 'ANDROID';
  return undefined;
}
