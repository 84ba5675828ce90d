// The editor's form rules on their own: expiry between local input and each API's form, and the
// address a click reaches with the link's UTM parameters (set, never duplicated, as the redirect).
import { describe, expect, it } from 'vitest';
import { destinationWithUtm, emptyLinkForm, expiryForApi } from '../src/link-form';
import { toLocalInput } from '../src/local-time';

describe('link form', () => {
  it("sends a local expiry as the instant it names, in each API's own form", () => {
    const local = '2030-03-01T09:30';
    const instant = new Date(local).toISOString();
    expect(expiryForApi('campaign', local)).toBe(instant.replace('.000Z', 'Z'));
    expect(expiryForApi('url', local)).toBe(instant.replace('T', ' ').replace('.000Z', ''));
    expect(toLocalInput(instant)).toBe(local);
    expect(expiryForApi('url', '')).toBeNull();
    expect(expiryForApi('url', 'next week')).toBeNull();
  });

  it('sets the UTM parameters on the destination, replacing one it already had', () => {
    const form = { ...emptyLinkForm(), utmSource: 'kakao', utmCampaign: ' spring ' };
    expect(destinationWithUtm('https://example.com/a?utm_source=old&x=1', form, ['utmSource', 'utmCampaign'])).toBe(
      'https://example.com/a?utm_source=kakao&x=1&utm_campaign=spring',
    );
    expect(destinationWithUtm('not a url', form, ['utmSource'])).toBeNull();
  });
});
