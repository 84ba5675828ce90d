// Service API: mobile apps (/api/v1/service/mobile-apps): the app record as clients see it and
// the rules of its fields; what registering, changing and identity verification do is the apps
// service's (src/core/apps/mobile-apps.service.ts).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BUNDLE_ID_PATTERN,
  CERT_FINGERPRINT_PATTERN,
  isAppOwnScheme,
  SCHEME_NAME_PATTERN,
  schemeName,
  TEAM_ID_PATTERN,
} from '../../core/apps/app-settings.js';
import type { MobileApp, MobileAppsService } from '../../core/apps/mobile-apps.service.js';
import type { Config } from '../../shared/config.js';
import { commonErrorResponses } from '../schemas/common.js';
import { callerOf } from '../request-caller.js';
import { answerById, deleteById, readById, updateById } from './by-id.routes.js';
import { numberedPageResponse, pageQuery, toNumberedPage } from '../schemas/paging.js';
import { singleLine } from '../schemas/text.js';
import { clearable, linkTargetSchema } from '../schemas/link.js';
import { security } from './route-docs.js';

const platformSchema = z.enum(['IOS', 'ANDROID']);

/** `myapp`, `myapp:` and `myapp://` all mean the scheme `myapp://`. */
const schemeSchema = z
  .string()
  .trim()
  .max(64)
  .transform(schemeName)
  .refine((v) => SCHEME_NAME_PATTERN.test(v), 'must be a URL scheme such as myapp://')
  .refine(isAppOwnScheme, "must be the app's own scheme, not a web or system one")
  .transform((v) => `${v}://`);

const bundleIdSchema = z
  .string()
  .trim()
  .max(200)
  .regex(BUNDLE_ID_PATTERN, 'must be a reverse-DNS id such as com.example.app');

const teamIdSchema = z.string().trim().regex(TEAM_ID_PATTERN, 'must be a 10-character Apple team id');

const fingerprintSchema = z
  .string()
  .trim()
  .transform((v) => v.toUpperCase())
  .refine((v) => CERT_FINGERPRINT_PATTERN.test(v), 'must be a SHA-256 fingerprint such as 14:6D:E9:…');

const mobileAppSchema = z
  .object({
    id: z.number().int(),
    appName: z.string(),
    platform: platformSchema,
    appIconUrl: z.string().nullable(),
    bundleId: z.string().describe('bundle id (iOS) or package name (Android)'),
    path: z.string().describe('unique URL namespace: {base}/{path}/{shortCode}'),
    apiKey: z.string().describe('mobile SDK key (X-Mobile-App-API-Key)'),
    scheme: z.string().nullable().describe('<scheme>://'),
    teamId: z.string().nullable().describe('Apple team id; null for Android'),
    storeUrl: z.string().nullable(),
    sha256CertFingerprints: z
      .array(z.string())
      .describe('Android signing certificates, for assetlinks.json (extension)'),
    deepLinkTokenTtlSeconds: z.number().int().describe('lifetime of deep-link tokens, 60 s to 7 days (extension)'),
    clipboardMatch: z
      .boolean()
      .describe(
        "iOS: the landing page's store button copies a short code the app reads at first launch (resolve-fingerprint clipboardToken); default false, no effect on Android apps (extension)",
      ),
    identityVerification: z
      .boolean()
      .describe(
        'browsers must send userHash with identify and opt-in (extension; POST .../identity-verification turns it on)',
      ),
    identitySecretIssuedAt: z
      .string()
      .nullable()
      .describe('when the current identity secret was issued; null while identity verification is off (extension)'),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'MobileApp' });

function toJson(app: MobileApp): z.infer<typeof mobileAppSchema> {
  return {
    id: app.id,
    appName: app.appName,
    platform: app.platform,
    appIconUrl: app.appIconUrl,
    bundleId: app.bundleId,
    path: app.path,
    apiKey: app.apiKey,
    scheme: app.scheme,
    teamId: app.teamId,
    storeUrl: app.storeUrl,
    sha256CertFingerprints: app.sha256CertFingerprints,
    deepLinkTokenTtlSeconds: app.deepLinkTokenTtlSeconds,
    clipboardMatch: app.clipboardMatch,
    identityVerification: app.identitySecretIssuedAt !== null,
    identitySecretIssuedAt: app.identitySecretIssuedAt?.toISOString() ?? null,
    createdAt: app.createdAt.toISOString(),
    updatedAt: app.updatedAt.toISOString(),
  };
}

