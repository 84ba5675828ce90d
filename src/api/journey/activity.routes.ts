// Events, platform transitions and funnel stages of a session (the rules:
// src/core/journey/activity.ts). Writes answer 201 at once with the stored record's id (the
// record travels the bus into ClickHouse like a click); reads of a session's events and
// transitions see them within seconds.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { JourneyActivityService } from '../../core/journey/activity.js';
import { fromRequestPart } from '../schemas/field-errors.js';
import { pageQuery, pagedResponse, toPaged } from '../schemas/paging.js';
import { singleLine } from '../schemas/text.js';
import { callerOf } from '../request-caller.js';
import {
  clientEventIdSchema,
  clientRecordFields,
  clientTimeSchema,
  journeyErrorResponses,
  optionalLinkId,
  optionalText,
  platformSchema,
  sessionIdSchema,
  sessionParams,
  stageSchema,
} from './schemas.js';

const tags = ['user journey: events'];
const SESSION_ID_EXAMPLE = '0193a1f2-7c4e-7b21-9a55-1f6d2c3b4a59';

const eventRecordSchema = z
  .object({
    eventId: z.string(),
    sessionId: z.string(),
    eventType: z.string(),
    properties: z.record(z.string(), z.unknown()),
    platform: z.string().nullable(),
    externalUserId: z.string().nullable(),
    occurredAt: z.string(),
  })
  .meta({
    id: 'JourneyEvent',
    examples: [
      {
        eventId: '0193a1f3-0a11-7c3e-8d2f-5b6a7c8d9e01',
        sessionId: SESSION_ID_EXAMPLE,
        eventType: 'purchase',
        properties: { orderId: 'A-1001', amount: 39000, currency: 'KRW' },
        platform: 'WEB',
        externalUserId: 'member-1024',
        occurredAt: '2026-11-22T09:35:10.120Z',
      },
    ],
  });

const transitionRecordSchema = z
  .object({
    transitionId: z.string(),
    sessionId: z.string(),
    fromPlatform: z.string(),
    toPlatform: z.string(),
    targetSessionId: z.string().nullable().describe('the session on the destination platform, when known'),
    urlId: z.number().int().nullable(),
    campaignId: z.number().int().nullable(),
    deepLinkToken: z.string().nullable(),
    externalUserId: z.string().nullable(),
    properties: z.record(z.string(), z.unknown()),
    occurredAt: z.string(),
  })
  .meta({
    id: 'JourneyTransition',
    examples: [
      {
        transitionId: '0193a1f4-1b22-7d4f-9e30-6c7b8d9e0f12',
        sessionId: SESSION_ID_EXAMPLE,
        fromPlatform: 'WEB',
        toPlatform: 'IOS',
        targetSessionId: null,
        urlId: null,
        campaignId: 7,
        deepLinkToken: 'dlt_9fK2mQ',
        externalUserId: 'member-1024',
        properties: {},
        occurredAt: '2026-11-22T09:36:00.000Z',
      },
    ],
  });

const acceptedSchema = z
  .object({
    accepted: z.literal(true),
    eventId: z.string().describe("the stored event's id (the client one when sent); repeats of it are recorded once"),
    sessionId: z.string(),
    eventType: z.string(),
    occurredAt: z.string(),
  })
  .meta({ id: 'JourneyEventAccepted' });

const funnelAnswerSchema = z
  .object({
    recorded: z.boolean().describe('false when this transactionId was recorded before: nothing new was stored'),
    duplicate: z.boolean().describe('true for a repeated transactionId'),
    eventId: z.string().describe('id of the stored funnel row (for a duplicate, the first one)'),
    sessionId: z.string().describe('session of the stored row (for a duplicate, the first one)'),
    stage: stageSchema,
    goalType: z.string().nullable(),
    goalValue: z.number().nullable(),
    currency: z.string().nullable(),
    transactionId: z.string().nullable(),
    urlId: z.number().int().nullable().describe("the link credited: the one sent, else the session's registered link"),
    campaignId: z.number().int().nullable(),
    occurredAt: z.string().describe('for a duplicate, when the first one was recorded'),
  })
  .meta({ id: 'JourneyFunnelAnswer' });

