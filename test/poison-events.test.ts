// One bad event never stops analytics. An attacker sends every event type the
// service records (clicks of short URLs and campaigns in the browser and in the app, mobile and web
// SDK deep-link events, journey sessions, events, transitions, funnel stages and goals) with hostile
// values through the real HTTP API, and poison goes straight onto the bus (an envelope ClickHouse
// refuses, bytes that are no batch at all). Another organization's clicks are still counted within
// 5 s; every event the edge recorded is in ClickHouse exactly once or in the dead letters with a
// reason, never both, never neither; and the bus drains.
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClickEnricher } from '../src/ingest/enrich.js';
import { decodeBatch, encodeBatch, type EventEnvelope } from '../src/ingest/envelope.js';
import { createEventTableRoutes, type RecordedEvent } from '../src/ingest/event-registry.js';
import { openGeoLookup } from '../src/ingest/geo.js';
import { uuidv7 } from '../src/shared/ids.js';
import { backend, servicesEnv } from './support/backend.js';
import {
  BASE,
  UA,
  createApps,
  createCampaign,
  createUrl,
  mobile,
  tap,
  unique,
  web,
  type Apps,
} from './support/deep-links.js';
import { journeyClient, journeyOrg, type JourneyApp } from './support/journey.js';
import { watchDeadLetters, type SeenDeadLetter } from './support/dead-letters.js';
import { serviceForFile } from './support/service.js';
import { randomBytes } from 'node:crypto';
import { createVisitorHasher } from '../src/ingest/visitors.js';

const routes = createEventTableRoutes({
  enrich: createClickEnricher(await openGeoLookup()),
  visitor: createVisitorHasher(randomBytes(32)),
});

const recorded: RecordedEvent[] = [];
let deadLetters: SeenDeadLetter[] = [];

const svc = serviceForFile({ PUBLIC_BASE_URL: BASE });

beforeAll(async () => {
  // Watch what the edge records and what is dead-lettered, on their way through (both still happen).
  const { events } = svc.container;
  const record = events.record.bind(events);
  events.record = (event) => {
    recorded.push(event as RecordedEvent);
    return record(event);
  };
  deadLetters = watchDeadLetters(svc.container.bus);
});

/** Text no well-behaved client sends: lone surrogates, NUL, control and bidi characters, sheer size. */
const HOSTILE_TEXT = [
  '\ud800',
  'tail\ud83d',
  'x\u0000y',
  '\u0001\u0008\u001b[31m\u007f',
  '\u202e\u200b\ufeff',
  'x'.repeat(70_000),
  '😀'.repeat(40),
];
/** Numbers at the edges of what the columns hold. */
const ODD_NUMBERS = [-1, 1.5, 1e308, 2 ** 64, -0, Number.MAX_SAFE_INTEGER];

/** Percent-encoded for a URL; a lone surrogate as the bytes a hostile client sends for it (CESU-8). */
const pct = (s: string) =>
  Array.from(s, (ch) => {
    try {
      return encodeURIComponent(ch);
    } catch {
      return '%ED%A0%80';
    }
  }).join('');

async function clicksCounted(organizationId: number, linkId: number) {
  const [raw] = await svc.clickhouse<{ c: string; u: string }>(
    `SELECT count() AS c, uniqExact(event_id) AS u FROM clicks WHERE organization_id = {org:UInt64} AND link_type = 'url' AND link_id = {id:UInt64}`,
    { org: organizationId, id: linkId },
  );
  const [total] = await svc.clickhouse<{ s: string }>(
    `SELECT sum(clicks) AS s FROM link_click_totals WHERE organization_id = {org:UInt64} AND link_type = 'url' AND link_id = {id:UInt64}`,
    { org: organizationId, id: linkId },
  );
  return { rows: Number(raw?.c ?? 0), unique: Number(raw?.u ?? 0), total: Number(total?.s ?? 0) };
}

