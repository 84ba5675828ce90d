// Web SDK API data routes (/api/v1/sdk/web): what the landing page and the web SDK post about a
// deep-link token (fingerprint, store visit, Android intent debug data) and the token's link for
// trackGoal's goalType. No secret: a browser holds none. Each call counts against the keyless
// budget of the caller's address for the token's app (or the app id it names), never the app's
// own. navigator.sendBeacon can only send text/plain, so JSON is also read from text/plain bodies
// here. The version route lives with the bundle.
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { campaignRef, deepLinkPathOf, goalTypeOf, urlRef } from '../../core/deeplinks/targets.js';
import type { DeepLinkServices } from '../../core/deeplinks/index.js';
import { invalid } from '../../shared/errors.js';
import { allowBrowserCalls } from '../cors.js';
import { commonErrorResponses, errorBodySchema } from '../schemas/common.js';
import { singleLine } from '../schemas/text.js';
import { campaignRefSchema, urlRefSchema } from './link-ref-schemas.js';
import type { SdkCallers } from './mobile-sdk-auth.js';

const tags = ['web SDK'];
const tokenSchema = singleLine(z.string().trim().min(1).max(100)).describe(
  'the deep-link token (signpost:deeplink-token)',
);
const appIdSchema = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const statusSchema = z.object({ status: z.literal('success'), message: z.string() });
const errors = { 400: errorBodySchema, 404: errorBodySchema, 429: errorBodySchema };

const fingerprintBody = z.object({
  token: tokenSchema,
  resolution: z
    .string()
    .max(30)
    .regex(/^\s*\d{2,5}\s*[xX×]\s*\d{2,5}\s*$/, 'must be <width>x<height>')
    .optional()
    .describe('screen.width x screen.height (CSS pixels)'),
  appId: appIdSchema
    .optional()
    .describe('the app the SDK was initialised with: a token of another app is 404, as an unknown token'),
  userAgent: z
    .string()
    .max(1000)
    .optional()
    .describe(
      "navigator.userAgent: fills the OS version and device model (deferred matching's signals) that the click's user agent lacked, for the same OS",
    ),
  timeZone: z.string().max(64).optional().describe('Intl.DateTimeFormat().resolvedOptions().timeZone (extension)'),
  language: z.string().max(64).optional().describe('navigator.language (extension)'),
  pixelRatio: z.number().positive().max(10).optional().describe('window.devicePixelRatio (extension)'),
  deviceModel: z
    .string()
    .max(100)
    .optional()
    .describe(
      "navigator.userAgentData.getHighEntropyValues(['model']) on Chromium Android, whose user agent says `K` instead (extension); the Sec-CH-UA-Model header when absent",
    ),
  platformVersion: z
    .string()
    .max(30)
    .optional()
    .describe(
      "getHighEntropyValues(['platformVersion']): Android's full version, which the reduced user agent reports as 10 (extension); the Sec-CH-UA-Platform-Version header when absent",
    ),
});

/** The fingerprint as the service takes it: the page's client hints, else those its request carried. */
function fingerprintOf(body: z.infer<typeof fingerprintBody>, headers: IncomingHttpHeaders) {
  const { deviceModel, platformVersion, ...report } = body;
  const hints = {
    model: deviceModel ?? headers['sec-ch-ua-model'],
    platformVersion: platformVersion ?? headers['sec-ch-ua-platform-version'],
  };
  return { ...report, hints };
}

/** JSON from a text/plain body (sendBeacon); a body that is not JSON is the usual 400. */
function parseTextAsJson(_request: FastifyRequest, body: string, done: (err: Error | null, value?: unknown) => void) {
  if (body.trim() === '') return done(invalid('EMPTY_BODY', 'the request body is empty; send a JSON object'));
  try {
    done(null, JSON.parse(body));
  } catch {
    done(invalid('MALFORMED_JSON', 'the request body is not valid JSON'));
  }
}

export interface WebSdkDeps {
  sdk: SdkCallers;
  deepLinks: Pick<DeepLinkServices, 'webSdk'>;
}