export const journeyActivityRoutes: FastifyPluginAsyncZod<{ activity: JourneyActivityService }> = async (
  app,
  { activity },
) => {
  app.post(
    '/session/event',
    {
      config: { journeyAccess: 'session' },
      schema: {
        tags,
        summary: 'Record a session event',
        description:
          'Any named event (page_view, click, purchase, ...) with a properties object, for the event log (trackEvent of the web SDK). ' +
          "Answers 201 with the stored event's eventId at once; GET session/{sessionId}/events shows it within seconds. An eventId sent again is recorded once.",
        body: z
          .object({
            sessionId: sessionIdSchema,
            eventType: singleLine(
              z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
            ).describe('any event name: page_view, click, purchase, add_to_cart, ...'),
            ...clientRecordFields,
          })
          .meta({
            example: {
              sessionId: SESSION_ID_EXAMPLE,
              eventType: 'page_view',
              properties: { path: '/items/42', title: 'Winter coat' },
            },
          }),
        response: { 201: acceptedSchema, ...journeyErrorResponses },
      },
    },
    async (request, reply) => {
      const accepted = await fromRequestPart('body', activity.recordEvent(callerOf(request), request.body));
      return reply
        .code(201)
        .send({ accepted: true as const, ...accepted, occurredAt: accepted.occurredAt.toISOString() });
    },
  );

  app.post(
    '/session/transition',
    {
      config: { journeyAccess: 'session' },
      schema: {
        tags,
        summary: 'Record a platform transition',
        description:
          'The visitor moved from one platform to another (web to app, app to web), usually through a deep link. The link credited is the ' +
          "urlId or campaignId sent, else the session's registered link. targetSessionId, when sent, must be a session of the organization. " +
          'Answers 201 with the stored transition (its transitionId); GET session/{sessionId}/transitions shows it within seconds. Records session_transition (session.transition webhook).',
        body: z
          .object({
            sessionId: sessionIdSchema.describe('the session on the platform the visitor leaves'),
            fromPlatform: platformSchema,
            toPlatform: platformSchema,
            targetSessionId: sessionIdSchema
              .nullish()
              .transform((v) => v ?? null)
              .describe('the session on the destination platform, when it exists already'),
            deepLinkToken: optionalText(200).describe('the deep-link token that carried the visitor'),
            urlId: optionalLinkId,
            campaignId: optionalLinkId,
            ...clientRecordFields,
          })
          .meta({
            example: {
              sessionId: SESSION_ID_EXAMPLE,
              fromPlatform: 'WEB',
              toPlatform: 'IOS',
              campaignId: 7,
              deepLinkToken: 'dlt_9fK2mQ',
            },
          }),
        response: { 201: transitionRecordSchema, ...journeyErrorResponses },
      },
    },
    async (request, reply) => {
      const transition = await fromRequestPart('body', activity.recordTransition(callerOf(request), request.body));
      return reply.code(201).send({ ...transition, occurredAt: transition.occurredAt.toISOString() });
    },
  );

  app.post(
    '/session/funnel/track',
    {
      config: { journeyAccess: 'session' },
      schema: {
        tags,
        summary: 'Track a web funnel stage',
        description:
          'Stages may come in any order, be skipped or repeat: every call is a row, and statistics count a session once per stage, ' +
          'a later stage implying the earlier ones. GOAL_COMPLETED carries the conversion goal (trackPurchase, trackGoal, trackSignup, ' +
          'trackConversion of the web SDK): goalType, goalValue, currency. A transactionId is recorded once per organization: a repeat ' +
          'answers 200 with duplicate true and stores nothing; a new row answers 201 with its eventId. Records journey_funnel (funnel.stage and ' +
          'goal.completed webhooks).',
        body: z
          .object({
            sessionId: sessionIdSchema,
            stage: stageSchema,
            goalType: optionalText(50).describe(
              'purchase, signup, addToCart, ..., purchase_<CURRENCY> from trackPurchase, or your own',
            ),
            goalValue: z
              .number()
              .finite('must be a number')
              .min(-1e12)
              .max(1e12)
              .nullish()
              .transform((v) => v ?? null),
            currency: z
              .string()
              .trim()
              .regex(/^[A-Za-z]{3}$/, 'must be a three-letter ISO 4217 code such as KRW')
              .nullish()
              .transform((v) => (v ? v.toUpperCase() : null)),
            transactionId: optionalText(200).describe('your order or transaction id: a repeat is recorded once'),
            urlId: optionalLinkId,
            campaignId: optionalLinkId,
            timestamp: clientTimeSchema,
            eventId: clientEventIdSchema,
          })
          .meta({
            example: {
              sessionId: SESSION_ID_EXAMPLE,
              stage: 'GOAL_COMPLETED',
              goalType: 'purchase_KRW',
              goalValue: 39000,
              currency: 'KRW',
              transactionId: 'order-1001',
            },
          }),
        response: { 200: funnelAnswerSchema, 201: funnelAnswerSchema, ...journeyErrorResponses },
      },
    },
    async (request, reply) => {
      const { timestamp, ...stage } = request.body;
      const answer = await fromRequestPart(
        'body',
        activity.trackFunnel(callerOf(request), { ...stage, occurredAt: timestamp }),
      );
      // A repeated transactionId stores nothing: 200 naming the first one rather than 201 (created).
      return reply.code(answer.recorded ? 201 : 200).send({ ...answer, occurredAt: answer.occurredAt.toISOString() });
    },
  );
};

