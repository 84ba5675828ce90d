// Service API: user identities of identify, decrypted (the only place phone and email leave the
// server in plaintext, behind X-API-KEY), and their consent history (src/core/journey/users.ts).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { JourneyUser, JourneyUsersService } from '../../core/journey/users.js';
import { identityFields, toChangeJson } from '../journey/identity.routes.js';
import { commonErrorResponses } from '../schemas/common.js';
import { callerOf } from '../request-caller.js';
import { fromRequestPart } from '../schemas/field-errors.js';
import { pageQuery, pagedResponse, toPaged } from '../schemas/paging.js';
import { security } from './route-docs.js';

const consentChangeSchema = z.object({
  flag: z.string(),
  from: z.boolean().nullable(),
  to: z.boolean(),
  source: z.enum(['identify', 'opt-in']),
  channel: z.enum(['mobile', 'browser', 'service']),
  appId: z.number().int().nullable(),
  changedAt: z.string(),
});

const userSchema = z
  .object({
    ...identityFields,
    phone: z.string().nullable().describe('plaintext, E.164'),
    email: z.string().nullable().describe('plaintext'),
  })
  .meta({
    id: 'UserIdentity',
    examples: [
      {
        externalUserId: 'member-1024',
        name: '김민수',
        phone: '+821012345678',
        email: 'minsu@example.com',
        pushIdentify: 'fcm:dQw4w9WgXcQ',
        smsOptIn: true,
        emailOptIn: true,
        pushOptIn: null,
        smsAdOptIn: false,
        emailAdOptIn: true,
        pushAdOptIn: null,
        nightAdOptIn: false,
        createdAt: '2026-11-22T09:31:12.000Z',
        updatedAt: '2026-11-22T09:40:00.000Z',
      },
    ],
  });

const userParams = z.object({ externalUserId: z.string().min(1).max(200, 'must be at most 200 characters') });

function toJson(user: JourneyUser): z.infer<typeof userSchema> {
  return {
    externalUserId: user.externalUserId,
    name: user.name,
    phone: user.phone,
    email: user.email,
    pushIdentify: user.pushIdentify,
    ...user.consents,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}

export const userRoutes: FastifyPluginAsyncZod<{ users: JourneyUsersService }> = async (app, { users }) => {
  const tags = ['service: users'];

  app.get(
    '/users',
    {
      schema: {
        tags,
        security,
        summary: 'Find users by phone or email',
        description: 'Exactly one of phone or email; matched through a keyed hash, never by decrypting every record.',
        querystring: z.object({ phone: z.string().max(30).optional(), email: z.string().max(254).optional() }),
        response: {
          200: z.object({ content: z.array(userSchema) }).meta({ id: 'UserIdentityMatches' }),
          ...commonErrorResponses,
        },
      },
    },
    async (request) => {
      const found = await fromRequestPart('query', users.findByContact(callerOf(request), request.query));
      return { content: found.map(toJson) };
    },
  );

  app.get(
    '/users/:externalUserId',
    {
      schema: {
        tags,
        security,
        summary: 'Read a user identity, decrypted, with its latest consent changes',
        params: userParams,
        response: {
          200: userSchema
            .extend({ consentHistory: z.array(consentChangeSchema).describe('the latest 100 changes, newest first') })
            .meta({ id: 'UserIdentityWithHistory' }),
          ...commonErrorResponses,
        },
      },
    },
    async (request) => {
      const { user, history } = await users.getWithHistory(callerOf(request), request.params.externalUserId);
      return { ...toJson(user), consentHistory: history.map(toChangeJson) };
    },
  );

  app.get(
    '/users/:externalUserId/consent-history',
    {
      schema: {
        tags,
        security,
        summary: 'Consent history of a user (paged, newest first)',
        params: userParams,
        querystring: z.object(pageQuery),
        response: { 200: pagedResponse(consentChangeSchema, 'ConsentHistoryPage'), ...commonErrorResponses },
      },
    },
    async (request) => {
      const history = await users.consentHistory(callerOf(request), request.params.externalUserId, request.query);
      return toPaged(history.items.map(toChangeJson), history.total, request.query);
    },
  );
};
