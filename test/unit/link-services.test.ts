// The links core without HTTP: a successful change tells the link caches (and, for campaigns, the
// change events) once; a refused one tells nothing; reads carry their clickCount.
import { describe, expect, it } from 'vitest';
import { createLinksService } from '../../src/core/links/index.js';
import type { Campaign } from '../../src/oltp/campaigns.repo.js';
import type { ShortUrl } from '../../src/oltp/short-urls.repo.js';
import type { EventEnvelope } from '../../src/ingest/envelope.js';
import { DomainError } from '../../src/shared/errors.js';

const caller = { organization: { id: 7, name: 'Acme', plan: 'FREE' as const } };
const at = new Date('2030-01-01T00:00:00Z');

interface Insert {
  organizationId: number;
  fields: object;
  code: string;
  createdBy?: string;
}

/** An in-memory table with the repo's shape: ids from 1, slugs unique. */
function table<R extends { id: number; organizationId: number }>(
  make: (id: number, input: Insert) => R,
  slugOf: (r: R) => string,
) {
  const rows = new Map<number, R>();
  return {
    rows,
    async create(input: Insert) {
      if ([...rows.values()].some((r) => slugOf(r) === input.code)) return undefined;
      const row = make(rows.size + 1, input);
      rows.set(row.id, row);
      return row;
    },
    async get(organizationId: number, id: number) {
      const r = rows.get(id);
      return r && r.organizationId === organizationId ? r : undefined;
    },
    async list(organizationId: number) {
      const items = [...rows.values()].filter((r) => r.organizationId === organizationId);
      return { items, total: items.length };
    },
    async update(organizationId: number, id: number, patch: Partial<R>) {
      const r = rows.get(id);
      if (!r || r.organizationId !== organizationId) return undefined;
      const updated = { ...r, ...patch };
      rows.set(id, updated);
      return updated;
    },
    async delete(organizationId: number, id: number) {
      const r = rows.get(id);
      return !!r && r.organizationId === organizationId && rows.delete(id);
    },
  };
}

function setup() {
  const shortUrls = table<ShortUrl>(
    (id, input) => ({
      ...(input.fields as ShortUrl),
      id,
      organizationId: input.organizationId,
      shortCode: input.code,
      customDomainId: null,
      customDomainName: null,
      createdAt: at,
      updatedAt: at,
    }),
    (r) => r.shortCode,
  );
  const campaigns = table<Campaign>(
    (id, input) => ({
      ...(input.fields as Campaign),
      id,
      organizationId: input.organizationId,
      alias: input.code,
      createdBy: input.createdBy!,
      customDomainId: null,
      customDomainName: null,
      iosApp: null,
      androidApp: null,
      createdAt: at,
      updatedAt: at,
    }),
    (r) => r.alias,
  );
  const changed: number[] = [];
  const events: EventEnvelope[] = [];
  const links = createLinksService({
    repos: {
      shortUrls: shortUrls as never,
      campaigns: campaigns as never,
      mobileApps: { getMany: async () => new Map() } as never,
      customDomains: { findUsableByName: async () => undefined } as never,
      idempotentRequests: {} as never,
      tags: {
        ensure: async (_org: number, names: string[]) => names.map((_, i) => i + 1),
        idOf: async () => 1,
      } as never,
    },
    clickCounts: { forLinks: async (_org, _type, ids) => new Map(ids.map((id) => [id, id * 10])) },
    events: { record: (e: EventEnvelope) => events.push(e) } as never,
    publicBaseUrl: 'https://sp.example',
    linkChanged: (organizationId) => changed.push(organizationId),
    geoFields: { regions: false, cities: false },
  });
  return { links, changed, events };
}