export const webSdkDataApi: FastifyPluginAsyncZod<{ deps: WebSdkDeps }> = async (app, { deps }) => {
  const { sdk } = deps;
  const { webSdk } = deps.deepLinks;
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, parseTextAsJson);

  /** POST /update-fingerprint in `context`: a deep-link token (a campaign's, or any) gets the page's fingerprint. */
  const updateFingerprint = (context: FastifyInstance, summary: string, message: string) =>
    context
      .withTypeProvider<ZodTypeProvider>()
      .post(
        '/update-fingerprint',
        { schema: { tags, summary, body: fingerprintBody, response: { 200: statusSchema, ...errors } } },
        async (request) => {
          await webSdk.updateFingerprint(fingerprintOf(request.body, request.headers), request.ip);
          return { status: 'success' as const, message };
        },
      );

  // Two sub-contexts rather than one CORS wildcard at /api/v1/sdk/web: the version route's plugin
  // answers its own preflights there.
  await app.register(
    async (deeplink: FastifyInstance) => {
      allowBrowserCalls(deeplink);
      const r = deeplink.withTypeProvider<ZodTypeProvider>();

      updateFingerprint(
        deeplink,
        "Attach the landing page's device fingerprint to a deep-link token",
        'fingerprint updated',
      );

      r.post(
        '/track-store-visit',
        {
          schema: {
            tags,
            summary: 'Record that the visitor is sent to the store (sendBeacon: text/plain JSON accepted)',
            body: z.object({ token: tokenSchema, isCampaign: z.boolean().default(false) }),
            response: { 200: statusSchema, ...errors },
          },
        },
        async (request) => {
          const visit = await webSdk.trackStoreVisit(request.body.token, request.ip);
          return {
            status: 'success' as const,
            message: visit.first ? 'store visit recorded' : 'store visit already recorded',
          };
        },
      );

      const debugText = z.string().max(2000).optional();
      r.post(
        '/debug-scheme',
        {
          schema: {
            tags,
            summary: 'Collect Android intent debug data (viewable by the operator)',
            body: z.object({
              appUrl: debugText,
              schemeEnd: debugText,
              pathPart: debugText,
              androidPackage: debugText,
              appScheme: debugText,
              intentUrl: debugText,
              token: tokenSchema.optional().describe("the page's deep-link token (extension)"),
              appId: appIdSchema.optional().describe('the app id the SDK was initialised with (extension)'),
            }),
            response: { 200: statusSchema.extend({ id: z.number().int() }), ...errors },
          },
        },
        async (request) => {
          const id = await webSdk.addDebugSchemeReport(request.body, {
            ip: request.ip,
            userAgent: request.headers['user-agent'],
          });
          return { status: 'success' as const, message: 'debug report stored', id };
        },
      );

      r.get(
        '/resolve',
        {
          schema: {
            tags,
            summary: 'The link of a deep-link token, for the web SDK (extension; does not consume the token)',
            description:
              "Header X-App-ID names an app of the token's organization. Also takes the click id (`signpost_token`) that a link with conversionTracking appends to its destination, checked by its signature (deepLinkPath null). 404 for an unknown, expired or altered token, or another organization's.",
            querystring: z.object({ token: tokenSchema }),
            response: {
              200: z.object({
                token: z.string(),
                goalType: z.string().nullable(),
                linkType: z.enum(['url', 'campaign']),
                url: urlRefSchema.nullable(),
                campaign: campaignRefSchema.nullable(),
                deepLinkPath: z.string().nullable(),
              }),
              ...commonErrorResponses,
            },
          },
        },
        async (request) => {
          const caller = await sdk.authenticate.mobileOrBrowser(request);
          sdk.rateLimit.take(caller, request.ip);
          const t = await webSdk.linkOfToken(caller.organization.id, request.query.token);
          return {
            token: t.token,
            goalType: goalTypeOf(t.link),
            linkType: t.linkType,
            url: urlRef(t.link),
            campaign: campaignRef(t.link),
            deepLinkPath: t.platform === null ? null : deepLinkPathOf(t.link, t.platform),
          };
        },
      );
    },
    { prefix: '/deeplink' },
  );

  await app.register(
    async (campaign: FastifyInstance) => {
      allowBrowserCalls(campaign);
      updateFingerprint(
        campaign,
        'Attach the device fingerprint to a campaign deep-link token (after a campaign QR scan)',
        'campaign fingerprint updated',
      );
    },
    { prefix: '/campaign-deep-link' },
  );
};
