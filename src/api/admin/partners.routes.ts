// Operator route registering an SSO partner: a client id and a shared secret shown this once.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isOrigin, type PartnersService } from '../../core/organizations/partners.service.js';
import { errorBodySchema } from '../schemas/common.js';

/** An origin, kept without a trailing slash. */
const originSchema = z
  .string()
  .trim()
  .refine(isOrigin, 'must be an origin such as https://partner.example.com')
  .transform((value) => value.replace(/\/$/, ''));

/** Allowed origins, comma-separated as partners register them; an array is accepted too. */
const originsSchema = z.union([
  z.array(originSchema).max(50),
  z.string().transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean)).pipe(z.array(originSchema).max(50)),
]);

export const adminPartnerRoutes: FastifyPluginAsyncZod<{ partners: PartnersService }> = async (app, { partners }) => {
  app.post('/partners', {
    schema: {
      tags: ['operator'], security: [{ adminToken: [] }], summary: 'Register a single sign-on partner',
      body: z.object({
        serviceName: z.string().trim().min(1).max(100),
        allowedOrigins: originsSchema,
        loginUrl: z.string().url().max(2000).refine((u) => u.startsWith('https://'), 'must start with https://'),
        contactEmail: z.string().trim().email().max(254),
      }),
      response: {
        201: z.object({ clientId: z.string(), sharedSecret: z.string().describe('shown this once') }),
        400: errorBodySchema,
        401: errorBodySchema,
      },
    },
  }, async (request, reply) => reply.code(201).send(await partners.register(request.body)));
};
