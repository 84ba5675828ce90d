// Console sign-in through the company's OpenID Connect provider: the authorization code flow with
// PKCE (S256), state and nonce. What the callback must compare travels sealed (encrypted and
// authenticated) in a short-lived cookie, so no server state is kept between the two requests and
// any instance can take the callback. openid-client checks the provider's answers: the state, the
// code exchange, and the ID token's signature, issuer, audience, expiry and nonce. The email counts
// only when the provider says it is verified; an account with that email signs in, and an unknown
// person only when their email domain is listed for joining an organization.
import * as oidc from 'openid-client';
import type { OrganizationsRepo } from '../../oltp/organizations.repo.js';
import type { User, UsersRepo } from '../../oltp/users.repo.js';
import { DomainError, forbidden, invalid } from '../../shared/errors.js';
import type { PartnerRole } from '../../shared/roles.js';
import type { SecretBox } from '../../shared/secret-box.js';
import { normalizeEmail } from '../journey/contact-fields.js';
import type { AuditTrail } from './audit-trail.js';
import type { ClientFacts, Sessions, StartedSession } from './console-sessions.service.js';

export interface OidcSignInSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** {PUBLIC_BASE_URL}/console/auth/oidc/callback, registered at the provider. */
  redirectUri: string;
  /** Email domains (lower case) whose unknown people join `joinOrganizationId` at first sign-in. */
  allowedDomains: string[];
  joinOrganizationId?: number | undefined;
  joinRole: PartnerRole;
}

/** How long a person has at the provider between leaving and coming back. */
const PENDING_MS = 10 * 60_000;
/** Deadline of each call to the provider (discovery, token, keys, userinfo), in seconds. */
const PROVIDER_TIMEOUT_SECONDS = 10;

interface Pending {
  state: string;
  nonce: string;
  verifier: string;
  /** Expiry, epoch milliseconds. */
  until: number;
}

/** What the browser keeps between leaving for the provider and coming back. */
export interface StartedOidcSignIn {
  url: string;
  /** The sealed state, nonce and PKCE verifier, for an HttpOnly cookie. */
  pending: string;
  expiresAt: Date;
}

const unavailable = (cause: unknown) =>
  new DomainError('unavailable', 'OIDC_PROVIDER_UNAVAILABLE', 'the identity provider cannot be reached; try again', {
    cause,
  });

/** Codes of openid-client that say the provider misbehaves, rather than that this sign-in is refused. */
const PROVIDER_TROUBLE = new Set([
  'OAUTH_RESPONSE_IS_NOT_JSON',
  'OAUTH_RESPONSE_IS_NOT_CONFORM',
  'OAUTH_HTTP_REQUEST_FORBIDDEN',
  'OAUTH_REQUEST_PROTOCOL_FORBIDDEN',
  'OAUTH_MISSING_SERVER_METADATA',
  'OAUTH_INVALID_SERVER_METADATA',
]);

/** openid-client's refusals, in the service's terms. */
function refusalOf(err: unknown): DomainError {
  if (err instanceof oidc.AuthorizationResponseError) {
    return forbidden('OIDC_DENIED', `the identity provider did not sign you in (${err.error})`);
  }
  if (err instanceof oidc.ResponseBodyError) {
    return invalid('OIDC_CODE_REJECTED', `the identity provider refused the sign-in code (${err.error})`);
  }
  const code = (err as { code?: unknown }).code;
  if (err instanceof Error && typeof code === 'string' && code.startsWith('OAUTH_')) {
    if (PROVIDER_TROUBLE.has(code)) return unavailable(err);
    // openid-client's message is general; the check's own (its cause) names the claim.
    const reason = err.cause instanceof Error ? err.cause.message : err.message;
    return invalid('OIDC_ID_TOKEN_INVALID', `the identity provider's answer failed its checks: ${reason}`);
  }
  return unavailable(err);
}

