// Partner services allowed to sign users in by JWT (single sign-on). The shared secret is needed
// in clear to verify HS256, so it is sealed (AES-256-GCM), never hashed.
import type { Sql } from './postgres.js';

export interface SsoPartner {
  id: number;
  clientId: string;
  serviceName: string;
  allowedOrigins: string[];
  loginUrl: string;
  createdAt: Date;
}

export function createSsoPartnersRepo({ sql }: { sql: Sql }) {
  return {
    async create(input: {
      clientId: string;
      serviceName: string;
      allowedOrigins: string[];
      loginUrl: string;
      contactEmailSealed: string;
      sharedSecretSealed: string;
    }): Promise<SsoPartner> {
      const [row] = await sql<{ id: number; created_at: Date }[]>`
        insert into sso_partners (client_id, service_name, allowed_origins, login_url, contact_email_sealed, shared_secret_sealed)
        values (${input.clientId}, ${input.serviceName}, ${input.allowedOrigins}::text[], ${input.loginUrl},
                ${input.contactEmailSealed}, ${input.sharedSecretSealed})
        returning id, created_at`;
      return {
        id: row!.id,
        clientId: input.clientId,
        serviceName: input.serviceName,
        allowedOrigins: input.allowedOrigins,
        loginUrl: input.loginUrl,
        createdAt: row!.created_at,
      };
    },
  };
}

export type SsoPartnersRepo = ReturnType<typeof createSsoPartnersRepo>;
