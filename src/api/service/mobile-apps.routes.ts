// Service API: mobile apps (/api/v1/service/mobile-apps). Registering an app generates its URL
// namespace (path) and its mobile SDK key; its deep-link settings feed the redirect and the
// well-known files. Identity verification (an extension) issues the secret that signs member ids
// for browser identify and opt-in calls (src/core/journey/identity-verification.ts).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { invalid, conflict, notFound } from '../../shared/errors.js';
import type { MobileApp } from '../../oltp/mobile-apps.repo.js';
import type { AppDeps } from '../deps.js';
import { commonErrorResponses, errorBodySchema, idParams } from '../schemas/common.js';
import { numberedPageResponse, pageQuery, toNumberedPage } from '../schemas/paging.js';
import { singleLine } from '../schemas/text.js';
import { clearable, httpsUrlSchema } from './link-rules.js';

const platformSchema = z.enum(['IOS', 'ANDROID']);

/** Schemes a browser or the OS would treat as something other than "open this app". */
const FORBIDDEN_SCHEMES = new Set(['http', 'https', 'javascript', 'data', 'file', 'intent', 'about', 'blob', 'vbscript']);

/** `myapp`, `myapp:` and `myapp://` all mean the scheme `myapp://`. */
export const schemeSchema = z
  .string()
  .trim()
  .max(64)
  .transform((v) => v.replace(/:(\/\/)?$/, '').toLowerCase())
  .refine((v) => /^[a-z][a-z0-9+.-]*$/.test(v), 'must be a URL scheme such as myapp://')
  .refine((v) => !FORBIDDEN_SCHEMES.has(v), 'must be the app\'s own scheme, not a web or system one')
  .transform((v) => `${v}://`);

const bundleIdSchema = z
  .string()
  .trim()
  .max(200)
  .regex(/^[A-Za-z][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)+$/, 'must be a reverse-DNS id such as com.example.app');

const teamIdSchema = z.string().trim().regex(/^[A-Z0-9]{10}$/, 'must be a 10-character Apple team id');

const fingerprintSchema = z
  .string()
  .trim()
  .transform((v) => v.toUpperCase())
  .refine((v) => /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/.test(v), 'must be a SHA-256 fingerprint such as 14:6D:E9:…');

export const mobileAppSchema = z
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
    sha256CertFingerprints: z.array(z.string()).describe('Android signing certificates, for assetlinks.json (extension)'),
    deepLinkTokenTtlSeconds: z.number().int().describe('lifetime of deep-link tokens, 60 s to 7 days (extension)'),
    identityVerification: z
      .boolean()
      .describe('browsers must send userHash with identify and opt-in (extension; POST .../identity-verification turns it on)'),
    identitySecretIssuedAt: z.string().nullable().describe('when the current identity secret was issued; null while identity verification is off (extension)'),
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
    identityVerification: app.identitySecretIssuedAt !== null,
    identitySecretIssuedAt: app.identitySecretIssuedAt?.toISOString() ?? null,
    createdAt: app.createdAt.toISOString(),
    updatedAt: app.updatedAt.toISOString(),
  };
}

/** The platform-bound fields must fit the platform (after a change of either). */
function checkPlatformFields(platform: 'IOS' | 'ANDROID', teamId: string | null | undefined, fingerprints: string[] | undefined) {
  if (platform === 'ANDROID' && teamId) throw invalid('VALIDATION_FAILED', 'body.teamId: applies to iOS apps only');
  if (platform === 'IOS' && fingerprints && fingerprints.length > 0) {
    throw invalid('VALIDATION_FAILED', 'body.sha256CertFingerprints: applies to Android apps only');
  }
}

