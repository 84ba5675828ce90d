// Web SDK API data routes (/api/v1/sdk/web): what the landing page and the web SDK post about a
// deep-link token (fingerprint, store visit, Android intent debug data) and the token's link for
// trackGoal's goalType. No secret: a browser holds none. Each call counts against the keyless
// budget of the caller's address for the token's app (or the app id it names), never the app's
// own. navigator.sendBeacon can only send text/plain, so JSON is also read from text/plain bodies
// here. The version route lives with the bundle.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { normalizeLanguage, normalizeResolution } from '../../core/deeplinks/device-signals.js';
import type { DeepLinkToken } from '../../oltp/deep-link-tokens.repo.js';
import { invalid, notFound } from '../../shared/errors.js';
import { allowBrowserCalls } from '../cors.js';
import type { AppDeps } from '../deps.js';
import { commonErrorResponses, errorBodySchema } from '../schemas/common.js';
import { singleLine } from '../schemas/text.js';
import { campaignRef, campaignRefSchema, deepLinkPathOf, goalTypeOf, loadLink, urlRef, urlRefSchema } from './deep-link-targets.js';

const tags = ['web SDK'];
const tokenSchema = singleLine(z.string().trim().min(1).max(100)).describe('the deep-link token (signpost:deeplink-token)');
const appIdSchema = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const statusSchema = z.object({ status: z.literal('success'), message: z.string() });
const errors = { 400: errorBodySchema, 404: errorBodySchema, 429: errorBodySchema };

const fingerprintBody = z.object({
  token: tokenSchema,
  resolution: z.string().max(30).regex(/^\s*\d{2,5}\s*[xX×]\s*\d{2,5}\s*$/, 'must be <width>x<height>').optional()
    .describe('screen.width x screen.height (CSS pixels)'),
  appId: appIdSchema.optional(),
  userAgent: z.string().max(1000).optional(),
  timeZone: z.string().max(64).optional().describe('Intl.DateTimeFormat().resolvedOptions().timeZone (extension)'),
  language: z.string().max(64).optional().describe('navigator.language (extension)'),
  pixelRatio: z.number().positive().max(10).optional().describe('window.devicePixelRatio (extension)'),
});

const tokenNotFound = () => notFound('DEEP_LINK_TOKEN_NOT_FOUND', 'the deep-link token is unknown or has expired');

/** JSON from a text/plain body (sendBeacon); a body that is not JSON is the usual 400. */
function parseTextAsJson(_request: FastifyRequest, body: string, done: (err: Error | null, value?: unknown) => void) {
  if (body.trim() === '') return done(invalid('EMPTY_BODY', 'the request body is empty; send a JSON object'));
  try {
    done(null, JSON.parse(body));
  } catch {
    done(invalid('MALFORMED_JSON', 'the request body is not valid JSON'));
  }
}

