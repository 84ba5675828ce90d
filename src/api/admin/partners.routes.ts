// Operator routes for single sign-on partners: register (the client id and a shared secret shown
// this once), list, read, change, delete, and issue a new secret.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isOrigin, type PartnerView, type PartnersService } from '../../core/organizations/partners.service.js';
import { PARTNER_ROLES } from '../../shared/roles.js';
import { pageQuery } from '../schemas/paging.js';
import { operatorAnswer, operatorErrors as errors, operatorDelete, operatorPage } from './operator-doc.js';

/** An origin, kept without a trailing slash. */
const originSchema = z
  .string()
  .trim()
  .refine(isOrigin, 'must be an origin such as https://partner.example.com')
  .transform((value) => value.replace(/\/$/, ''));

/** Allowed origins, comma-separated as partners register them; an array is accepted too. */
const originsSchema = z.union([
  z.array(originSchema).max(50),
  z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(z.array(originSchema).max(50)),
]);

const partnerBody = z.object({
  serviceName: z.string().trim().min(1).max(100),
  allowedOrigins: originsSchema,
  loginUrl: z
    .string()
    .url()
    .max(2000)
    .refine((u) => u.startsWith('https://'), 'must start with https://'),
  contactEmail: z.string().trim().email().max(254),
  organizationId: z
    .number()
    .int()
    .positive()
    .nullable()
    .optional()
    .describe(
      "the organization the partner's users join; without one each new user gets an organization of their own (FREE plan, owner)",
    ),
  defaultRole: z
    .enum(PARTNER_ROLES)
    .optional()
    .describe('role of the users the partner brings into its organization (default developer)'),
});

const partnerSchema = z
  .object({
    clientId: z.string(),
    serviceName: z.string(),
    allowedOrigins: z.array(z.string()),
    loginUrl: z.string(),
    contactEmail: z.string(),
    organizationId: z.number().int().nullable(),
    defaultRole: z.enum(PARTNER_ROLES),
    createdAt: z.string(),
    updatedAt: z.string(),
    secretRotatedAt: z.string().nullable(),
  })
  .meta({ id: 'Partner' });

const credentialsSchema = z.object({ clientId: z.string(), sharedSecret: z.string().describe('shown this once') });
const params = z.object({ clientId: z.string().min(1).max(100) });
const OPERATOR = { type: 'operator' } as const;

const toJson = (p: PartnerView) => ({
  ...p,
  createdAt: p.createdAt.toISOString(),
  updatedAt: p.updatedAt.toISOString(),
  secretRotatedAt: p.secretRotatedAt?.toISOString() ?? null,
});

export const adminPartnerRoutes: FastifyPluginAsyncZod<{ partners: PartnersService }> = async (app, { partners }) => {
  operatorAnswer(
    app,
    'POST',
    '/partners',
    {
      summary: 'Register a single sign-on partner',
      body: partnerBody,
      status: 201,
      response: credentialsSchema,
      errors,
    },
    (_params, body, ip) => partners.register(body, { ...OPERATOR, ip }),
  );

  operatorPage(
    app,
    '/partners',
    {
      summary: 'List single sign-on partners, oldest first (never their secrets)',
      querystring: z.object(pageQuery),
      item: partnerSchema,
      pageId: 'PartnerPage',
      errors,
    },
    partners.list,
    toJson,
  );

  operatorAnswer(
    app,
    'GET',
    '/partners/:clientId',
    { summary: 'Read a single sign-on partner', params, response: partnerSchema, errors },
    async ({ clientId }) => toJson(await partners.get(clientId)),
  );

  operatorAnswer(
    app,
    'PUT',
    '/partners/:clientId',
    {
      summary: "Replace a partner's settings (not its secret)",
      params,
      body: partnerBody,
      response: partnerSchema,
      errors,
    },
    async ({ clientId }, body, ip) => toJson(await partners.update(clientId, body, { ...OPERATOR, ip })),
  );

  operatorDelete(
    app,
    '/partners/:clientId',
    { summary: 'Delete a partner; its users keep their accounts', params, errors },
    ({ clientId }, ip) => partners.delete(clientId, { ...OPERATOR, ip }),
  );

  operatorAnswer(
    app,
    'POST',
    '/partners/:clientId/secret',
    {
      summary: 'Issue a new shared secret (shown this once); users already linked keep working',
      params,
      status: 201,
      response: credentialsSchema,
      errors,
    },
    ({ clientId }, _body, ip) => partners.rotateSecret(clientId, { ...OPERATOR, ip }),
  );
};
