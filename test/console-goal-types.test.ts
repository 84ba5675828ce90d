// The console's goal types (presets first, the organization's own added and removed by role,
// audited), its plan and usage page (the Service API's own count), and the audit log's filters
// and actors.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolate, startService, type Isolation, type TestService } from './support/service.js';

const BASE = 'http://localhost:8080';
const PRESETS = [
  'purchase',
  'signup',
  'addToCart',
  'productView',
  'subscription',
  'appInstall',
  'formSubmit',
  'contentView',
];

interface Member {
  id: number;
  cookie: string;
  csrf: string;
}

interface AuditJson {
  id: number;
  action: string;
  actorType: string;
  actorUserId: number | null;
  actor: { email: string; name: string | null } | null;
  target: string | null;
  details: Record<string, unknown>;
  createdAt: string;
}

describe('console goal types, usage and audit filters', () => {
  let isolation: Isolation;
  let svc: TestService;
  let org: { id: number; apiKey: string };
  let other: { id: number; apiKey: string };
  let owner: Member;
  let developer: Member;
  let analyst: Member;
  let stranger: Member;

  const call = (
    method: string,
    url: string,
    who: Member,
    body?: unknown,
    csrf = true,
  ): Promise<LightMyRequestResponse> =>
    svc.inject({
      method: method as 'GET',
      url: `/console/api${url}`,
      headers: { cookie: `sp_session=${who.cookie}`, origin: BASE, ...(csrf ? { 'x-csrf-token': who.csrf } : {}) },
      ...(body === undefined ? {} : { payload: body as object }),
    });
  const goalTypes = (orgId: number) => `/organizations/${orgId}/goal-types`;
  const auditLog = async (who: Member, query = ''): Promise<AuditJson[]> => {
    const res = await call('GET', `/organizations/${org.id}/audit-log${query}`, who);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as AuditJson[];
  };

  async function signIn(email: string): Promise<Member> {
    const link = new URL((await svc.admin('POST', '/login-links', { email })).json().url as string);
    const opened = await svc.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect(opened.statusCode).toBe(302);
    const cookie = /sp_session=([^;]+)/.exec(String(opened.headers['set-cookie']))![1]!;
    const session = (
      await svc.inject({ method: 'GET', url: '/console/api/session', headers: { cookie: `sp_session=${cookie}` } })
    ).json();
    return { id: session.user.id as number, cookie, csrf: session.csrfToken as string };
  }

  beforeAll(async () => {
    isolation = await isolate();
    svc = await startService(isolation, { PUBLIC_BASE_URL: BASE });
    org = await svc.createOrganization('Goals Org');
    other = await svc.createOrganization('Other Org', 'PRO');
    const members: [number, string, string][] = [
      [org.id, 'owner@example.com', 'owner'],
      [org.id, 'dev@example.com', 'developer'],
      [org.id, 'analyst@example.com', 'analyst'],
      [other.id, 'stranger@example.com', 'owner'],
    ];
    for (const [orgId, email, role] of members) {
      expect((await svc.admin('POST', `/organizations/${orgId}/members`, { email, role, name: role })).statusCode).toBe(
        201,
      );
    }
    owner = await signIn('owner@example.com');
    developer = await signIn('dev@example.com');
    analyst = await signIn('analyst@example.com');
    stranger = await signIn('stranger@example.com');
  });

  afterAll(async () => {
    await svc?.close();
    await isolation?.dispose();
  });

  it('lists the 8 presets first, then adds custom types (trimmed, purchase_<CURRENCY> allowed)', async () => {
    const first = await call('GET', goalTypes(org.id), analyst);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual(PRESETS.map((name) => ({ name, description: null, preset: true, createdAt: null })));

    const added = await call('POST', goalTypes(org.id), developer, {
      name: '  purchase_KRW ',
      description: 'Purchases in won',
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toEqual({
      name: 'purchase_KRW',
      description: 'Purchases in won',
      preset: false,
      createdAt: expect.any(String),
    });
    expect(Math.abs(new Date(added.json().createdAt).getTime() - Date.now())).toBeLessThan(60_000);
    expect((await call('POST', goalTypes(org.id), owner, { name: 'newsletter' })).statusCode).toBe(201);

    const list = (await call('GET', goalTypes(org.id), analyst)).json() as {
      name: string;
      preset: boolean;
      description: string | null;
    }[];
    expect(list.map((g) => g.name)).toEqual([...PRESETS, 'purchase_KRW', 'newsletter']);
    expect(list.slice(8).map((g) => [g.preset, g.description])).toEqual([
      [false, 'Purchases in won'],
      [false, null],
    ]);
  });

  it('refuses a duplicate or a preset name (any case) with 409, bad names with 400, and a missing CSRF token', async () => {
    for (const name of ['purchase_KRW', 'PURCHASE_krw', 'purchase', 'AddToCart', ' signup ']) {
      const res = await call('POST', goalTypes(org.id), developer, { name });
      expect(res.statusCode, name).toBe(409);
      expect(res.json().code).toBe('GOAL_TYPE_EXISTS');
    }
    for (const body of [
      { name: 'x'.repeat(51) },
      { name: '   ' },
      { name: 'a\tb' },
      { name: 'ok', description: 'd'.repeat(201) },
      {},
    ]) {
      const res = await call('POST', goalTypes(org.id), developer, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
    }
    expect((await call('POST', goalTypes(org.id), developer, { name: 'x'.repeat(50) })).statusCode).toBe(201);
    const noCsrf = await call('POST', goalTypes(org.id), developer, { name: 'sneaky' }, false);
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json().code).toBe('CSRF_TOKEN_INVALID');
  });

  it('an analyst lists but may not add or remove; another organization answers 404', async () => {
    for (const res of [
      await call('POST', goalTypes(org.id), analyst, { name: 'analystType' }),
      await call('DELETE', `${goalTypes(org.id)}/newsletter`, analyst),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('ROLE_FORBIDDEN');
    }
    for (const res of [
      await call('GET', goalTypes(org.id), stranger),
      await call('POST', goalTypes(org.id), stranger, { name: 'stolen' }),
      await call('DELETE', `${goalTypes(org.id)}/newsletter`, stranger),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('ORGANIZATION_NOT_FOUND');
    }
    // Names are per organization: the other one may add the same name, and sees none of ours.
    expect((await call('POST', goalTypes(other.id), stranger, { name: 'newsletter' })).statusCode).toBe(201);
    const theirs = (await call('GET', goalTypes(other.id), stranger)).json() as { name: string }[];
    expect(theirs.map((g) => g.name)).toEqual([...PRESETS, 'newsletter']);
  });

  it('removes a custom type (links keep their goalType); a preset cannot be removed; an unknown one is 404', async () => {
    const link = await svc.createLink(org, { url: 'https://example.com/news', goalType: 'newsletter' });

    expect((await call('DELETE', `${goalTypes(org.id)}/Newsletter`, developer)).statusCode).toBe(204);
    const again = await call('DELETE', `${goalTypes(org.id)}/newsletter`, developer);
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe('GOAL_TYPE_NOT_FOUND');
    const preset = await call('DELETE', `${goalTypes(org.id)}/purchase`, owner);
    expect(preset.statusCode).toBe(409);
    expect(preset.json().code).toBe('GOAL_TYPE_PRESET');
    expect((await call('DELETE', `${goalTypes(org.id)}/${encodeURIComponent('purchase_KRW')}`, owner)).statusCode).toBe(
      204,
    );

    const names = ((await call('GET', goalTypes(org.id), analyst)).json() as { name: string }[]).map((g) => g.name);
    expect(names).toEqual([...PRESETS, 'x'.repeat(50)]);
    expect((await svc.service('GET', `/urls/${link.id}`, org.apiKey)).json().goalType).toBe('newsletter');
    // The other organization's type of the same name is untouched.
    expect(((await call('GET', goalTypes(other.id), stranger)).json() as { name: string }[]).at(-1)?.name).toBe(
      'newsletter',
    );
  });

  it('audits each change with the acting member', async () => {
    const added = await auditLog(owner, '?action=goal_type.added');
    expect(added.map((a) => [a.details.name, a.actor?.email])).toEqual([
      ['x'.repeat(50), 'dev@example.com'],
      ['newsletter', 'owner@example.com'],
      ['purchase_KRW', 'dev@example.com'],
    ]);
    expect(added[2]).toMatchObject({
      actorType: 'user',
      actorUserId: developer.id,
      target: 'goal_type:purchase_KRW',
      details: { description: 'Purchases in won' },
    });
    const removed = await auditLog(owner, '?action=goal_type.removed');
    expect(removed.map((a) => [a.target, a.actorUserId])).toEqual([
      ['goal_type:purchase_KRW', owner.id],
      ['goal_type:newsletter', developer.id],
    ]);
    // The other organization's addition is in its own log only.
    expect(added.every((a) => a.actor?.email !== 'stranger@example.com')).toBe(true);
  });

  it('goal types go with their organization', async () => {
    const doomed = await svc.createOrganization('Doomed');
    await svc.admin('POST', `/organizations/${doomed.id}/members`, { email: 'stranger@example.com', role: 'owner' });
    expect((await call('POST', goalTypes(doomed.id), stranger, { name: 'temporary' })).statusCode).toBe(201);
    const { sql } = svc.container.postgres;
    await sql`delete from organizations where id = ${doomed.id}`;
    expect(await sql`select 1 from goal_types where organization_id = ${doomed.id}`).toHaveLength(0);
  });

  it('the audit log filters by action, actor and time in SQL, pages by id under filters, and names the actor', async () => {
    const all = await auditLog(owner, '?limit=200');
    expect(all.length).toBeGreaterThan(5);
    // Members the operator added: the operator acted, no user.
    const memberAdded = await auditLog(owner, '?action=member.added');
    expect(memberAdded).toHaveLength(3);
    expect(memberAdded.every((a) => a.actorType === 'operator' && a.actor === null && a.actorUserId === null)).toBe(
      true,
    );

    const byDeveloper = await auditLog(owner, `?actorUserId=${developer.id}`);
    expect(byDeveloper.length).toBeGreaterThan(0);
    expect(
      byDeveloper.every(
        (a) => a.actorUserId === developer.id && a.actor?.email === 'dev@example.com' && a.actor.name === 'developer',
      ),
    ).toBe(true);
    expect(byDeveloper).toEqual(all.filter((a) => a.actorUserId === developer.id));
    expect(await auditLog(owner, `?actorUserId=${developer.id}&action=member.added`)).toEqual([]);

    // Paging under a filter: one at a time, the same entries in the same order.
    const pages: number[] = [];
    let before = '';
    for (;;) {
      const page = await auditLog(owner, `?action=goal_type.added&limit=1${before}`);
      if (page.length === 0) break;
      pages.push(page[0]!.id);
      before = `&before=${page[0]!.id}`;
    }
    expect(pages).toEqual((await auditLog(owner, '?action=goal_type.added')).map((a) => a.id));

    // from is inclusive, to exclusive.
    const oldestFirst = [...all].reverse();
    const pivot = oldestFirst.find((a, n) => n > 0 && a.createdAt !== oldestFirst[n - 1]!.createdAt)!;
    const from = await auditLog(owner, `?limit=200&from=${encodeURIComponent(pivot.createdAt)}`);
    expect(from).toEqual(all.filter((a) => a.createdAt >= pivot.createdAt));
    const to = await auditLog(owner, `?limit=200&to=${encodeURIComponent(pivot.createdAt)}`);
    expect(to).toEqual(all.filter((a) => a.createdAt < pivot.createdAt));
    expect(from.length + to.length).toBe(all.length);
    // An offset names the same moment.
    const shifted = new Date(pivot.createdAt).toISOString().replace('Z', '+00:00');
    expect(await auditLog(owner, `?limit=200&from=${encodeURIComponent(shifted)}`)).toEqual(from);
    expect(
      await auditLog(owner, `?from=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`),
    ).toEqual([]);
  });

  it('the audit log refuses an unknown action, a bad date and an empty range with 400; analysts get 403', async () => {
    for (const query of [
      'action=goal_type',
      'action=member.',
      'action=nope',
      'from=yesterday',
      'to=2026-01-01',
      'actorUserId=abc',
      'from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z',
    ]) {
      const res = await call('GET', `/organizations/${org.id}/audit-log?${query}`, owner);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
    }
    const refused = await call('GET', `/organizations/${org.id}/audit-log?action=goal_type.added`, analyst);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('ROLE_FORBIDDEN');
  });

  it("usage: plan, quota and this month's calls as the Service API counts them, add-ons and plan features", async () => {
    const url = `/organizations/${org.id}/usage`;
    const before = await call('GET', url, analyst);
    expect(before.statusCode, before.body).toBe(200);
    const now = new Date();
    const month = now.toISOString().slice(0, 7);
    const resetsAt = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
    expect(before.json()).toEqual({
      plan: 'FREE',
      monthlyQuota: 10_000,
      callsThisMonth: expect.any(Number),
      remaining: 10_000 - before.json().callsThisMonth,
      month,
      resetsAt,
      addOns: { userJourney: false, revenueAnalytics: false },
      features: { qrCodes: false, dataRetentionDays: 30, addOnsIncluded: false },
    });

    for (let n = 0; n < 3; n++) expect((await svc.service('GET', '/urls', org.apiKey)).statusCode).toBe(200);
    const service = (await svc.service('GET', '/usage', org.apiKey)).json();
    expect(service.callsThisMonth).toBe(before.json().callsThisMonth + 4);
    // Console reads are not Service API calls: the figure is the Service API's own.
    const after = (await call('GET', url, analyst)).json();
    expect(after).toMatchObject({
      callsThisMonth: service.callsThisMonth,
      remaining: service.remaining,
      monthlyQuota: service.monthlyQuota,
    });

    // The plan's features and the add-ons in force, after the operator changes them.
    expect(
      (await svc.admin('PUT', `/organizations/${org.id}/plan`, { plan: 'BUSINESS', monthlyQuota: 5 })).statusCode,
    ).toBe(200);
    expect((await svc.admin('PUT', `/organizations/${org.id}/add-ons`, { userJourney: true })).statusCode).toBe(200);
    expect((await call('GET', url, owner)).json()).toMatchObject({
      plan: 'BUSINESS',
      monthlyQuota: 5,
      remaining: 0,
      addOns: { userJourney: true, revenueAnalytics: false },
      features: { qrCodes: true, dataRetentionDays: 730, addOnsIncluded: false },
    });
    const stranger404 = await call('GET', url, stranger);
    expect(stranger404.statusCode).toBe(404);
    expect((await call('GET', `/organizations/${other.id}/usage`, stranger)).json()).toMatchObject({
      plan: 'PRO',
      features: { qrCodes: true, dataRetentionDays: 365 },
    });
  });

  it('documents the new routes in the OpenAPI document', async () => {
    const doc = (await svc.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(doc.paths['/console/api/organizations/{orgId}/goal-types'] ?? {}).sort()).toEqual([
      'get',
      'post',
    ]);
    expect(Object.keys(doc.paths['/console/api/organizations/{orgId}/goal-types/{name}'] ?? {})).toEqual(['delete']);
    expect(Object.keys(doc.paths['/console/api/organizations/{orgId}/usage'] ?? {})).toEqual(['get']);
    const auditLogGet = doc.paths['/console/api/organizations/{orgId}/audit-log']!.get as {
      parameters: { name: string }[];
    };
    const auditParams = auditLogGet.parameters.map((p) => p.name);
    expect(auditParams).toEqual(expect.arrayContaining(['action', 'actorUserId', 'from', 'to', 'before', 'limit']));
  });
});