export const webSdkDataApi: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const { tokens, records, recorder } = deps.deepLinks;
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, parseTextAsJson);

  /**
   * A live token, counted against the caller's address's keyless budget for the token's app (or
   * the app the caller names): a browser holds no key, so it never spends the app's own budget.
   */
  async function liveToken(request: FastifyRequest, token: string, appId: number | undefined): Promise<DeepLinkToken> {
    if (appId !== undefined) deps.sdk.rateLimit.keyless(appId, request.ip);
    const found = await tokens.get(token);
    if (!found || found.expiresAt.getTime() <= Date.now()) throw tokenNotFound();
    if (appId === undefined) deps.sdk.rateLimit.keyless(found.appId, request.ip);
    return found;
  }

  async function updateFingerprint(request: FastifyRequest, body: z.infer<typeof fingerprintBody>) {
    await liveToken(request, body.token, body.appId);
    const updated = await tokens.updateFingerprint(body.token, {
      resolution: normalizeResolution(body.resolution),
      timeZone: body.timeZone?.trim() || null,
      language: normalizeLanguage(body.language),
      pixelRatio: body.pixelRatio ?? null,
    });
    if (!updated) throw tokenNotFound();
  }

  // Two sub-contexts rather than one CORS wildcard at /api/v1/sdk/web: the version route's plugin
  // answers its own preflights there.
  await app.register(async (deeplink: FastifyInstance) => {
    allowBrowserCalls(deeplink);
    const r = deeplink.withTypeProvider<ZodTypeProvider>();

    r.post('/update-fingerprint', {
      schema: { tags, summary: 'Attach the landing page\'s device fingerprint to a deep-link token', body: fingerprintBody, response: { 200: statusSchema, ...errors } },
    }, async (request) => {
      await updateFingerprint(request, request.body);
      return { status: 'success' as const, message: 'fingerprint updated' };
    });

    r.post('/track-store-visit', {
      schema: {
        tags, summary: 'Record that the visitor is sent to the store (sendBeacon: text/plain JSON accepted)',
        body: z.object({ token: tokenSchema, isCampaign: z.boolean().default(false) }),
        response: { 200: statusSchema, ...errors },
      },
    }, async (request) => {
      await liveToken(request, request.body.token, undefined);
      const visit = await tokens.markStoreVisited(request.body.token);
      if (!visit) throw tokenNotFound();
      if (visit.first) {
        const t = visit.token;
        recorder.funnel(t.organizationId, {
          appId: t.appId, platform: t.platform, sessionId: t.token, stage: 'STORE_VISITED', linkType: t.linkType, linkId: t.linkId, source: 'landing',
        });
      }
      return { status: 'success' as const, message: visit.first ? 'store visit recorded' : 'store visit already recorded' };
    });

    const debugText = z.string().max(2000).optional();
    r.post('/debug-scheme', {
      schema: {
        tags, summary: 'Collect Android intent debug data (viewable by the operator)',
        body: z.object({
          appUrl: debugText, schemeEnd: debugText, pathPart: debugText, androidPackage: debugText, appScheme: debugText, intentUrl: debugText,
          token: tokenSchema.optional().describe('the page\'s deep-link token (extension)'),
          appId: appIdSchema.optional().describe('the app id the SDK was initialised with (extension)'),
        }),
        response: { 200: statusSchema.extend({ id: z.number().int() }), ...errors },
      },
    }, async (request) => {
      const b = request.body;
      const token = b.token ? await tokens.get(b.token) : undefined;
      let appId = token?.appId ?? null;
      let organizationId = token?.organizationId ?? null;
      if (appId === null && b.appId !== undefined) {
        const named = await deps.repos.mobileApps.authenticate(b.appId, null);
        if (named) [appId, organizationId] = [named.id, named.organizationId];
      }
      // Reports of no known app share one budget per address.
      deps.sdk.rateLimit.keyless(appId ?? 'debug-scheme', request.ip);
      const id = await records.addDebugSchemeReport({
        organizationId, appId, token: token?.token ?? null,
        appUrl: b.appUrl ?? null, schemeEnd: b.schemeEnd ?? null, pathPart: b.pathPart ?? null,
        androidPackage: b.androidPackage ?? null, appScheme: b.appScheme ?? null, intentUrl: b.intentUrl ?? null,
        userAgent: request.headers['user-agent']?.slice(0, 1000) ?? null,
      });
      return { status: 'success' as const, message: 'debug report stored', id };
    });

    r.get('/resolve', {
      schema: {
        tags, summary: 'The link of a deep-link token, for the web SDK (extension; does not consume the token)',
        description: 'Header X-App-ID names an app of the token\'s organization. 404 for an unknown or expired token, or another organization\'s.',
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
    }, async (request) => {
      const caller = await deps.sdk.authenticate.mobileOrBrowser(request);
      deps.sdk.rateLimit.take(caller, request.ip);
      const t = await tokens.get(request.query.token);
      if (!t || t.organizationId !== caller.organization.id || t.expiresAt.getTime() <= Date.now()) throw tokenNotFound();
      const link = await loadLink(deps, t.organizationId, { linkType: t.linkType, id: t.linkId });
      if (!link) throw tokenNotFound();
      return {
        token: t.token,
        goalType: goalTypeOf(link),
        linkType: t.linkType,
        url: urlRef(link),
        campaign: campaignRef(link),
        deepLinkPath: deepLinkPathOf(link, t.platform),
      };
    });
  }, { prefix: '/deeplink' });

  await app.register(async (campaign: FastifyInstance) => {
    allowBrowserCalls(campaign);
    campaign.withTypeProvider<ZodTypeProvider>().post('/update-fingerprint', {
      schema: { tags, summary: 'Attach the device fingerprint to a campaign deep-link token (after a campaign QR scan)', body: fingerprintBody, response: { 200: statusSchema, ...errors } },
    }, async (request) => {
      await updateFingerprint(request, request.body);
      return { status: 'success' as const, message: 'campaign fingerprint updated' };
    });
  }, { prefix: '/campaign-deep-link' });
};
