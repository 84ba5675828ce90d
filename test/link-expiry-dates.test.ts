// Spec rule: expirationDate takes `YYYY-MM-DD` as well as `YYYY-MM-DD HH:mm:ss`. A person who
// writes a date means "until the end of that day": a bare date on a short URL's expirationDate or
// a campaign's expiresAt lasts until the last moment of that day in the organization's time zone
// (Asia/Seoul unless the operator set another), so today's date is accepted.
import { DateTime } from 'luxon';
import { beforeAll, describe, expect, it } from 'vitest';
import { serviceForFile } from './support/service.js';
import { expectError } from './support/error-body.js';

let seoul: { id: number; apiKey: string };

const svc = serviceForFile();

beforeAll(async () => {
  seoul = await svc.createOrganization('Seoul Shop');
});

const createUrl = (org: { apiKey: string }, expirationDate: unknown) =>
  svc.service('POST', '/urls', org.apiKey, { url: 'https://example.com/sale', expirationDate });
const createCampaign = (org: { apiKey: string }, expiresAt: unknown) =>
  svc.service('POST', '/campaigns', org.apiKey, { name: 'Sale', originalUrl: 'https://example.com/sale', expiresAt });

async function organizationIn(timeZone: string) {
  const res = await svc.admin('POST', '/organizations', { name: `Shop in ${timeZone}`, timeZone });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json().timeZone).toBe(timeZone);
  return res.json() as { id: number; apiKey: string };
}

describe("a date-only expirationDate or expiresAt lasts until the end of that day in the organization's time zone", () => {
  it('is Asia/Seoul by default, on short URLs and campaigns alike', async () => {
    expect((await svc.admin('GET', `/organizations/${seoul.id}`)).json().timeZone).toBe('Asia/Seoul');
    const url = await createUrl(seoul, '2035-05-06');
    expect(url.statusCode, url.body).toBe(201);
    expect(url.json().expiresAt).toBe('2035-05-06T14:59:59.999Z');
    const campaign = await createCampaign(seoul, '2035-05-06');
    expect(campaign.statusCode, campaign.body).toBe(201);
    expect(campaign.json().expiresAt).toBe('2035-05-06T14:59:59.999Z');
    // A time still means that instant: UTC for expirationDate, ISO-8601 for expiresAt.
    expect((await createUrl(seoul, '2035-05-06 10:00:00')).json().expiresAt).toBe('2035-05-06T10:00:00.000Z');
    expect((await createCampaign(seoul, '2035-05-06T10:00:00+09:00')).json().expiresAt).toBe(
      '2035-05-06T01:00:00.000Z',
    );
  });

  it("takes today's date (where the organization is) and refuses yesterday's", async () => {
    const today = DateTime.now().setZone('Asia/Seoul');
    const end = today.endOf('day').toUTC().toISO();
    for (const create of [createUrl, createCampaign]) {
      const res = await create(seoul, today.toISODate());
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().expiresAt).toBe(end);
    }
    const yesterday = today.minus({ days: 1 }).toISODate();
    expectError(await createUrl(seoul, yesterday), 400, { field: 'body.expirationDate' });
    expectError(await createCampaign(seoul, yesterday), 400, { field: 'body.expiresAt' });
  });

  it('follows the time zone the operator set, across a DST change and in a +5:45 zone', async () => {
    const newYork = await organizationIn('America/New_York');
    // 2035-03-11 is the spring-forward day in New York: it ends at 23:59:59.999 EDT (-4).
    expect((await createUrl(newYork, '2035-03-11')).json().expiresAt).toBe('2035-03-12T03:59:59.999Z');
    expect((await createCampaign(newYork, '2035-01-15')).json().expiresAt).toBe('2035-01-16T04:59:59.999Z');
    const kathmandu = await organizationIn('Asia/Kathmandu');
    expect((await createUrl(kathmandu, '2035-05-06')).json().expiresAt).toBe('2035-05-06T18:14:59.999Z');
    const moved = await svc.admin('PUT', `/organizations/${kathmandu.id}/time-zone`, { timeZone: 'UTC' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().timeZone).toBe('UTC');
    expect((await createCampaign(kathmandu, '2035-05-06')).json().expiresAt).toBe('2035-05-06T23:59:59.999Z');
  });

  it('applies to updates too', async () => {
    const url = (await createUrl(seoul, null)).json();
    const put = await svc.service('PUT', `/urls/${url.id}`, seoul.apiKey, { expirationDate: '2035-12-31' });
    expect(put.json().expiresAt).toBe('2035-12-31T14:59:59.999Z');
    const campaign = (await createCampaign(seoul, null)).json();
    const putCampaign = await svc.service('PUT', `/campaigns/${campaign.id}`, seoul.apiKey, {
      expiresAt: '2035-12-31',
    });
    expect(putCampaign.json().expiresAt).toBe('2035-12-31T14:59:59.999Z');
  });

  it('refuses a time zone the runtime does not know', async () => {
    expectError(await svc.admin('POST', '/organizations', { name: 'Nowhere', timeZone: 'Mars/Olympus' }), 400, {
      field: 'timeZone',
    });
    expectError(await svc.admin('PUT', `/organizations/${seoul.id}/time-zone`, { timeZone: 'Asia/Nowhere' }), 400, {
      field: 'timeZone',
    });
  });
});
