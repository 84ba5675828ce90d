// A campaign link with the user tracking id (cid) and the tracker added as query parameters,
// keeping whatever query the campaign link already has.
export function trackedUrl(campaignUrl: string, cid: string, tracker: string): string {
  const url = new URL(campaignUrl);
  if (cid.trim()) url.searchParams.set('cid', cid.trim());
  if (tracker.trim()) url.searchParams.set('tracker', tracker.trim());
  return url.toString();
}
