// The deep-link flows' two "not found" answers, worded once: a token, and a link by its code.
import { notFound } from '../../shared/errors.js';

export const tokenNotFound = () =>
  notFound('DEEP_LINK_TOKEN_NOT_FOUND', 'the deep-link token is unknown or has expired');

/** No short URL (short code) or campaign (alias) of this code in the caller's organization. */
export const linkNotFound = (linkType: 'url' | 'campaign', code: string) =>
  linkType === 'url'
    ? notFound('SHORT_URL_NOT_FOUND', `no short URL ${code} in your organization`)
    : notFound('CAMPAIGN_NOT_FOUND', `no campaign ${code} in your organization`);
