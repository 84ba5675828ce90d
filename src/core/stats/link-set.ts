// Links picked one by one for the console's dashboards (the Links list's "View statistics"): short
// URL ids (`url`) and campaign ids (`campaign`), comma-separated, a click on any of them counts. The
// queries read the caller's organization only, so an id of no link of it (deleted, mistyped or
// another organization's) matches nothing rather than failing: the other ids still answer.
import type { LinkSet } from '../../olap/click-filters.js';
import { invalidField } from '../field-error.js';

/** The link set as the request carries it: ids, comma-separated, each optional. */
export interface LinkSetInput {
  url?: string | undefined;
  campaign?: string | undefined;
}

/** The link set as the answer repeats it (the ids, in order, without repeats). */
export type LinkSetApplied = { url?: number[]; campaign?: number[] };

const MAX_LINKS = 100;
const ID = /^[1-9][0-9]{0,15}$/;
const KINDS = ['url', 'campaign'] as const;

/** The ids of one parameter, without repeats; undefined when absent or empty (`url=`: no filter). */
function idsOf(name: (typeof KINDS)[number], raw: string | undefined): number[] | undefined {
  if (raw === undefined) return undefined;
  const values = [...new Set(raw.split(',').map((v) => v.trim()))].filter((v) => v !== '');
  if (values.length === 0) return undefined;
  const wrong = values.find((v) => !ID.test(v));
  if (wrong !== undefined) throw invalidField(name, `${wrong} is not an id (a positive whole number)`);
  return values.map(Number);
}

/**
 * The link set of a request: `applied` as the answer repeats it, `match` as the queries read it
 * (undefined: every link). At most 100 ids in all.
 */
export function parseLinkSet(input: LinkSetInput): { applied: LinkSetApplied; match: LinkSet | undefined } {
  const url = idsOf('url', input.url);
  const campaign = idsOf('campaign', input.campaign);
  if (!url && !campaign) return { applied: {}, match: undefined };
  if ((url?.length ?? 0) + (campaign?.length ?? 0) > MAX_LINKS)
    throw invalidField(url ? 'url' : 'campaign', `at most ${MAX_LINKS} links in all (url and campaign together)`);
  return {
    applied: { ...(url && { url }), ...(campaign && { campaign }) },
    match: { url: url ?? [], campaign: campaign ?? [] },
  };
}
