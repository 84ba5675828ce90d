// Single sign-on partners: registered with a client id and a shared secret returned this once.
// The secret must be readable to verify the partner's tokens, so it is sealed, as is the contact.
import { newPartnerClientId, newSharedSecret } from '../../shared/ids.js';
import type { SecretBox } from '../../shared/secret-box.js';
import type { SsoPartnersRepo } from '../../oltp/sso-partners.repo.js';

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
}

export function createPartnersService(deps: { ssoPartners: SsoPartnersRepo; secretBox: SecretBox }) {
  return {
    async register(input: PartnerInput): Promise<{ clientId: string; sharedSecret: string }> {
      const sharedSecret = newSharedSecret();
      const partner = await deps.ssoPartners.create({
        clientId: newPartnerClientId(),
        serviceName: input.serviceName,
        allowedOrigins: [...new Set(input.allowedOrigins)],
        loginUrl: input.loginUrl,
        contactEmailSealed: deps.secretBox.seal(input.contactEmail),
        sharedSecretSealed: deps.secretBox.seal(sharedSecret),
      });
      return { clientId: partner.clientId, sharedSecret };
    },
  };
}

export type PartnersService = ReturnType<typeof createPartnersService>;
