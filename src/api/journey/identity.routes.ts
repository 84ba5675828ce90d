// identify (upsert of the user identity record by externalUserId) and opt-in (consent flags only);
// neither needs the user-journey add-on. The rules, masking and what a browser may hear back:
// src/core/journey/identity.ts; the Service API's users route reads the plaintext.
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { normalizeEmail, normalizePhone } from '../../core/journey/contact-fields.js';
import {
  CONSENT_FLAGS,
  type ConsentChange,
  type ConsentFlag,
  type IdentityView,
  type JourneyIdentityService,
} from '../../core/journey/identity.js';
import type { AuthFailureLimiter } from '../auth-failures.js';
import { errorBodySchema } from '../schemas/common.js';
import { fromRequestPart } from '../schemas/field-errors.js';
import { callerOf } from '../request-caller.js';
import { externalUserIdSchema, journeyErrorResponses } from './schemas.js';

const tags = ['user journey: users'];

const userHashSchema = z
  .string()
  .regex(/^[0-9a-fA-F]{64}$/, 'must be the 64 hex characters of HMAC-SHA256(identity secret, externalUserId)')
  .optional()
  .describe(
    "hex HMAC-SHA256 of externalUserId under the app's identity secret, computed by your server; required from browsers " +
      '(X-App-ID only) once identity verification is on (POST /api/v1/service/mobile-apps/{id}/identity-verification)',
  );

const flag = (what: string) =>
  z
    .boolean({ error: 'must be true, false or null' })
    .nullish()
    .describe(`consent to ${what}; null or omitted keeps the stored value`);

const consentShape = {
  smsOptIn: flag('SMS messages'),
  emailOptIn: flag('email messages'),
  pushOptIn: flag('push notifications'),
  smsAdOptIn: flag('advertising by SMS'),
  emailAdOptIn: flag('advertising by email'),
  pushAdOptIn: flag('advertising by push'),
  nightAdOptIn: flag('advertising at night (21:00 to 08:00, Korean law)'),
};

/** A contact field checked and put in its one normal form (core's rule); null or omitted keeps the stored value. */
const contactSchema = (max: number, normalize: (raw: string) => string | undefined, problem: string) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .nullish()
    .transform((value, ctx) => {
      if (value === null || value === undefined) return undefined;
      const normal = normalize(value);
      if (!normal) {
        ctx.addIssue({ code: 'custom', message: problem });
        return z.NEVER;
      }
      return normal;
    });

const phoneSchema = contactSchema(
  30,
  normalizePhone,
  'must be a Korean mobile number such as 010-1234-5678 or an E.164 number such as +821012345678',
).describe('Korean mobile (010-1234-5678) or E.164 (+821012345678); stored encrypted as E.164');

const emailSchema = contactSchema(254, normalizeEmail, 'must be an email address such as user@example.com').describe(
  'stored encrypted',
);

const keepText = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty (send null or omit it to keep the stored value)')
    .max(max, `must be at most ${max} characters`)
    .nullish()
    .transform((v) => v ?? undefined);

const consentChangeSchema = z
  .object({
    flag: z.enum(CONSENT_FLAGS),
    from: z.boolean().nullable().describe('null: never stated before'),
    to: z.boolean(),
    source: z.enum(['identify', 'opt-in']),
    channel: z.enum(['mobile', 'browser', 'service']).describe('mobile: app key proven; browser: app id only'),
    appId: z.number().int().nullable(),
    changedAt: z.string(),
  })
  .meta({ id: 'ConsentChange' });

const consentsJson = Object.fromEntries(CONSENT_FLAGS.map((f) => [f, z.boolean().nullable()])) as Record<
  ConsentFlag,
  z.ZodNullable<z.ZodBoolean>
>;

export const identityFields = {
  externalUserId: z.string(),
  name: z.string().nullable(),
  pushIdentify: z.string().nullable(),
  ...consentsJson,
  createdAt: z.string(),
  updatedAt: z.string(),
};

const EXAMPLE_RECORD = {
  externalUserId: 'member-1024',
  name: '김민수',
  phone: '010-****-5678',
  email: 'm***@example.com',
  pushIdentify: 'fcm:dQw4w9WgXcQ',
  smsOptIn: true,
  emailOptIn: true,
  pushOptIn: true,
  smsAdOptIn: false,
  emailAdOptIn: true,
  pushAdOptIn: false,
  nightAdOptIn: false,
  createdAt: '2026-11-22T09:31:12.000Z',
  updatedAt: '2026-11-22T09:40:00.000Z',
};

const BROWSER_ANSWER =
  'To a browser (X-App-ID without the app key) every field is what that call sent (phone and email masked) or null, ' +
  'never a stored value; createdAt and updatedAt are null and consentChanges is empty, since either would reveal stored values.';

