// The link editor's form, apart from any screen: a short URL or a campaign as the fields a person
// edits, and back to the body the API takes. Empty text means "none": on create it is left out,
// on update it is sent as null so the server clears it. Expiry is edited in the browser's local
// time and sent in the form each API reads (short URLs: `YYYY-MM-DD HH:mm:ss` UTC; campaigns:
// ISO-8601 UTC).
import type { Campaign, ShortUrl } from './api';
import { instantOf, toLocalInput } from './local-time';
import { type RoutingForm, routingBody, routingFormOf } from './routing-form';

export type LinkKind = 'url' | 'campaign';

export const UTM_FIELDS = ['utmSource', 'utmMedium', 'utmCampaign', 'utmTerm', 'utmContent'] as const;
export type UtmField = (typeof UTM_FIELDS)[number];

/** Which UTM parameters each kind of link carries (a campaign's name is its own campaign). */
export const UTM_OF: Record<LinkKind, readonly UtmField[]> = {
  url: UTM_FIELDS,
  campaign: ['utmSource', 'utmMedium'],
};

export interface LinkForm {
  destination: string;
  /** A short URL's title, a campaign's name. */
  title: string;
  alias: string;
  customDomainName: string;
  /** `YYYY-MM-DDTHH:mm` in local time, as an <input type="datetime-local"> holds it; '' for none. */
  expiresLocal: string;
  goalType: string;
  showAdPage: boolean;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  utmTerm: string;
  utmContent: string;
  ogTitle: string;
  ogDescription: string;
  ogImageUrl: string;
  iosAppId: string;
  androidAppId: string;
  iosDeepLinkPath: string;
  androidDeepLinkPath: string;
  mobileTargetUrl: string;
  /** Tag names; on update they replace the link's tags. */
  tags: string[];
  /** A new password; '' keeps the one the link has (or none). */
  password: string;
  /** Take the link's password off (wins over a new one). */
  removePassword: boolean;
  /** A whole number of clicks as typed; '' for no limit. */
  clickLimit: string;
  clickLimitUrl: string;
  expiredUrl: string;
  note: string;
  archived: boolean;
  /** Routing rules and A/B variants as the editor holds them. */
  routing: RoutingForm;
  /** Web clicks carry a click id (signpost_token), so web goals count for their click and variant. */
  conversionTracking: boolean;
}

export const emptyLinkForm = (): LinkForm => ({
  destination: '',
  title: '',
  alias: '',
  customDomainName: '',
  expiresLocal: '',
  goalType: '',
  showAdPage: false,
  utmSource: '',
  utmMedium: '',
  utmCampaign: '',
  utmTerm: '',
  utmContent: '',
  ogTitle: '',
  ogDescription: '',
  ogImageUrl: '',
  iosAppId: '',
  androidAppId: '',
  iosDeepLinkPath: '',
  androidDeepLinkPath: '',
  mobileTargetUrl: '',
  tags: [],
  password: '',
  removePassword: false,
  clickLimit: '',
  clickLimitUrl: '',
  expiredUrl: '',
  note: '',
  archived: false,
  routing: { rules: [], variants: [] },
  conversionTracking: false,
});

/** The expiry as the API of the kind reads it: short URLs `YYYY-MM-DD HH:mm:ss` (UTC), campaigns ISO-8601. */
export function expiryForApi(kind: LinkKind, local: string): string | null {
  const instant = instantOf(local);
  if (!instant) return null;
  const iso = instant.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return kind === 'campaign' ? iso : iso.replace('T', ' ').replace('Z', '');
}

const text = (v: string | null | undefined) => v ?? '';
const appId = (v: number | null | undefined) => (v ? String(v) : '');

/** What short URLs and campaigns share beyond their own fields: tags, limits, the note, the archive. */
type Managed = Pick<
  ShortUrl,
  | 'tags'
  | 'clickLimit'
  | 'clickLimitUrl'
  | 'expiredUrl'
  | 'note'
  | 'archived'
  | 'routingRules'
  | 'variants'
  | 'conversionTracking'
>;

const managedForm = (l: Managed) => ({
  tags: [...l.tags],
  clickLimit: l.clickLimit === null ? '' : String(l.clickLimit),
  clickLimitUrl: text(l.clickLimitUrl),
  expiredUrl: text(l.expiredUrl),
  note: text(l.note),
  archived: l.archived,
  routing: routingFormOf(l),
  conversionTracking: l.conversionTracking,
});

