// The event registry: the durable consumer names and tables it derives (a renamed consumer would
// start again from the stream's start), which types reach webhooks, that the publisher refuses a
// payload of the wrong shape, and that every click source builds the same click.
import { describe, expect, it } from 'vitest';
import { clickEvent } from '../../src/core/clicks/click-event.js';
import { createClickEnricher } from '../../src/ingest/enrich.js';
import type { EventEnvelope } from '../../src/ingest/envelope.js';
import {
  createEventTableRoutes,
  olapConsumers,
  specOf,
  WEBHOOK_SOURCE_TYPES,
} from '../../src/ingest/event-registry.js';
import type { EventPublisher } from '../../src/ingest/publisher.js';
import { randomBytes } from 'node:crypto';
import { createVisitorHasher } from '../../src/ingest/visitors.js';

const enrich = createClickEnricher({ country: () => '' });

describe('event registry', () => {
  it('keeps the durable OLAP consumers and their subjects', () => {
    expect(olapConsumers()).toEqual([
      { durable: 'olap-clicks', subject: 'events.click' },
      { durable: 'olap-events', subject: 'events.api_request' },
      { durable: 'olap-funnel-stage', subject: 'events.funnel_stage' },
      { durable: 'olap-deeplink-resolution', subject: 'events.deeplink_resolution' },
      { durable: 'olap-app-install', subject: 'events.app_install' },
      { durable: 'olap-session-started', subject: 'events.session_started' },
      { durable: 'olap-session-event', subject: 'events.session_event' },
      { durable: 'olap-session-transition', subject: 'events.session_transition' },
      { durable: 'olap-journey-funnel', subject: 'events.journey_funnel' },
    ]);
  });

  it('routes each type with a table to it, and types without one nowhere', () => {
    const routes = createEventTableRoutes({ enrich, visitor });
    expect(Object.fromEntries(Object.entries(routes).map(([type, r]) => [type, r.table]))).toEqual({
      click: 'clicks',
      api_request: 'api_requests',
      funnel_stage: 'deeplink_funnel',
      deeplink_resolution: 'deeplink_resolutions',
      app_install: 'app_installs',
      session_started: 'journey_session_starts',
      session_event: 'journey_events',
      session_transition: 'journey_transitions',
      journey_funnel: 'journey_funnel',
    });
    expect(routes.campaign_change).toBeUndefined();
    expect(specOf('no_such_type')).toBeUndefined();
    expect(specOf('toString')).toBeUndefined();
  });

  it('sends the types that make webhooks, and only those', () => {
    expect([...WEBHOOK_SOURCE_TYPES].sort()).toEqual([
      'campaign_change',
      'click',
      'funnel_stage',
      'journey_funnel',
      'session_started',
      'session_transition',
    ]);
  });

  it('refuses a payload of the wrong shape at compile time', () => {
    const recorded: unknown[] = [];
    const events = { record: (e: unknown) => recorded.push(e) } as unknown as EventPublisher;
    const base = { eventId: '01939a4e-5c1d-7e0a-9b7e-3f1c2a4d5e6f', occurredAt: 0, organizationId: 1 };
    events.record({
      ...base,
      type: 'campaign_change',
      data: { action: 'created', campaign: { id: 1, name: 'n', alias: 'a' } },
    });
    events.record({
      ...base,
      type: 'campaign_change',
      // @ts-expect-error: a campaign change has no such action
      data: { action: 'renamed', campaign: { id: 1, name: 'n', alias: 'a' } },
    });
    // @ts-expect-error: no such event type
    events.record({ ...base, type: 'no_such_type', data: {} });
    expect(recorded).toHaveLength(3);
  });
});

const visitor = createVisitorHasher(randomBytes(32));

describe('clickEvent', () => {
  const link = { kind: 'campaign' as const, id: 7, organizationId: 3 };
  const request = {
    host: 'sgnp.example',
    ip: '203.0.113.5',
    userAgent: 'UA',
    referrer: undefined,
    acceptLanguage: 'ko-KR',
  };

  it('carries a mobile click’s source and click id into its row', () => {
    const event = clickEvent({
      link,
      ...request,
      cid: 'c1',
      tracker: 't1',
      bot: false,
      source: 'mobile_sdk',
      clickId: 12,
    });
    expect(event.data).toMatchObject({
      linkType: 'campaign',
      linkId: 7,
      cid: 'c1',
      tracker: 't1',
      referrer: '',
      utmSource: '',
      source: 'mobile_sdk',
      clickId: 12,
    });
    const row = createEventTableRoutes({ enrich, visitor }).click!.toRow(event as unknown as EventEnvelope);
    expect(row).toMatchObject({
      link_type: 'campaign',
      link_id: 7,
      cid: 'c1',
      tracker: 't1',
      source: 'mobile_sdk',
      click_id: 12,
      organization_id: 3,
    });
    // The visitor is a hash, never the address.
    expect(row.visitor_hash).toBe(visitor('203.0.113.5', 'UA', event.occurredAt));
    expect(JSON.stringify(row.visitor_hash)).not.toContain('203.0.113.5');
  });

  it('leaves campaign parameters out of a short URL click, and reads a redirect click without a source as one', () => {
    const event = clickEvent({
      link: { ...link, kind: 'url' },
      ...request,
      cid: 'c1',
      tracker: 't1',
      bot: true,
      source: 'redirect',
    });
    expect(event.data).toMatchObject({ linkType: 'url', cid: '', tracker: '', bot: true, source: 'redirect' });
    expect(JSON.parse(JSON.stringify(event.data))).not.toHaveProperty('clickId');
    const { source: _, ...older } = event.data;
    const row = createEventTableRoutes({ enrich, visitor }).click!.toRow({
      ...event,
      data: older,
    } as unknown as EventEnvelope);
    expect(row).toMatchObject({ source: 'redirect', click_id: 0, is_bot: 1 });
  });
});