const identityAnswerSchema = z
  .object({
    action: z.enum(['created', 'updated']).describe('created on the first identify of this externalUserId'),
    ...identityFields,
    phone: z.string().nullable().describe('masked: 010-****-5678'),
    email: z.string().nullable().describe('masked: a***@example.com'),
    createdAt: z.string().nullable().describe('null for browsers'),
    updatedAt: z.string().nullable().describe('null for browsers'),
    consentChanges: z
      .array(consentChangeSchema)
      .describe('the consent flags this call changed (recorded in the history); empty for browsers'),
  })
  .describe(BROWSER_ANSWER)
  .meta({
    id: 'IdentifyAnswer',
    examples: [
      {
        action: 'updated',
        ...EXAMPLE_RECORD,
        consentChanges: [
          {
            flag: 'smsAdOptIn',
            from: true,
            to: false,
            source: 'identify',
            channel: 'mobile',
            appId: 12,
            changedAt: '2026-11-22T09:40:00.000Z',
          },
        ],
      },
    ],
  });

const identityErrorResponses = {
  ...journeyErrorResponses,
  401: errorBodySchema.describe(
    'unknown app id or wrong mobile app API key (APP_CREDENTIALS_INVALID); with identity verification on, a browser without userHash ' +
      '(USER_HASH_REQUIRED) or with a wrong one (USER_HASH_INVALID)',
  ),
  403: errorBodySchema.describe(
    'a browser call through an app without identity verification while another app of the organization has it (IDENTITY_VERIFICATION_REQUIRED)',
  ),
};

const optInAnswerSchema = identityAnswerSchema.omit({ action: true }).meta({ id: 'OptInAnswer' });

export function toChangeJson(c: ConsentChange): z.infer<typeof consentChangeSchema> {
  return { ...c, changedAt: c.changedAt.toISOString() };
}

function toAnswerJson(view: IdentityView) {
  return {
    ...view,
    createdAt: view.createdAt?.toISOString() ?? null,
    updatedAt: view.updatedAt?.toISOString() ?? null,
    consentChanges: view.consentChanges.map(toChangeJson),
  };
}

export const journeyIdentityRoutes: FastifyPluginAsyncZod<{
  identity: JourneyIdentityService;
  hashFailures: AuthFailureLimiter;
}> = async (app, { identity, hashFailures }) => {
  /** The call as the identity service sees it: its id, and wrong hashes counted against its address. */
  const callOf = (request: FastifyRequest) => ({
    requestId: request.id,
    hashAttempts: { check: () => hashFailures.check(request), fail: () => hashFailures.fail(request) },
  });

  app.post(
    '/identify',
    {
      config: { journeyAccess: 'identity' },
      schema: {
        tags,
        summary: 'Identify a user (upsert by externalUserId)',
        description:
          'The first call for an externalUserId creates the record (201, action created); later calls update only the fields sent ' +
          '(200, action updated): a field that is null or omitted keeps its stored value. Phone and email are validated, normalised ' +
          '(phones to E.164) and stored AES-256-GCM encrypted; the answer shows them masked. Each consent flag that changes is ' +
          'recorded with its time in the consent history. No add-on needed; browsers send X-App-ID only, apps add their key. ' +
          BROWSER_ANSWER +
          ' Once the app has identity verification on, a browser must send userHash (401 USER_HASH_REQUIRED or ' +
          'USER_HASH_INVALID), and a browser call through another app of the organization without it is refused (403 ' +
          'IDENTITY_VERIFICATION_REQUIRED).',
        body: z
          .object({
            externalUserId: externalUserIdSchema,
            name: keepText(100),
            phone: phoneSchema,
            email: emailSchema,
            pushIdentify: keepText(500).describe('push token identifier'),
            ...consentShape,
            userHash: userHashSchema,
          })
          .meta({
            example: {
              externalUserId: 'member-1024',
              name: '김민수',
              phone: '010-1234-5678',
              email: 'minsu@example.com',
              smsOptIn: true,
              emailOptIn: true,
              nightAdOptIn: false,
            },
          }),
        response: { 200: identityAnswerSchema, 201: identityAnswerSchema, ...identityErrorResponses },
      },
    },
    async (request, reply) => {
      const { action, view } = await identity.identify(callerOf(request), request.body, callOf(request));
      return reply.code(action === 'created' ? 201 : 200).send({ action, ...toAnswerJson(view) });
    },
  );

  app.post(
    '/opt-in',
    {
      config: { journeyAccess: 'identity' },
      schema: {
        tags,
        summary: 'Update consent flags',
        description:
          'Changes only the consent flags sent (at least one; null keeps a flag). 404 USER_NOT_FOUND when identify never ran for the user. ' +
          'Every change is recorded with its time, the call and the kind of caller in the consent history ' +
          '(GET /api/v1/service/users/{externalUserId}/consent-history). ' +
          BROWSER_ANSWER +
          ' Identity verification applies as for identify.',
        body: z
          .object({ externalUserId: externalUserIdSchema, ...consentShape, userHash: userHashSchema })
          .meta({ example: { externalUserId: 'member-1024', smsAdOptIn: false, nightAdOptIn: false } }),
        response: { 200: optInAnswerSchema, ...identityErrorResponses },
      },
    },
    async (request) => {
      return toAnswerJson(
        await fromRequestPart('body', identity.optIn(callerOf(request), request.body, callOf(request))),
      );
    },
  );
};
