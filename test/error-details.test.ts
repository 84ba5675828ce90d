// The error body's `details` as a client reads it: a 400 for refused input lists each refused field
// once, by its dotted path in the body (`routingRules.0.url`, array indexes included) or the name of
// the query or path parameter, with what is wrong with it; the message stays the sentence it was.
// Schema refusals, the edge's text rule and the services' own field checks answer alike, on the
// Service API, the console's API and the operator API. Other errors carry no details.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backend } from './support/backend.js';
import { consoleMember, type ConsoleCall } from './support/console-api.js';
import { expectError } from './support/error-body.js';
import { isolate, startService, type Isolation, type TestService } from './support/service.js';

const BASE = 'https://sgnp.example';

let isolation: Isolation;
let svc: TestService;
let apiKey: string;
let orgId: number;
let member: ConsoleCall;

beforeAll(async () => {
  isolation = await isolate();
  svc = await startService(isolation, { PUBLIC_BASE_URL: BASE });
  ({ id: orgId, apiKey } = await svc.createOrganization('Details', 'PRO'));
  member = await consoleMember(svc, BASE, { organizationId: orgId, email: 'owner@details.example', role: 'owner' });
});

afterAll(async () => {
  await svc?.close();
  await isolation?.dispose();
});

/** The details of a 400 (checked as the error body), as a map from field to message. */
function detailsOf(res: LightMyRequestResponse, code = 'VALIDATION_FAILED'): Map<string, string> {
  const body = expectError(res, 400, { code });
  const details = body.details ?? [];
  const fields = details.map((d) => d.field);
  expect(new Set(fields).size, 'one entry per field').toBe(fields.length);
  return new Map(details.map((d) => [d.field, d.message]));
}

describe(`error details (${backend})`, () => {
  it('Service API body: each refused field by name, the message as before', async () => {
    const res = await svc.service('POST', '/urls', apiKey, { url: 'not a url', title: 42, showAdPage: 'yes' });
    const details = detailsOf(res);
    expect([...details.keys()].sort()).toEqual(['showAdPage', 'title', 'url']);
    expect(res.json().message).toContain('body.url: ');
    expect(res.json().message).toContain(`body.url: ${details.get('url')}`);
  });

  it('an array element is named by its index, on the Service API and the operator API', async () => {
    const app = await svc.service('POST', '/mobile-apps', apiKey, {
      appName: 'Shop',
      platform: 'ANDROID',
      bundleId: 'com.example.shop',
      sha256CertFingerprints: ['not a fingerprint'],
    });
    expect([...detailsOf(app).keys()]).toEqual(['sha256CertFingerprints.0']);

    const partner = await svc.admin('POST', '/partners', {
      serviceName: 'Partner',
      allowedOrigins: ['https://shop.partner.example', 'not an origin'],
      loginUrl: 'https://shop.partner.example/login',
      contactEmail: 'dev@partner.example',
    });
    expect([...detailsOf(partner).keys()]).toEqual(['allowedOrigins.1']);
  });

  it('a nested field the edge refuses (a NUL character) is named by its path in the body', async () => {
    const res = await svc.service('POST', '/mobile-apps', apiKey, {
      appName: 'Shop',
      platform: 'ANDROID',
      bundleId: 'com.example.shop',
      sha256CertFingerprints: ['ok', 'x\u0000'],
    });
    const details = detailsOf(res);
    expect([...details.keys()]).toEqual(['sha256CertFingerprints.1']);
    expect(res.json().message).toBe(`body.sha256CertFingerprints.1: ${details.get('sha256CertFingerprints.1')}`);
  });

  it('query and path parameters by their names; a service check of the query as well', async () => {
    const link = await svc.service('POST', '/urls', apiKey, { url: 'https://example.com/a' });
    expect(link.statusCode, link.body).toBe(201);
    const id = link.json().id as number;

    expect([...detailsOf(await svc.service('GET', '/urls?size=0', apiKey)).keys()]).toEqual(['size']);
    expect([...detailsOf(await svc.service('GET', '/urls/abc', apiKey)).keys()]).toEqual(['id']);

    const badDate = await svc.service('GET', `/urls/${id}/stats?startDate=2025-13-45`, apiKey);
    expect(badDate.json().message).toBe('query.startDate: must be a date YYYY-MM-DD');
    expect(detailsOf(badDate)).toEqual(new Map([['startDate', 'must be a date YYYY-MM-DD']]));

    const reversed = await svc.service('GET', `/urls/${id}/stats?startDate=2025-03-02&endDate=2025-03-01`, apiKey);
    expect(detailsOf(reversed)).toEqual(new Map([['startDate', 'must not be after endDate']]));
  });

  it('a body field a service refuses carries its own code and the field', async () => {
    const res = await svc.service('POST', '/urls', apiKey, { url: 'https://example.com/b', iosAppId: 987654 });
    expect(res.json().message).toBe('body.iosAppId: no mobile app 987654 in this organization');
    expect(detailsOf(res, 'APP_NOT_FOUND')).toEqual(
      new Map([['iosAppId', 'no mobile app 987654 in this organization']]),
    );
  });

  it("the console's API: schema refusals and the webhook URL check name their fields", async () => {
    const schema = await member('PUT', `/organizations/${orgId}/webhook`, { url: 'nope', events: [] });
    expect([...detailsOf(schema).keys()].sort()).toEqual(['events', 'url']);

    const unsafe = await member('PUT', `/organizations/${orgId}/webhook`, {
      url: 'http://hooks.example/in',
      events: ['click'],
    });
    expect(unsafe.statusCode, unsafe.body).toBe(400);
    const body = unsafe.json();
    expect(body.details).toEqual([{ field: 'url', message: body.message }]);

    const invite = await member('POST', `/organizations/${orgId}/members`, { email: 'not-an-email', role: 'analyst' });
    expect([...detailsOf(invite, invite.json().code).keys()]).toEqual(['email']);
  });

  it('a 400 with no single field at fault answers empty details', async () => {
    const res = await svc.inject({
      method: 'POST',
      url: '/api/v1/service/urls',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      payload: '{"url": ',
    });
    expect(detailsOf(res, 'MALFORMED_JSON')).toEqual(new Map());
  });

  it('errors other than 400 carry no details', async () => {
    expectError(await svc.service('GET', '/urls/987654', apiKey), 404);
    expectError(await svc.service('GET', '/urls', 'sk_wrong'), 401);
    const first = await svc.service('POST', '/urls', apiKey, { url: 'https://example.com/c', customAlias: 'taken1' });
    expect(first.statusCode, first.body).toBe(201);
    const again = await svc.service('POST', '/urls', apiKey, { url: 'https://example.com/c', customAlias: 'taken1' });
    expect(expectError(again, 409, { code: 'ALIAS_TAKEN' })).not.toHaveProperty('details');
  });
});