export const mobileAppRoutes: FastifyPluginAsyncZod<{
  mobileApps: MobileAppsService;
  config: Pick<Config, 'security'>;
}> = async (app, { mobileApps, config }) => {
  const urlField = linkTargetSchema(config.security);
  const tags = ['service: mobile apps'];
  const fields = {
    appName: singleLine(z.string().trim().min(1).max(100)),
    bundleId: bundleIdSchema,
    teamId: clearable(teamIdSchema),
    scheme: clearable(schemeSchema),
    storeUrl: clearable(urlField),
    appIconUrl: clearable(urlField),
    sha256CertFingerprints: z.array(fingerprintSchema).max(20).optional(),
    deepLinkTokenTtlSeconds: z.number().int().min(60).max(604_800).optional(),
    clipboardMatch: z.boolean().optional(),
  };

  app.post(
    '/mobile-apps',
    {
      schema: {
        tags,
        security,
        summary: 'Register a mobile app',
        body: z.object({ platform: platformSchema, ...fields }),
        response: { 201: mobileAppSchema, ...commonErrorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(toJson(await mobileApps.create(callerOf(request), request.body))),
  );

  app.get(
    '/mobile-apps',
    {
      schema: {
        tags,
        security,
        summary: 'List mobile apps',
        querystring: z.object({ ...pageQuery, search: z.string().max(100).optional() }),
        response: { 200: numberedPageResponse(mobileAppSchema, 'MobileAppPage'), ...commonErrorResponses },
      },
    },
    async (request) => {
      const { items, total } = await mobileApps.list(callerOf(request), request.query);
      return toNumberedPage(items.map(toJson), total, request.query);
    },
  );

  readById(
    app,
    '/mobile-apps/:id',
    { tags, security, summary: 'Read a mobile app', response: mobileAppSchema },
    async (caller, id) => toJson(await mobileApps.get(caller, id)),
  );

  updateById(
    app,
    '/mobile-apps/:id',
    {
      tags,
      security,
      summary: 'Update a mobile app',
      body: z.object({
        platform: platformSchema.optional(),
        appName: fields.appName.optional(),
        bundleId: bundleIdSchema.optional(),
        teamId: fields.teamId,
        scheme: fields.scheme,
        storeUrl: fields.storeUrl,
        appIconUrl: fields.appIconUrl,
        sha256CertFingerprints: fields.sha256CertFingerprints,
        deepLinkTokenTtlSeconds: fields.deepLinkTokenTtlSeconds,
        clipboardMatch: fields.clipboardMatch,
      }),
      response: mobileAppSchema,
      conflicts: true,
    },
    async (caller, id, body) => toJson(await mobileApps.update(caller, id, body)),
  );

  answerById(
    app,
    'post',
    '/mobile-apps/:id/api-key',
    {
      tags,
      security,
      summary: 'Regenerate the mobile app API key (extension)',
      description:
        "A new X-Mobile-App-API-Key for the app, in the answer's apiKey; calls with the old key are refused (401) from then on. Ship the new key before regenerating.",
      response: mobileAppSchema,
    },
    async (caller, id) => toJson(await mobileApps.regenerateApiKey(caller, id)),
  );

  answerById(
    app,
    'post',
    '/mobile-apps/:id/identity-verification',
    {
      tags,
      security,
      summary: 'Turn identity verification on, or rotate its secret (extension)',
      description:
        'Issues a new identity secret, shown in this answer only (it is stored encrypted). From then on identify and opt-in ' +
        'calls from browsers (X-App-ID without the mobile app key) must carry userHash, the hex HMAC-SHA256 of externalUserId ' +
        'under this secret, computed by your server: without it 401 USER_HASH_REQUIRED, with a wrong one 401 USER_HASH_INVALID. ' +
        'Since users belong to the organization, browser calls through its apps without identity verification are then refused ' +
        '(403 IDENTITY_VERIFICATION_REQUIRED). Calling it again rotates the secret: hashes made with the old one stop working at once. ' +
        'Calls with the mobile app key are not affected.',
      response: mobileAppSchema
        .extend({
          identitySecret: z.string().describe('shown only here: keep it on your server, never in a page or an app'),
        })
        .meta({ id: 'MobileAppWithIdentitySecret' }),
    },
    async (caller, id) => {
      const issued = await mobileApps.issueIdentitySecret(caller, id);
      return { ...toJson(issued.app), identitySecret: issued.secret };
    },
  );

  deleteById(
    app,
    '/mobile-apps/:id/identity-verification',
    { tags, security, summary: 'Turn identity verification off and forget its secret (extension)' },
    mobileApps.clearIdentitySecret,
  );

  deleteById(
    app,
    '/mobile-apps/:id',
    { tags, security, summary: 'Delete a mobile app and its deep-link settings; links keep working without it' },
    mobileApps.remove,
  );
};