export function formOfShortUrl(u: ShortUrl): LinkForm {
  return {
    destination: u.originalUrl,
    title: text(u.title),
    alias: u.shortCode,
    customDomainName: text(u.customDomainName),
    expiresLocal: toLocalInput(u.expiresAt),
    goalType: text(u.goalType),
    showAdPage: u.showAdPage,
    utmSource: text(u.utmSource),
    utmMedium: text(u.utmMedium),
    utmCampaign: text(u.utmCampaign),
    utmTerm: text(u.utmTerm),
    utmContent: text(u.utmContent),
    ogTitle: text(u.ogTitle),
    ogDescription: text(u.ogDescription),
    ogImageUrl: text(u.ogImageUrl),
    iosAppId: appId(u.iosAppId),
    androidAppId: appId(u.androidAppId),
    iosDeepLinkPath: text(u.iosDeepLinkPath),
    androidDeepLinkPath: text(u.androidDeepLinkPath),
    mobileTargetUrl: text(u.mobileTargetUrl),
    password: '',
    removePassword: false,
    ...managedForm(u),
  };
}

export function formOfCampaign(c: Campaign): LinkForm {
  return {
    ...emptyLinkForm(),
    destination: c.originalUrl,
    title: c.name,
    alias: c.alias,
    customDomainName: text(c.customDomainName),
    expiresLocal: toLocalInput(c.expiresAt),
    goalType: text(c.goalType),
    utmSource: text(c.utmSource),
    utmMedium: text(c.utmMedium),
    iosAppId: appId(c.iosAppId),
    androidAppId: appId(c.androidAppId),
    iosDeepLinkPath: text(c.iosDeepLinkPath),
    androidDeepLinkPath: text(c.androidDeepLinkPath),
    ...managedForm(c),
  };
}

/**
 * The request body for creating (`editing` false) or updating a link of the kind. On create an
 * empty field is left out; on update it is null, which clears it.
 */
export function bodyOf(kind: LinkKind, form: LinkForm, editing: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const put = (name: string, value: string | number | null) => {
    if (value === '' || value === null) {
      if (editing) body[name] = null;
    } else body[name] = value;
  };
  const trimmed = (v: string) => v.trim();
  const id = (v: string) => (v ? Number(v) : null);

  body[kind === 'url' ? (editing ? 'originalUrl' : 'url') : 'originalUrl'] = trimmed(form.destination);
  if (kind === 'campaign') body.name = trimmed(form.title);
  else put('title', trimmed(form.title));
  if (!editing) {
    put(kind === 'url' ? 'customAlias' : 'alias', trimmed(form.alias));
    put('customDomainName', trimmed(form.customDomainName));
  }
  put(kind === 'url' ? 'expirationDate' : 'expiresAt', expiryForApi(kind, form.expiresLocal));
  put('goalType', trimmed(form.goalType));
  for (const field of UTM_OF[kind]) put(field, trimmed(form[field]));
  put('iosAppId', id(form.iosAppId));
  put('androidAppId', id(form.androidAppId));
  put('iosDeepLinkPath', trimmed(form.iosDeepLinkPath));
  put('androidDeepLinkPath', trimmed(form.androidDeepLinkPath));
  if (kind === 'url') {
    body.showAdPage = form.showAdPage;
    put('ogTitle', trimmed(form.ogTitle));
    put('ogDescription', trimmed(form.ogDescription));
    put('ogImageUrl', trimmed(form.ogImageUrl));
    put('mobileTargetUrl', trimmed(form.mobileTargetUrl));
  }
  // Tags replace the link's on update, so an emptied list is sent as one.
  if (editing || form.tags.length > 0) body.tags = form.tags;
  if (form.removePassword) {
    if (editing) body.password = null;
  } else if (form.password !== '') body.password = form.password;
  const limit = form.clickLimit.trim();
  put('clickLimit', limit === '' ? null : Number(limit));
  put('clickLimitUrl', trimmed(form.clickLimitUrl));
  put('expiredUrl', trimmed(form.expiredUrl));
  put('note', trimmed(form.note));
  if (editing || form.archived) body.archived = form.archived;
  // Rules and variants replace the link's on update; on create they are sent when there are some.
  const routing = routingBody(form.routing);
  if (editing || routing.routingRules.length > 0) body.routingRules = routing.routingRules;
  if (editing || routing.variants.length > 0) body.variants = routing.variants;
  if (editing || form.conversionTracking) body.conversionTracking = form.conversionTracking;
  return body;
}

/** Where a click goes: the destination with the link's UTM parameters set, as the redirect does. */
export function destinationWithUtm(
  destination: string,
  form: Pick<LinkForm, UtmField>,
  fields: readonly UtmField[],
): string | null {
  let url: URL;
  try {
    url = new URL(destination.trim());
  } catch {
    return null;
  }
  for (const field of fields) {
    const value = form[field].trim();
    if (value) url.searchParams.set(`utm_${field.slice(3).toLowerCase()}`, value);
  }
  return url.toString();
}

/** The host a share card shows under its title. */
export function hostOf(address: string): string {
  try {
    return new URL(address).host;
  } catch {
    return '';
  }
}