export const mobileAppRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const { mobileApps } = deps.repos;
  const urlField = httpsUrlSchema({ production: deps.config.production, allowPrivate: deps.config.linkAllowPrivateTargets });
  const tags = ['service: mobile apps'];
  const security = [{ apiKey: [] }];
  const fields = {
    appName: singleLine(z.string().trim().min(1).max(100)),
    bundleId: bundleIdSchema,
    teamId: clearable(teamIdSchema),
    scheme: clearable(schemeSchema),
    storeUrl: clearable(urlField),
    appIconUrl: clearable(urlField),
    sha256CertFingerprints: z.array(fingerprintSchema).max(20).optional(),
    deepLinkTokenTtlSeconds: z.number().int().min(60).max(604_800).optional(),
  };

  app.post('/mobile-apps', {
    schema: {
      tags, security, summary: 'Register a mobile app',
      body: z.object({ platform: platformSchema, ...fields }),
      response: { 201: mobileAppSchema, ...commonErrorResponses },
    },
  }, async (request, reply) => {
    const { organization } = request.serviceAuth!;
    const b = request.body;
    checkPlatformFields(b.platform, b.teamId, b.sha256CertFingerprints);
    const created = await mobileApps.create(organization.id, {
      platform: b.platform,
      appName: b.appName,
      bundleId: b.bundleId,
      teamId: b.platform === 'IOS' ? (b.teamId ?? null) : null,
      scheme: b.scheme ?? null,
      storeUrl: b.storeUrl ?? null,
      appIconUrl: b.appIconUrl ?? null,
      sha256CertFingerprints: b.sha256CertFingerprints ?? [],
      deepLinkTokenTtlSeconds: b.deepLinkTokenTtlSeconds,
    });
    return reply.code(201).send(toJson(created));
  });

  app.get('/mobile-apps', {
    schema: {
      tags, security, summary: 'List mobile apps',
      querystring: z.object({ ...pageQuery, search: z.string().max(100).optional() }),
      response: { 200: numberedPageResponse(mobileAppSchema, 'MobileAppPage'), ...commonErrorResponses },
    },
  }, async (request) => {
    const { page, size, search } = request.query;
    const { items, total } = await mobileApps.list(request.serviceAuth!.organization.id, { page, size, search });
    return toNumberedPage(items.map(toJson), total, { page, size });
  });

  app.get('/mobile-apps/:id', {
    schema: { tags, security, summary: 'Read a mobile app', params: idParams, response: { 200: mobileAppSchema, ...commonErrorResponses } },
  }, async (request) => {
    const found = await mobileApps.get(request.serviceAuth!.organization.id, request.params.id);
    if (!found) throw notFound('MOBILE_APP_NOT_FOUND', `mobile app ${request.params.id} does not exist`);
    return toJson(found);
  });

  app.put('/mobile-apps/:id', {
    schema: {
      tags, security, summary: 'Update a mobile app',
      params: idParams,
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
      }),
      response: { 200: mobileAppSchema, ...commonErrorResponses, 409: errorBodySchema },
    },
  }, async (request) => {
    const orgId = request.serviceAuth!.organization.id;
    const current = await mobileApps.get(orgId, request.params.id);
    if (!current) throw notFound('MOBILE_APP_NOT_FOUND', `mobile app ${request.params.id} does not exist`);
    const b = request.body;
    const platform = b.platform ?? current.platform;
    if (platform !== current.platform && (await mobileApps.isLinked(orgId, current.id))) {
      throw conflict('APP_IN_USE', 'links or campaigns use this app; unlink them before changing its platform');
    }
    const teamId = b.teamId === undefined ? (platform === 'IOS' ? current.teamId : null) : b.teamId;
    const fingerprints = b.sha256CertFingerprints ?? (platform === 'ANDROID' ? current.sha256CertFingerprints : []);
    checkPlatformFields(platform, teamId, fingerprints);
    const updated = await mobileApps.update(orgId, current.id, {
      ...b,
      platform,
      teamId: platform === 'IOS' ? teamId : null,
      sha256CertFingerprints: fingerprints,
    });
    if (!updated) throw notFound('MOBILE_APP_NOT_FOUND', `mobile app ${request.params.id} does not exist`);
    return toJson(updated);
  });

  app.post('/mobile-apps/:id/identity-verification', {
    schema: {
      tags, security, summary: 'Turn identity verification on, or rotate its secret (extension)',
      description:
        'Issues a new identity secret, shown in this answer only (it is stored encrypted). From then on identify and opt-in ' +
        'calls from browsers (X-App-ID without the mobile app key) must carry userHash, the hex HMAC-SHA256 of externalUserId ' +
        'under this secret, computed by your server: without it 401 USER_HASH_REQUIRED, with a wrong one 401 USER_HASH_INVALID. ' +
        'Since users belong to the organization, browser calls through its apps without identity verification are then refused ' +
        '(403 IDENTITY_VERIFICATION_REQUIRED). Calling it again rotates the secret: hashes made with the old one stop working at once. ' +
        'Calls with the mobile app key are not affected.',
      params: idParams,
      response: {
        200: mobileAppSchema.extend({ identitySecret: z.string().describe('shown only here: keep it on your server, never in a page or an app') })
          .meta({ id: 'MobileAppWithIdentitySecret' }),
        ...commonErrorResponses,
      },
    },
  }, async (request) => {
    const issued = await mobileApps.issueIdentitySecret(request.serviceAuth!.organization.id, request.params.id);
    if (!issued) throw notFound('MOBILE_APP_NOT_FOUND', `mobile app ${request.params.id} does not exist`);
    return { ...toJson(issued.app), identitySecret: issued.secret };
  });

  app.delete('/mobile-apps/:id/identity-verification', {
    schema: {
      tags, security, summary: 'Turn identity verification off and forget its secret (extension)',
      params: idParams, response: { 204: z.null(), ...commonErrorResponses },
    },
  }, async (request, reply) => {
    if (!(await mobileApps.clearIdentitySecret(request.serviceAuth!.organization.id, request.params.id))) {
      throw notFound('MOBILE_APP_NOT_FOUND', `mobile app ${request.params.id} does not exist`);
    }
    return reply.code(204).send(null);
  });

  app.delete('/mobile-apps/:id', {
    schema: {
      tags, security, summary: 'Delete a mobile app and its deep-link settings; links keep working without it',
      params: idParams, response: { 204: z.null(), ...commonErrorResponses },
    },
  }, async (request, reply) => {
    if (!(await mobileApps.delete(request.serviceAuth!.organization.id, request.params.id))) {
      throw notFound('MOBILE_APP_NOT_FOUND', `mobile app ${request.params.id} does not exist`);
    }
    return reply.code(204).send(null);
  });
};
