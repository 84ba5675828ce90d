// Single sign-on partners as the operator manages them: registered with a client id and a shared
// secret returned this once, listed, changed, deleted, and given a new secret (linked users keep
// their links: a link is to the partner, not to its secret). The secret must be readable to
// verify the partner's tokens, so it is sealed, as is the contact address.
import { notFound } from '../../shared/errors.js';
import { newPartnerClientId, newSharedSecret } from '../../shared/ids.js';
import type { PartnerRole } from '../../shared/roles.js';
import type { SecretBox } from '../../shared/secret-box.js';
import type { OrganizationsRepo } from '../../oltp/organizations.repo.js';
import type { SsoPartner, SsoPartnersRepo } from '../../oltp/sso-partners.repo.js';
import type { Actor, AuditTrail } from '../accounts/audit-trail.js';
import { existingOrganization } from './existing-organization.js';

/** scheme://host[:port], nothing more (a trailing slash aside): what a browser sends as Origin. */
export function isOrigin(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.origin === value.replace(/\/$/, '');
  } catch {
    return false;
  }
}

export interface PartnerInput {
  serviceName: string;
  allowedOrigins: string[];
  loginUrl: string;
  contactEmail: string;
  organizationId?: number | null | undefined;
  defaultRole?: PartnerRole | undefined;
}

/** A partner as the operator sees it: never the secret. */
export interface PartnerView {
  clientId: string;
  serviceName: string;
  allowedOrigins: string[];
  loginUrl: string;
  contactEmail: string;
  organizationId: number | null;
  defaultRole: PartnerRole;
  createdAt: Date;
  updatedAt: Date;
  secretRotatedAt: Date | null;
}

export function createPartnersService(deps: {
  ssoPartners: SsoPartnersRepo;
  organizations: OrganizationsRepo;
  secretBox: SecretBox;
  audit: AuditTrail;
  clock: () => Date;
}) {
  const { ssoPartners, secretBox, audit } = deps;

  const view = (p: SsoPartner): PartnerView => ({
    clientId: p.clientId,
    serviceName: p.serviceName,
    allowedOrigins: p.allowedOrigins,
    loginUrl: p.loginUrl,
    contactEmail: secretBox.open(p.contactEmailSealed),
    organizationId: p.organizationId,
    defaultRole: p.defaultRole,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    secretRotatedAt: p.secretRotatedAt,
  });

  const missing = (clientId: string) => notFound('PARTNER_NOT_FOUND', `partner ${clientId} does not exist`);

  async function fieldsOf(input: PartnerInput) {
    const organizationId = input.organizationId ?? null;
    if (organizationId !== null) existingOrganization(await deps.organizations.get(organizationId), organizationId);
    return {
      serviceName: input.serviceName,
      allowedOrigins: [...new Set(input.allowedOrigins)],
      loginUrl: input.loginUrl,
      contactEmailSealed: secretBox.seal(input.contactEmail),
      organizationId,
      defaultRole: input.defaultRole ?? 'developer',
    };
  }

  return {
    async register(input: PartnerInput, actor: Actor): Promise<{ clientId: string; sharedSecret: string }> {
      const sharedSecret = newSharedSecret();
      const partner = await ssoPartners.create({
        ...(await fieldsOf(input)),
        clientId: newPartnerClientId(),
        sharedSecretSealed: secretBox.seal(sharedSecret),
      });
      await audit.record(actor, 'partner.registered', {
        organizationId: partner.organizationId,
        target: `partner:${partner.clientId}`,
      });
      return { clientId: partner.clientId, sharedSecret };
    },

    async list(page: { page: number; size: number }): Promise<{ items: PartnerView[]; total: number }> {
      const { items, total } = await ssoPartners.list(page);
      return { items: items.map(view), total };
    },

    async get(clientId: string): Promise<PartnerView> {
      const partner = await ssoPartners.get(clientId);
      if (!partner) throw missing(clientId);
      return view(partner);
    },

    /** Replaces the partner's settings (the secret aside). */
    async update(clientId: string, input: PartnerInput, actor: Actor): Promise<PartnerView> {
      const partner = await ssoPartners.update(clientId, await fieldsOf(input), deps.clock());
      if (!partner) throw missing(clientId);
      await audit.record(actor, 'partner.updated', {
        organizationId: partner.organizationId,
        target: `partner:${clientId}`,
      });
      return view(partner);
    },

    /** The partner's users keep their accounts; their links to the partner go with it. */
    async delete(clientId: string, actor: Actor): Promise<void> {
      if (!(await ssoPartners.delete(clientId))) throw missing(clientId);
      await audit.record(actor, 'partner.deleted', { target: `partner:${clientId}` });
    },

    /** A new secret, shown this once; tokens signed with the old one fail from now on. */
    async rotateSecret(clientId: string, actor: Actor): Promise<{ clientId: string; sharedSecret: string }> {
      const sharedSecret = newSharedSecret();
      const partner = await ssoPartners.rotateSecret(clientId, secretBox.seal(sharedSecret), deps.clock());
      if (!partner) throw missing(clientId);
      await audit.record(actor, 'partner.secret_rotated', {
        organizationId: partner.organizationId,
        target: `partner:${clientId}`,
      });
      return { clientId, sharedSecret };
    },
  };
}

export type PartnersService = ReturnType<typeof createPartnersService>;