describe('links core', () => {
  it('tells the link caches after each successful short URL change, and reads carry the clickCount', async () => {
    const { links, changed } = setup();
    const created = await links.shortUrls.create(caller, { originalUrl: 'https://a.example/', customAlias: 'sale' });
    expect(created).toMatchObject({ shortCode: 'sale', title: null, showAdPage: false, clickCount: 0 });
    expect(changed).toEqual([7]);
    expect((await links.shortUrls.get(caller, created.id)).clickCount).toBe(10);
    await links.shortUrls.update(caller, created.id, { title: 'Sale' });
    await links.shortUrls.delete(caller, created.id);
    expect(changed).toEqual([7, 7, 7]);
  });

  it('tells nothing when a change is refused', async () => {
    const { links, changed } = setup();
    await links.shortUrls.create(caller, { originalUrl: 'https://a.example/', customAlias: 'sale' });
    changed.length = 0;
    await expect(
      links.shortUrls.create(caller, { originalUrl: 'https://b.example/', customAlias: 'sale' }),
    ).rejects.toMatchObject({ code: 'ALIAS_TAKEN' });
    await expect(links.shortUrls.update(caller, 99, { title: 'x' })).rejects.toMatchObject({
      code: 'SHORT_URL_NOT_FOUND',
    });
    await expect(links.shortUrls.delete({ organization: { ...caller.organization, id: 8 } }, 1)).rejects.toBeInstanceOf(
      DomainError,
    );
    await expect(
      links.shortUrls.create(caller, { originalUrl: 'https://b.example/', iosAppId: 3 }),
    ).rejects.toMatchObject({ code: 'APP_NOT_FOUND' });
    expect(changed).toEqual([]);
  });

  it('refuses a QR code below the PRO plan, after confirming the link exists', async () => {
    const { links } = setup();
    await expect(
      links.shortUrls.qrCode(caller, 1, {
        format: 'svg',
        size: 100,
        margin: 1,
        darkColor: '#000000',
        lightColor: '#ffffff',
        errorCorrectionLevel: 'M',
      }),
    ).rejects.toMatchObject({ code: 'SHORT_URL_NOT_FOUND' });
    const { id } = await links.shortUrls.create(caller, { originalUrl: 'https://a.example/' });
    await expect(
      links.shortUrls.qrCode(caller, id, {
        format: 'svg',
        size: 100,
        margin: 1,
        darkColor: '#000000',
        lightColor: '#ffffff',
        errorCorrectionLevel: 'M',
      }),
    ).rejects.toMatchObject({ code: 'PLAN_UPGRADE_REQUIRED' });
  });

  it('publishes a campaign_change for each campaign change, with the alias made from the name', async () => {
    const { links, changed, events } = setup();
    const created = await links.campaigns.create(caller, {
      name: 'Summer Sale 2030',
      originalUrl: 'https://a.example/',
    });
    expect(created).toMatchObject({
      alias: 'summer-sale-2030',
      createdBy: { fallback: 'Acme', userId: null, apiKeyId: null },
      clickCount: 0,
    });
    await links.campaigns.update(caller, created.id, { name: 'Summer' });
    await links.campaigns.delete(caller, created.id);
    expect(events.map((e) => (e.data as { action: string }).action)).toEqual(['created', 'updated', 'deleted']);
    expect(changed).toEqual([7, 7, 7]);
  });

  it('limits a console member to their role: an analyst reads but changes nothing, a developer changes links', async () => {
    const { links, changed } = setup();
    const created = await links.shortUrls.create(caller, { originalUrl: 'https://a.example/', customAlias: 'sale' });
    changed.length = 0;
    const analyst = { ...caller, member: { userId: 1, role: 'analyst' as const } };
    expect((await links.shortUrls.get(analyst, created.id)).shortCode).toBe('sale');
    await expect(links.shortUrls.create(analyst, { originalUrl: 'https://b.example/' })).rejects.toMatchObject({
      code: 'ROLE_FORBIDDEN',
      kind: 'forbidden',
    });
    await expect(links.shortUrls.update(analyst, created.id, { title: 'x' })).rejects.toMatchObject({
      code: 'ROLE_FORBIDDEN',
    });
    await expect(links.campaigns.delete(analyst, 1)).rejects.toMatchObject({ code: 'ROLE_FORBIDDEN' });
    expect(changed).toEqual([]);
    const developer = { ...caller, member: { userId: 2, role: 'developer' as const } };
    await links.shortUrls.update(developer, created.id, { title: 'Sale' });
    expect(changed).toEqual([7]);
  });
});