export function createOidcSignIn(deps: {
  settings: OidcSignInSettings;
  users: UsersRepo;
  organizations: Pick<OrganizationsRepo, 'get'>;
  sessions: Pick<Sessions, 'start'>;
  audit: AuditTrail;
  secretBox: SecretBox;
  clock: () => Date;
}) {
  const { settings, users } = deps;

  // Discovered at the first sign-in, not at start (the provider may be down then), and again
  // after a failure.
  let discovered: Promise<oidc.Configuration> | undefined;
  function configuration(): Promise<oidc.Configuration> {
    discovered ??= oidc
      .discovery(
        new URL(settings.issuer),
        settings.clientId,
        { client_secret: settings.clientSecret },
        oidc.ClientSecretBasic(settings.clientSecret),
        {
          timeout: PROVIDER_TIMEOUT_SECONDS,
          // Plain HTTP only for a loopback issuer: the configuration refuses any other.
          ...(new URL(settings.issuer).protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : {}),
        },
      )
      .catch((err: unknown) => {
        discovered = undefined;
        throw unavailable(err);
      });
    return discovered;
  }

  function openPending(sealed: string | undefined): Pending {
    if (sealed) {
      try {
        const pending = JSON.parse(deps.secretBox.open(sealed)) as Pending;
        if (deps.clock().getTime() < pending.until) return pending;
      } catch {
        // Not ours, or tampered with: as if missing.
      }
    }
    throw invalid('OIDC_STATE_MISSING', 'the sign-in took too long or began in another browser; start again');
  }

  /**
   * Whether the provider vouches for the address: `email_verified`, the standard claim; Microsoft
   * Entra ID sends none, and says instead in its optional claim `xms_edov` whether the owner of the
   * address's domain verified it (it must be added to the app's token configuration). Taking an
   * address nobody verified would let anyone who types a member's address into their own tenant
   * sign in as that member.
   */
  function emailVerified(facts: Record<string, unknown>): boolean {
    const yes = (v: unknown) => v === true || v === 'true';
    return facts.email_verified !== undefined ? yes(facts.email_verified) : yes(facts.xms_edov);
  }

  /** A verified email address from the ID token, or else from the userinfo endpoint. */
  async function verifiedEmail(
    config: oidc.Configuration,
    tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>,
  ): Promise<{ email: string; name: string | undefined }> {
    const claims = tokens.claims();
    if (!claims) throw invalid('OIDC_ID_TOKEN_INVALID', 'the identity provider sent no ID token');
    let facts: Record<string, unknown> = claims;
    if (typeof claims.email !== 'string' || (claims.email_verified === undefined && claims.xms_edov === undefined)) {
      facts = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub).catch((err: unknown) => {
        throw refusalOf(err);
      });
    }
    const email = typeof facts.email === 'string' ? normalizeEmail(facts.email) : undefined;
    if (!email) throw forbidden('OIDC_NO_EMAIL', 'the identity provider did not tell us your email address');
    if (!emailVerified(facts)) {
      throw forbidden('OIDC_EMAIL_UNVERIFIED', 'the identity provider has not verified your email address');
    }
    const name = typeof facts.name === 'string' && facts.name.trim() !== '' ? facts.name.trim() : undefined;
    return { email, name };
  }

  /** The account of that email; an unknown person of a listed domain joins the configured organization. */
  async function accountOf(email: string, name: string | undefined, ip: string): Promise<User> {
    const user = await users.findByEmail(email);
    if (user) return user;
    const domain = email.slice(email.lastIndexOf('@') + 1);
    const organizationId = settings.joinOrganizationId;
    if (organizationId === undefined || !settings.allowedDomains.includes(domain)) {
      throw forbidden(
        'OIDC_NOT_A_MEMBER',
        'no account has this email address; ask an admin of your organization to add you',
      );
    }
    if (!(await deps.organizations.get(organizationId))) {
      throw new DomainError('unavailable', 'OIDC_JOIN_ORGANIZATION_MISSING', 'the organization to join does not exist');
    }
    const role = settings.joinRole;
    const joined = await users.transaction(async (tx) => {
      const { user } = await users.ensure({ email, name }, tx);
      const { created } = await users.setMembership(organizationId, user.id, role, tx);
      return { user, created };
    });
    if (joined.created) {
      await deps.audit.record({ type: 'user', userId: joined.user.id, ip }, 'member.added', {
        organizationId,
        target: `user:${joined.user.id}`,
        details: { role, method: 'oidc' },
      });
    }
    return joined.user;
  }

  return {
    /** The provider's authorization URL, and what the callback must find again. */
    async start(): Promise<StartedOidcSignIn> {
      const config = await configuration();
      const pending: Pending = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        verifier: oidc.randomPKCECodeVerifier(),
        until: deps.clock().getTime() + PENDING_MS,
      };
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: settings.redirectUri,
        scope: 'openid email profile',
        state: pending.state,
        nonce: pending.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
        code_challenge_method: 'S256',
      });
      return {
        url: url.href,
        pending: deps.secretBox.seal(JSON.stringify(pending)),
        expiresAt: new Date(pending.until),
      };
    },

    /**
     * The provider's answer (the callback's query string) with the sealed pending sign-in: a new
     * console session, or a domain error saying why not.
     */
    async complete(query: string, sealedPending: string | undefined, client: ClientFacts): Promise<StartedSession> {
      const pending = openPending(sealedPending);
      const callback = new URL(settings.redirectUri);
      callback.search = query;
      if (callback.searchParams.get('state') !== pending.state && !callback.searchParams.has('error')) {
        throw invalid('OIDC_STATE_MISMATCH', 'the answer does not belong to this sign-in; start again');
      }
      const config = await configuration();
      const tokens = await oidc
        .authorizationCodeGrant(config, callback, {
          pkceCodeVerifier: pending.verifier,
          expectedState: pending.state,
          expectedNonce: pending.nonce,
          idTokenExpected: true,
        })
        .catch((err: unknown) => {
          throw refusalOf(err);
        });
      const { email, name } = await verifiedEmail(config, tokens);
      const user = await accountOf(email, name, client.ip);
      const session = await deps.sessions.start(user, 'oidc', client);
      await deps.audit.record({ type: 'user', userId: user.id, ip: client.ip }, 'sign_in', {
        target: `user:${user.id}`,
        details: { method: 'oidc' },
      });
      return session;
    },
  };
}

export type OidcSignIn = ReturnType<typeof createOidcSignIn>;
