// The webhook event catalogue: which internal events become which webhook events, that payloads
// keep ids and drop personal data, that derived ids are stable, and the signature format.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createClickEnricher } from '../../src/ingest/enrich.js';
import type { EventEnvelope } from '../../src/ingest/envelope.js';
import { toWebhookEvents } from '../../src/ingest/event-registry.js';
import type { LinkNames } from '../../src/ingest/event-spec.js';
import { derivedEventId, serializeWebhookEvent, signatureHeader } from '../../src/shared/webhook-body.js';

const enrich = createClickEnricher({ country: (ip) => (ip === '203.0.113.5' ? 'KR' : '') });
const names: LinkNames = { url: new Map([['1:42', 'aB3xY9z']]), campaign: new Map([['1:7', 'summer-sale']]) };
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

const envelope = (type: string, data: Record<string, unknown>): EventEnvelope => ({
  eventId: '01939a4e-5c1d-7e0a-9b7e-3f1c2a4d5e6f',
  type,
  occurredAt: Date.UTC(2026, 0, 1),
  organizationId: 1,
  data,
});
const map = (type: string, data: Record<string, unknown>) => toWebhookEvents(envelope(type, data), { enrich, names });

describe('toWebhookEvents', () => {
  it('turns a human click into click.url with dimensions instead of the raw request', () => {
    const [event, ...rest] = map('click', {
      linkType: 'url',
      linkId: 42,
      host: 'sgnp.example',
      cid: '',
      tracker: '',
      referrer: 'https://news.example/a?email=a@b.example',
      userAgent: IPHONE,
      ip: '203.0.113.5',
      acceptLanguage: 'ko-KR',
      utmSource: 'kakao',
      bot: false,
    });
    expect(rest).toEqual([]);
    expect(event).toEqual({
      id: '01939a4e-5c1d-7e0a-9b7e-3f1c2a4d5e6f',
      type: 'click.url',
      category: 'click',
      occurredAt: '2026-01-01T00:00:00.000Z',
      organizationId: 1,
      data: {
        urlId: 42,
        shortCode: 'aB3xY9z',
        host: 'sgnp.example',
        referrerHost: 'news.example',
        country: 'KR',
        deviceType: 'Mobile',
        os: 'iOS',
        browser: 'Mobile Safari',
        utmSource: 'kakao',
        utmMedium: null,
        utmCampaign: null,
        utmTerm: null,
        utmContent: null,
        destinationUrl: null,
        route: null,
      },
    });
    const text = serializeWebhookEvent(event!);
    for (const pii of ['203.0.113.5', 'iPhone OS', 'a@b.example', 'ko-KR']) expect(text).not.toContain(pii);
  });

  it('says where routing rules or variants sent a click', () => {
    const [event] = map('click', {
      linkType: 'url',
      linkId: 42,
      userAgent: IPHONE,
      ip: '',
      referrer: '',
      destinationUrl: 'https://example.com/b',
      route: 'variant:1',
    });
    expect(event!.data).toMatchObject({ destinationUrl: 'https://example.com/b', route: 'variant:1' });
  });

  it('maps campaign clicks with cid and tracker, and skips bots and preview fetchers', () => {
    expect(
      map('click', {
        linkType: 'campaign',
        linkId: 7,
        cid: 'user-42',
        tracker: 'insta',
        userAgent: IPHONE,
        ip: '',
        referrer: '',
      })[0],
    ).toMatchObject({
      type: 'click.campaign',
      data: { campaignId: 7, alias: 'summer-sale', cid: 'user-42', tracker: 'insta', country: null },
    });
    expect(map('click', { linkType: 'url', linkId: 42, userAgent: 'facebookexternalhit/1.1', bot: true })).toEqual([]);
    expect(
      map('click', { linkType: 'url', linkId: 42, userAgent: 'Googlebot/2.1 (+http://www.google.com/bot.html)' }),
    ).toEqual([]);
    // A link unknown to the look-up (deleted meanwhile) keeps its id, with no name.
    expect(map('click', { linkType: 'url', linkId: 99, userAgent: IPHONE })[0]!.data).toMatchObject({
      urlId: 99,
      shortCode: null,
    });
  });

  it('maps campaign changes and ignores unknown actions and types', () => {
    expect(
      map('campaign_change', {
        action: 'updated',
        campaign: { id: 7, name: 'Summer', alias: 'summer-sale', originalUrl: 'https://x' },
      }),
    ).toEqual([
      expect.objectContaining({
        type: 'campaign.updated',
        category: 'campaign',
        data: { campaign: { id: 7, name: 'Summer', alias: 'summer-sale' } },
      }),
    ]);
    expect(map('campaign_change', { action: 'archived', campaign: { id: 7 } })).toEqual([]);
    expect(map('api_request', { method: 'GET' })).toEqual([]);
    expect(map('deeplink_resolution', { matched: true })).toEqual([]);
    expect(map('session_event', { eventType: 'view' })).toEqual([]);
  });

  it('sends a completed goal as funnel.stage and goal.completed, the second with a stable id of its own', () => {
    const data = {
      appId: 3,
      platform: 'ANDROID',
      sessionId: 's-1',
      stage: 'GOAL_COMPLETED',
      linkType: 'url',
      linkId: 42,
      goalType: 'purchase',
      goalValue: '1200.5',
      currency: 'usd',
      source: 'sdk',
    };
    const events = map('funnel_stage', data);
    expect(events.map((e) => [e.type, e.category])).toEqual([
      ['funnel.stage', 'funnel'],
      ['goal.completed', 'goal'],
    ]);
    expect(events[1]!.data).toEqual({
      funnel: 'mobile',
      sessionId: 's-1',
      appId: 3,
      platform: 'ANDROID',
      urlId: 42,
      campaignId: null,
      externalUserId: null,
      goalType: 'purchase',
      goalValue: 1200.5,
      currency: 'USD',
      transactionId: null,
    });
    expect(events[1]!.id).toBe(derivedEventId(events[0]!.id, 'goal.completed'));
    expect(map('funnel_stage', data)[1]!.id).toBe(events[1]!.id);
    expect(events[1]!.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(
      map('journey_funnel', { sessionId: 'w', stage: 'ACTION_TAKEN', urlId: null, campaignId: 5, platform: 'WEB' }),
    ).toEqual([
      expect.objectContaining({
        type: 'funnel.stage',
        data: expect.objectContaining({ funnel: 'web', stage: 'ACTION_TAKEN', campaignId: 5, urlId: null }),
      }),
    ]);
  });

  it('funnel/track goalValue is a String: a goal whose value is text carries it as goalText, with no goalValue', () => {
    const data = {
      appId: 3,
      platform: 'IOS',
      sessionId: 's-2',
      stage: 'GOAL_COMPLETED',
      linkType: 'url',
      linkId: 42,
      goalType: 'tier',
      goalValue: null,
      goalText: 'gold tier',
      source: 'sdk',
    };
    const [stage, goal] = map('funnel_stage', data);
    expect(goal!.data).toMatchObject({ goalType: 'tier', goalValue: null, goalText: 'gold tier' });
    expect(stage!.data).toMatchObject({ goalText: 'gold tier' });
  });

  it('maps sessions without free-form properties or deep-link tokens', () => {
    const [started] = map('session_started', {
      sessionId: 'w-1',
      appId: 5,
      platform: 'WEB',
      utmSource: 'kakao',
      referrerHost: 'm.search.example',
      urlId: 42,
      campaignId: null,
      externalUserId: 'u-1',
    });
    expect(started).toMatchObject({
      type: 'session.started',
      category: 'session',
      data: { sessionId: 'w-1', utmSource: 'kakao', referrerHost: 'm.search.example', urlId: 42 },
    });
    const [moved] = map('session_transition', {
      sessionId: 'w-1',
      appId: 5,
      fromPlatform: 'WEB',
      toPlatform: 'IOS',
      targetSessionId: 's-2',
      urlId: null,
      campaignId: 7,
      deepLinkToken: 'tok-secret',
      externalUserId: null,
      properties: { email: 'a@b.example' },
    });
    expect(moved!.data).toEqual({
      sessionId: 'w-1',
      appId: 5,
      fromPlatform: 'WEB',
      toPlatform: 'IOS',
      targetSessionId: 's-2',
      urlId: null,
      campaignId: 7,
      externalUserId: null,
    });
  });
});

describe('signatureHeader', () => {
  it('is sha256=<hex HMAC> of the raw body, one per secret, current first', () => {
    const body = '{"id":"x"}';
    const a = createHmac('sha256', 'secret-a').update(body).digest('hex');
    const b = createHmac('sha256', 'secret-b').update(body).digest('hex');
    expect(signatureHeader(['secret-a'], body)).toBe(`sha256=${a}`);
    expect(signatureHeader(['secret-a', 'secret-b'], body)).toBe(`sha256=${a},sha256=${b}`);
  });

  it('serialises the body keys in the documented order', () => {
    const text = serializeWebhookEvent({
      data: {},
      organizationId: 1,
      occurredAt: 't',
      category: 'click',
      type: 'click.url',
      id: 'i',
    } as never);
    expect(Object.keys(JSON.parse(text))).toEqual(['id', 'type', 'category', 'occurredAt', 'organizationId', 'data']);
  });
});
