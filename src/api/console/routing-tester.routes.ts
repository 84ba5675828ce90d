// The routing tester of the console's link editor: where a visitor the person describes would go
// under the rules and variants in the editor, saved or not. One call to the core, which runs the
// redirect's own routing; the rules are validated as a link's body validates them, so a refusal
// names the same field (routingRules.0.url) as saving would.
import { isIP } from 'node:net';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AccountServices } from '../../core/accounts/index.js';
import { BROWSERS, DEVICE_TYPES, isCountryCode, isRegionCode, OPERATING_SYSTEMS } from '../../core/routing/index.js';
import type { RoutingTester } from '../../core/routing/routing-tester.js';
import type { Config } from '../../shared/config.js';
import { idSchema } from '../schemas/common.js';
import { linkTargetSchema } from '../schemas/link.js';
import { routingBodyFields } from '../schemas/routing.js';
import { actingMember } from './acting-member.js';
import { errors, orgParams, security, tags } from './route-docs.js';

/** A code `valid` accepts in either case, upper-cased (as rules compare it). */
const code = (valid: (v: string) => boolean, message: string) =>
  z
    .string()
    .refine(valid, { message })
    .transform((v) => v.toUpperCase())
    .optional();

const visitorSchema = z.object({
  country: code(isCountryCode, 'must be an ISO 3166-1 alpha-2 country code such as KR').describe(
    'ISO 3166-1 alpha-2; without it, the country of address',
  ),
  region: code(isRegionCode, 'must be an ISO 3166-2 subdivision code such as KR-11').describe(
    'ISO 3166-2; without it, the region of address (with a GEOIP_DB that has regions)',
  ),
  city: z.string().trim().max(100).optional().describe('English city name; without it, the city of address'),
  deviceType: z.enum(DEVICE_TYPES).optional().describe('without it, what userAgent says'),
  os: z.enum(OPERATING_SYSTEMS).optional().describe('without it, what userAgent says'),
  browser: z.enum(BROWSERS).optional().describe('browser family; without it, what userAgent says'),
  referrer: z.string().trim().max(2000).optional().describe('the Referer: a URL or a bare host such as t.co'),
  language: z.string().max(200).optional().describe('an Accept-Language value or a primary subtag such as ja'),
  at: z.iso
    .datetime({ offset: true })
    .transform((v) => new Date(v))
    .optional()
    .describe('ISO-8601 instant of the click; now without it'),
  query: z
    .record(z.string().min(1).max(100), z.string().max(500))
    .optional()
    .describe('the parameters the click carries'),
  address: z
    .string()
    .trim()
    .max(64)
    .refine((v) => isIP(v) !== 0, 'must be an IPv4 or IPv6 address')
    .optional()
    .describe('client address: the country when none is given, and with userAgent the variant a visitor keeps'),
  userAgent: z.string().max(1000).optional(),
});

export const consoleRoutingTesterRoutes: FastifyPluginAsyncZod<{
  accounts: AccountServices;
  routingTester: RoutingTester;
  config: Pick<Config, 'security'>;
}> = async (app, { accounts, routingTester, config }) => {
  const acting = actingMember(accounts);
  const url = linkTargetSchema(config.security);
  const { routingRules, variants } = routingBodyFields(url);

  app.post(
    '/organizations/:orgId/routing/test',
    {
      schema: {
        tags,
        security,
        summary:
          'Where a described visitor goes under the given routing rules and variants (links.read), decided by the redirect’s own routing',
        params: orgParams,
        body: z.object({
          linkId: idSchema
            .optional()
            .describe('the link being edited: its id keeps the variant choice as on the redirect'),
          originalUrl: url,
          routingRules,
          variants,
          visitor: visitorSchema,
        }),
        response: {
          200: z.object({
            url: z.string().describe('the destination as configured, without the UTM parameters'),
            route: z.string().describe('original, rule:N or variant:N (0-based positions)'),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const { caller } = await acting(request, request.params.orgId);
      const { linkId, originalUrl, visitor } = request.body;
      return routingTester.test(caller, {
        ...(linkId === undefined ? {} : { linkId }),
        originalUrl,
        routingRules: request.body.routingRules ?? [],
        variants: request.body.variants ?? [],
        visitor,
      });
    },
  );
};