/**
 * The reads of a session's activity (its events and transitions), apart from the writes, so the
 * console can serve them to members without serving the writes.
 */
export const journeyActivityReadRoutes: FastifyPluginAsyncZod<{ activity: JourneyActivityService }> = async (
  app,
  { activity },
) => {
  app.get(
    '/session/:sessionId/events',
    {
      config: { journeyAccess: 'session' },
      schema: {
        tags,
        summary: 'List the events of a session',
        description: 'Newest first, paged (page from 0, size 1 to 100, default 20); optionally one eventType only.',
        params: sessionParams,
        querystring: z.object({ ...pageQuery, eventType: z.string().max(100).optional() }),
        response: { 200: pagedResponse(eventRecordSchema, 'JourneyEventPage'), ...journeyErrorResponses },
      },
    },
    async (request) => {
      const { page, size, eventType } = request.query;
      const { sessionId, items, total } = await activity.events(
        callerOf(request),
        request.params.sessionId,
        { eventType },
        { page, size },
      );
      return toPaged(
        items.map((e) => ({ ...e, sessionId, occurredAt: e.occurredAt.toISOString() })),
        total,
        { page, size },
      );
    },
  );

  app.get(
    '/session/:sessionId/transitions',
    {
      config: { journeyAccess: 'session' },
      schema: {
        tags,
        summary: 'List the transitions of a session',
        description: 'Newest first, paged like the events.',
        params: sessionParams,
        querystring: z.object(pageQuery),
        response: { 200: pagedResponse(transitionRecordSchema, 'JourneyTransitionPage'), ...journeyErrorResponses },
      },
    },
    async (request) => {
      const { sessionId, items, total } = await activity.transitions(
        callerOf(request),
        request.params.sessionId,
        request.query,
      );
      return toPaged(
        items.map((t) => ({
          transitionId: t.transitionId,
          sessionId,
          fromPlatform: t.fromPlatform,
          toPlatform: t.toPlatform,
          targetSessionId: t.targetSessionId,
          urlId: t.link?.type === 'url' ? t.link.id : null,
          campaignId: t.link?.type === 'campaign' ? t.link.id : null,
          deepLinkToken: t.deepLinkToken,
          externalUserId: t.externalUserId,
          properties: t.properties,
          occurredAt: t.occurredAt.toISOString(),
        })),
        total,
        request.query,
      );
    },
  );
};
