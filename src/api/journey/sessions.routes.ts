// Sessions of the user-journey API: create, read, link a user, register the link the session came
// from. Sessions live in PostgreSQL; creating one also records `session_started` for statistics
// and the session.started webhook.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { invalid, notFound } from '../../shared/errors.js';
import { uuidv7 } from '../../shared/ids.js';
import type { SessionStartedData } from '../../ingest/journey-events.js';
import type { AppDeps } from '../deps.js';
import { callerOf } from './caller.js';
import {
  externalUserIdSchema,
  journeyErrorResponses,
  optionalLinkId,
  optionalText,
  platformSchema,
  sessionIdSchema,
  sessionParams,
  sessionSchema,
  toSessionJson,
} from './schemas.js';
import { findLinkOrThrow, referrerHost, sessionOrThrow } from './session-lookup.js';

const tags = ['user journey: sessions'];

export const journeySessionRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  app.post('/session/create', {
    config: { journeyAccess: 'session' },
    schema: {
      tags,
      summary: 'Create a session',
      description:
        'Starts a session on one platform. Browsers send X-App-ID only; apps add X-Mobile-App-API-Key. Needs the user-journey add-on. ' +
        'Records session_started (statistics, session.started webhook).',
      body: z
        .object({
          platform: platformSchema,
          deepLinkToken: optionalText(200).describe('the deep-link token that opened the page or app'),
          utmSource: optionalText(100),
          utmMedium: optionalText(100),
          utmCampaign: optionalText(100),
          referrer: optionalText(2000),
          landingUrl: optionalText(2000),
          externalUserId: externalUserIdSchema.nullish().transform((v) => v ?? null),
          urlId: optionalLinkId.describe('attach this short URL at once (as register-fplink does)'),
          campaignId: optionalLinkId.describe('attach this campaign at once'),
        })
        .meta({
          example: { platform: 'WEB', utmSource: 'kakao', utmMedium: 'social', utmCampaign: 'winter-sale', landingUrl: 'https://shop.example.com/items/42' },
        }),
      response: { 201: sessionSchema, ...journeyErrorResponses },
    },
  }, async (request, reply) => {
    const caller = callerOf(request);
    const organizationId = caller.organization.id;
    const b = request.body;
    if (b.urlId !== null && b.campaignId !== null) throw invalid('VALIDATION_FAILED', 'body.campaignId: send urlId or campaignId, not both');
    const link =
      b.urlId !== null
        ? await findLinkOrThrow(deps, organizationId, { urlId: b.urlId })
        : b.campaignId !== null
          ? await findLinkOrThrow(deps, organizationId, { campaignId: b.campaignId })
          : null;
    const startedAt = deps.clock();
    const session = await deps.journey.sessions.create({
      id: uuidv7(startedAt.getTime()),
      organizationId,
      appId: caller.app!.id,
      platform: b.platform,
      externalUserId: b.externalUserId,
      deepLinkToken: b.deepLinkToken,
      utmSource: b.utmSource,
      utmMedium: b.utmMedium,
      utmCampaign: b.utmCampaign,
      referrer: b.referrer,
      landingUrl: b.landingUrl,
      link,
      startedAt,
    });
    const data: SessionStartedData = {
      sessionId: session.id,
      appId: caller.app!.id,
      platform: session.platform,
      externalUserId: session.externalUserId,
      utmSource: session.utmSource,
      utmMedium: session.utmMedium,
      utmCampaign: session.utmCampaign,
      referrerHost: referrerHost(session.referrer),
      urlId: link?.type === 'url' ? link.id : null,
      campaignId: link?.type === 'campaign' ? link.id : null,
      startedAt: startedAt.toISOString(),
    };
    deps.events.record({ eventId: uuidv7(), type: 'session_started', occurredAt: startedAt.getTime(), organizationId, data: { ...data } });
    return reply.code(201).send(toSessionJson(session));
  });

  app.get('/session/:sessionId', {
    config: { journeyAccess: 'session' },
    schema: {
      tags,
      summary: 'Read a session',
      description: "A session of the caller's organization; any other id (another organization's included) is 404 SESSION_NOT_FOUND.",
      params: sessionParams,
      response: { 200: sessionSchema, ...journeyErrorResponses },
    },
  }, async (request) => {
    const session = await sessionOrThrow(deps, callerOf(request).organization.id, request.params.sessionId);
    return toSessionJson(session);
  });

  app.post('/session/:sessionId/link-user', {
    config: { journeyAccess: 'session' },
    schema: {
      tags,
      summary: 'Link a user to a session',
      description:
        'Attaches the member id once the visitor logs in or signs up; events, transitions and funnel stages recorded afterwards carry it. ' +
        'Linking another id replaces it (a shared device changing hands). Repeating the same id changes nothing.',
      params: sessionParams,
      body: z.object({ externalUserId: externalUserIdSchema }).meta({ example: { externalUserId: 'member-1024' } }),
      response: { 200: sessionSchema, ...journeyErrorResponses },
    },
  }, async (request) => {
    const organizationId = callerOf(request).organization.id;
    const session = await deps.journey.sessions.linkUser(organizationId, request.params.sessionId, request.body.externalUserId);
    if (!session) throw notFound('SESSION_NOT_FOUND', `session ${request.params.sessionId} does not exist`);
    return toSessionJson(session);
  });

  app.post('/session/register-fplink', {
    config: { journeyAccess: 'session' },
    schema: {
      tags,
      summary: 'Register the link a session came from',
      description:
        'Attaches a short URL or campaign of the organization to the session, so funnel stages, goals and transitions without their own ' +
        'urlId/campaignId are attributed to it. Name the link by exactly one of urlId, campaignId, shortCode, campaignAlias or link ' +
        '(a full short link address, whose last path segment is the code). A code names a short URL first, then a campaign alias. ' +
        'Registering again replaces the link (last touch).',
      body: z
        .object({
          sessionId: sessionIdSchema,
          urlId: optionalLinkId,
          campaignId: optionalLinkId,
          shortCode: optionalText(100),
          campaignAlias: optionalText(100),
          link: optionalText(1000).describe('a short link address such as https://sgnp.example/winter'),
        })
        .meta({ example: { sessionId: '0193a1f2-7c4e-7b21-9a55-1f6d2c3b4a59', shortCode: 'aB3dE9x' } }),
      response: { 200: sessionSchema, ...journeyErrorResponses },
    },
  }, async (request) => {
    const organizationId = callerOf(request).organization.id;
    const b = request.body;
    const given = [b.urlId, b.campaignId, b.shortCode, b.campaignAlias, b.link].filter((v) => v !== null);
    if (given.length !== 1) {
      throw invalid('VALIDATION_FAILED', 'body: name the link by exactly one of urlId, campaignId, shortCode, campaignAlias or link');
    }
    await sessionOrThrow(deps, organizationId, b.sessionId);
    let link;
    if (b.urlId !== null) link = await findLinkOrThrow(deps, organizationId, { urlId: b.urlId });
    else if (b.campaignId !== null) link = await findLinkOrThrow(deps, organizationId, { campaignId: b.campaignId });
    else if (b.campaignAlias !== null) link = await findLinkOrThrow(deps, organizationId, { alias: b.campaignAlias });
    else link = await findLinkOrThrow(deps, organizationId, { code: b.shortCode ?? codeOf(b.link!) });
    const session = await deps.journey.sessions.registerLink(organizationId, b.sessionId, link);
    if (!session) throw notFound('SESSION_NOT_FOUND', `session ${b.sessionId} does not exist`);
    return toSessionJson(session);
  });
};

/** The code of a short link address: its last path segment (`https://host/app/code?x` → `code`). */
function codeOf(link: string): string {
  let path = link;
  try {
    path = new URL(link).pathname;
  } catch {
    // Not an absolute URL: a path or a bare code.
  }
  const code = path.split('?')[0]!.split('/').filter(Boolean).pop();
  const refuse = () => invalid('VALIDATION_FAILED', 'body.link: must be a short link address such as https://sgnp.example/aB3dE9x');
  if (!code) throw refuse();
  try {
    return decodeURIComponent(code);
  } catch {
    throw refuse();
  }
}