describe(`hostile events (${backend})`, () => {
  it("keeps counting another organization's clicks within 5 s, writes every good event once and dead-letters the bad ones", async () => {
    const mallory: JourneyApp = await journeyOrg(svc, 'Mallory');
    const apps: Apps = await createApps(svc, mallory.org, 'Mallory');
    // Through the Service API, not a factory: its api_request event is one of the kinds checked below.
    const created = await svc.service('POST', '/urls', mallory.org.apiKey, {
      url: 'https://mallory.example/x',
      customAlias: unique('mal'),
      iosAppId: apps.ios.id,
    });
    expect(created.statusCode, created.body).toBe(201);
    const link = created.json() as { id: number; shortCode: string };
    const campaign = await createCampaign(svc, mallory.org, {
      alias: unique('malc'),
      originalUrl: 'https://mallory.example/c',
    });
    const bystander = await svc.createOrganization('Bystander');
    const victimLink = await createUrl(svc, bystander, {
      url: 'https://bystander.example/',
      customAlias: unique('by'),
    });
    const journey = journeyClient(svc, mallory);
    const statuses = new Map<number, number>();
    const count = (res: { statusCode: number }) =>
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
    let victimClicks = 0;
    const victimClick = async () => {
      const res = await tap(svc, `/${victimLink.shortCode}`, { ua: UA.desktop, ip: '198.51.100.80' });
      expect(res.statusCode).toBe(302);
      victimClicks++;
    };

    await victimClick();
    const session = (await journey('POST', '/session/create', { platform: 'WEB' })).json() as { sessionId: string };
    const target = (await journey('POST', '/session/create', { platform: 'IOS' }, { mobile: true })).json() as {
      sessionId: string;
    };
    let sent = 0;
    for (const [i, bad] of HOSTILE_TEXT.entries()) {
      const odd = ODD_NUMBERS[i % ODD_NUMBERS.length]!;
      const q = pct(bad.slice(0, 2000));
      const calls = [
        // Clicks of a short URL and a campaign in a browser, hostile query and headers.
        tap(svc, `/${link.shortCode}?utm_source=${q}&utm_campaign=${q}&cid=${q}`, {
          ua: `${UA.pixel} ${bad.slice(0, 500).replace(/[^\x20-\x7e]/g, '?')}`,
        }),
        tap(svc, `/${campaign.alias}?cid=${q}&tracker=${q}&utm_term=${q}`, { ua: UA.iPhone }),
        // Clicks in the app.
        mobile(svc, apps.ios, 'POST', '/clicks/url', {
          shortCode: link.shortCode,
          deviceInfo: { platform: bad, os: bad, userAgent: bad, extra: odd },
        }),
        mobile(svc, apps.android, 'POST', '/clicks/campaign', {
          campaignAlias: campaign.alias,
          trackerAlias: bad,
          customId: bad,
          deviceInfo: { browser: bad },
        }),
        // Mobile SDK deep-link events.
        mobile(svc, apps.ios, 'POST', '/deeplink/funnel/track', {
          sessionId: `s-${i}-${bad}`,
          stage: 'APP_OPENED',
          goalType: bad,
          goalValue: odd,
          deviceType: bad,
          externalUserId: bad,
          urlId: link.id,
        }),
        mobile(svc, apps.ios, 'GET', `/deeplink/match?token=${q}`),
        mobile(svc, apps.android, 'GET', `/deeplink/resolve-fingerprint?resolution=${q}&userAgent=${q}`),
        // Web SDK events.
        web(svc, 'POST', '/deeplink/update-fingerprint', {
          token: bad,
          resolution: '390x844',
          userAgent: bad,
          timeZone: bad,
          language: bad,
        }),
        web(svc, 'POST', '/deeplink/track-store-visit', { token: bad, isCampaign: true }),
        // User journey: sessions, events, transitions, funnel stages and goals.
        journey('POST', '/session/create', {
          platform: 'WEB',
          utmSource: bad,
          utmMedium: bad,
          utmCampaign: bad,
          referrer: bad,
          landingUrl: bad,
          externalUserId: bad,
        }),
        journey('POST', '/session/event', {
          sessionId: session.sessionId,
          eventType: bad,
          properties: { v: bad, n: odd },
        }),
        journey('POST', '/session/transition', {
          sessionId: session.sessionId,
          fromPlatform: 'WEB',
          toPlatform: 'IOS',
          targetSessionId: target.sessionId,
          deepLinkToken: bad,
          properties: { v: bad },
        }),
        journey('POST', '/session/funnel/track', {
          sessionId: session.sessionId,
          stage: 'CONTENT_VIEWED',
          goalType: bad,
        }),
        journey('POST', '/session/funnel/track', {
          sessionId: session.sessionId,
          stage: 'GOAL_COMPLETED',
          goalType: bad,
          goalValue: odd,
          currency: 'KRW',
          transactionId: `t-${i}-${bad}`,
        }),
      ];
      for (const res of await Promise.all(calls)) count(res);
      sent += calls.length;
      await victimClick();
    }
    // Poison straight onto the bus, past every check of the edge.
    const poison: EventEnvelope = {
      eventId: uuidv7(),
      type: 'click',
      occurredAt: Date.now(),
      organizationId: mallory.org.id,
      data: { linkType: 'url', linkId: link.id, host: 'sp\ud800', referrer: '\udbff', userAgent: UA.desktop },
    };
    const poisonId = `poison-${uuidv7()}`;
    await svc.container.bus.publish('events.click', encodeBatch([poison]), poisonId);
    // A value only ClickHouse can tell is wrong: an unsigned column given a negative number.
    const refused: EventEnvelope = {
      ...poison,
      eventId: uuidv7(),
      data: { linkType: 'url', linkId: -1, host: 'sp.test', userAgent: UA.desktop },
    };
    const refusedId = `refused-${uuidv7()}`;
    await svc.container.bus.publish('events.click', encodeBatch([refused]), refusedId);
    const garbageId = `garbage-${uuidv7()}`;
    await svc.container.bus.publish('events.click', new Uint8Array([0xff, 0xfe, 0x00, 0x7b]), garbageId);
    for (let i = 0; i < 5; i++) await victimClick();

    // The bystander's clicks are counted within 5 s of the last one.
    const deadline = Date.now() + 5_000;
    let seen = await clicksCounted(bystander.id, victimLink.id);
    while (seen.rows < victimClicks && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      seen = await clicksCounted(bystander.id, victimLink.id);
    }
    console.log(
      `hostile requests ${sent} (statuses ${JSON.stringify(Object.fromEntries(statuses))}); bystander clicks answered ${victimClicks}, counted ${seen.rows} within 5 s`,
    );
    expect(seen).toEqual({ rows: victimClicks, unique: victimClicks, total: victimClicks });

    // Nothing is stuck: every consumer acknowledges everything.
    expect(await svc.container.events.flush()).not.toBe(false);
    expect(await svc.container.bus.drain(20_000)).toBe(true);

    // The poison is in the dead letters, each with its reason.
    const byId = new Map(deadLetters.map((d) => [d.message.id, d]));
    expect(byId.get(`${poisonId}:${poison.eventId}`)?.reason).toMatch(
      /^text in column \w+ of clicks is not well-formed UTF-16/,
    );
    expect(byId.get(`${refusedId}:${refused.eventId}`)?.reason).toMatch(/^ClickHouse refused the row for clicks: /);
    expect(byId.get(garbageId)?.reason).toMatch(/^undecodable batch/);
    if (backend === 'services') {
      // On JetStream they are parked in the DLQ stream, one message each.
      const nc = await connect({ servers: servicesEnv.natsUrl });
      try {
        const { state } = await (await jetstreamManager(nc)).streams.info(`${svc.config.bus.natsNamespace}_DLQ`);
        expect(state.messages).toBe(deadLetters.length);
      } finally {
        await nc.close();
      }
    }
    const letteredEvents = new Map<string, string>();
    for (const d of deadLetters) {
      expect(d.reason.length).toBeGreaterThan(10);
      if (d.message.id === garbageId) continue;
      const events = decodeBatch(d.message.data).events;
      expect(events).toHaveLength(1);
      // Only the attacker's events: the bystander loses nothing to the dead letters.
      expect(events[0]!.organizationId).toBe(mallory.org.id);
      letteredEvents.set(events[0]!.eventId, d.reason);
    }

    // Every event the edge recorded for either organization is written exactly once, or dead-lettered.
    const mine = recorded.filter(
      (e) => (e.organizationId === mallory.org.id || e.organizationId === bystander.id) && routes[e.type],
    );
    const tables = [...new Set(mine.map((e) => routes[e.type]!.table))];
    const written = new Map<string, number>();
    for (const table of tables) {
      const rows = await svc.clickhouse<{ id: string; n: string }>(
        `SELECT toString(event_id) AS id, count() AS n FROM ${table} WHERE organization_id IN ({a:UInt64}, {b:UInt64}) GROUP BY event_id`,
        { a: mallory.org.id, b: bystander.id },
      );
      for (const r of rows) written.set(r.id, (written.get(r.id) ?? 0) + Number(r.n));
    }
    const lost = mine.filter((e) => !written.has(e.eventId) && !letteredEvents.has(e.eventId));
    const twice = mine.filter((e) => (written.get(e.eventId) ?? 0) > 1);
    const both = mine.filter((e) => written.has(e.eventId) && letteredEvents.has(e.eventId));
    const types = [...new Set(mine.map((e) => e.type))].sort();
    console.log(
      `events recorded ${mine.length} (${types.join(', ')}): written ${mine.filter((e) => written.has(e.eventId)).length}, dead-lettered ${mine.filter((e) => letteredEvents.has(e.eventId)).length}; dead letters in all ${deadLetters.length} (with the bus poison); lost ${lost.length}, twice ${twice.length}`,
    );
    expect(lost.map((e) => e.type)).toEqual([]);
    expect(twice.map((e) => e.type)).toEqual([]);
    expect(both.map((e) => e.type)).toEqual([]);
    // Each kind of event reached the pipeline through the API.
    for (const type of [
      'click',
      'session_started',
      'session_event',
      'session_transition',
      'journey_funnel',
      'funnel_stage',
      'api_request',
    ]) {
      expect(types, type).toContain(type);
    }
  }, 120_000);

  it('lists recent dead letters to the operator, newest first, with the reason (NATS DLQ stream, or the dead-letter file)', async () => {
    const unauthorized = await svc.inject({ method: 'GET', url: '/api/admin/v1/dead-letters' });
    expect(unauthorized.statusCode).toBe(401);
    const ids = [`garbage-a-${uuidv7()}`, `garbage-b-${uuidv7()}`];
    for (const id of ids)
      await svc.container.bus.publish('events.api_request', new TextEncoder().encode('{"v":2}'), id);
    expect(await svc.container.bus.drain(20_000)).toBe(true);

    const res = await svc.admin('GET', '/dead-letters?limit=2');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as {
      listed: boolean;
      content: { subject: string; id: string; reason: string; at: string }[];
    };
    expect(body.listed).toBe(true);
    expect(body.content.map((l) => [l.subject, l.id])).toEqual([
      ['events.api_request', ids[1]],
      ['events.api_request', ids[0]],
    ]);
    for (const letter of body.content) {
      expect(letter.reason).toMatch(/^undecodable batch: /);
      expect(Date.parse(letter.at)).toBeGreaterThan(Date.now() - 60_000);
    }
    expect((await svc.admin('GET', '/dead-letters?limit=0')).statusCode).toBe(400);
  });
});
