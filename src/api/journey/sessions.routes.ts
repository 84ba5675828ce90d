// Sessions of the user-journey API: create, read, link a user, register the link the session came
// from (the rules: src/core/journey/sessions.ts).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { JourneySessionsService } from '../../core/journey/sessions.service.js';
import { fromRequestPart } from '../schemas/field-errors.js';
import { callerOf } from '../request-caller.js';
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

const tags = ['user journey: sessions'];

export const journeySessionRoutes: FastifyPluginAsyncZod<{ sessions: JourneySessionsService }> = async (
  app,
  { sessions },
) => {
  app.post(
    '/session/create',
    {
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
            example: {
              platform: 'WEB',
              utmSource: 'kakao',
              utmMedium: 'social',
              utmCampaign: 'winter-sale',
              landingUrl: 'https://shop.example.com/items/42',
            },
          }),
        response: { 201: sessionSchema, ...journeyErrorResponses },
      },
    },
    async (request, reply) => {
      const session = await fromRequestPart('body', sessions.create(callerOf(request), request.body));
      return reply.code(201).send(toSessionJson(session));
    },
  );

  app.get(
    '/session/:sessionId',
    {
      config: { journeyAccess: 'session' },
      schema: {
        tags,
        summary: 'Read a session',
        description:
          "A session of the caller's organization; any other id (another organization's included) is 404 SESSION_NOT_FOUND.",
        params: sessionParams,
        response: { 200: sessionSchema, ...journeyErrorResponses },
      },
    },
    async (request) => {
      return toSessionJson(await sessions.get(callerOf(request), request.params.sessionId));
    },
  );

  app.post(
    '/session/:sessionId/link-user',
    {
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
    },
    async (request) => {
      return toSessionJson(
        await sessions.linkUser(callerOf(request), request.params.sessionId, request.body.externalUserId),
      );
    },
  );

  app.post(
    '/session/register-fplink',
    {
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
    },
    async (request) => {
      const { sessionId, ...naming } = request.body;
      return toSessionJson(await fromRequestPart('body', sessions.registerLink(callerOf(request), sessionId, naming)));
    },
  );
};
