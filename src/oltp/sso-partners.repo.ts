// Partner services allowed to sign users in by JWT (single sign-on), the links of their users to
// our accounts, and the replay store of their tokens' jti. The shared secret is needed in clear
// to verify HS256, so it is sealed (AES-256-GCM), never hashed.
import type { PartnerRole } from '../shared/roles.js';
import type { Sql } from './postgres.js';
import { firstOf, type PageRequest, pageOf } from './sql-helpers.js';

export interface SsoPartner {
  id: number;
  clientId: string;
  serviceName: string;
  allowedOrigins: string[];
  loginUrl: string;
  contactEmailSealed: string;
  sharedSecretSealed: string;
  /** The organization its users join; null: each new user gets an organization of their own. */
  organizationId: number | null;
  defaultRole: PartnerRole;
  createdAt: Date;
  updatedAt: Date;
  secretRotatedAt: Date | null;
}

interface Row {
  id: number;
  client_id: string;
  service_name: string;
  allowed_origins: string[];
  login_url: string;
  contact_email_sealed: string;
  shared_secret_sealed: string;
  organization_id: number | null;
  default_role: PartnerRole;
  created_at: Date;
  updated_at: Date;
  secret_rotated_at: Date | null;
}

const toPartner = (r: Row): SsoPartner => ({
  id: r.id,
  clientId: r.client_id,
  serviceName: r.service_name,
  allowedOrigins: r.allowed_origins,
  loginUrl: r.login_url,
  contactEmailSealed: r.contact_email_sealed,
  sharedSecretSealed: r.shared_secret_sealed,
  organizationId: r.organization_id,
  defaultRole: r.default_role,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  secretRotatedAt: r.secret_rotated_at,
});

export interface PartnerFields {
  serviceName: string;
  allowedOrigins: string[];
  loginUrl: string;
  contactEmailSealed: string;
  organizationId: number | null;
  defaultRole: PartnerRole;
}

export function createSsoPartnersRepo({ sql }: { sql: Sql }) {
  return {
    async create(input: PartnerFields & { clientId: string; sharedSecretSealed: string }): Promise<SsoPartner> {
      const [row] = await sql<Row[]>`
        insert into sso_partners (client_id, service_name, allowed_origins, login_url, contact_email_sealed,
                                  shared_secret_sealed, organization_id, default_role)
        values (${input.clientId}, ${input.serviceName}, ${input.allowedOrigins}::text[], ${input.loginUrl},
                ${input.contactEmailSealed}, ${input.sharedSecretSealed}, ${input.organizationId}, ${input.defaultRole})
        returning *`;
      return toPartner(row!);
    },

    get(clientId: string): Promise<SsoPartner | undefined> {
      return firstOf(sql<Row[]>`select * from sso_partners where client_id = ${clientId}`, toPartner);
    },

    getById(id: number): Promise<SsoPartner | undefined> {
      return firstOf(sql<Row[]>`select * from sso_partners where id = ${id}`, toPartner);
    },

    /** A page of partners, oldest first. */
    list(page: PageRequest) {
      return pageOf(
        sql<Row[]>`select * from sso_partners order by id limit ${page.size} offset ${page.page * page.size}`,
        sql<{ n: number }[]>`select count(*)::int as n from sso_partners`,
        toPartner,
      );
    },

    update(clientId: string, fields: PartnerFields, at: Date): Promise<SsoPartner | undefined> {
      return firstOf(
        sql<Row[]>`
          update sso_partners set service_name = ${fields.serviceName}, allowed_origins = ${fields.allowedOrigins}::text[],
            login_url = ${fields.loginUrl}, contact_email_sealed = ${fields.contactEmailSealed},
            organization_id = ${fields.organizationId}, default_role = ${fields.defaultRole}, updated_at = ${at}
          where client_id = ${clientId} returning *`,
        toPartner,
      );
    },

    rotateSecret(clientId: string, sharedSecretSealed: string, at: Date): Promise<SsoPartner | undefined> {
      return firstOf(
        sql<Row[]>`
          update sso_partners set shared_secret_sealed = ${sharedSecretSealed}, secret_rotated_at = ${at}, updated_at = ${at}
          where client_id = ${clientId} returning *`,
        toPartner,
      );
    },

    async delete(clientId: string): Promise<boolean> {
      const rows = await sql`delete from sso_partners where client_id = ${clientId} returning id`;
      return rows.length > 0;
    },

    async linkedUser(partnerId: number, subject: string): Promise<number | undefined> {
      const [row] = await sql<{ user_id: number }[]>`
        select user_id from partner_links where partner_id = ${partnerId} and subject = ${subject}`;
      return row?.user_id;
    },

    /** The partner link of a user, if any: an account is linked to one partner service at most. */
    async linkOf(userId: number): Promise<{ partnerId: number; subject: string } | undefined> {
      const [row] = await sql<{ partner_id: number; subject: string }[]>`
        select partner_id, subject from partner_links where user_id = ${userId}`;
      return row && { partnerId: row.partner_id, subject: row.subject };
    },

    /** Links the partner's user to the account; false when either side is already linked elsewhere. */
    async link(partnerId: number, subject: string, userId: number, tx: Sql = sql): Promise<boolean> {
      const rows = await tx`
        insert into partner_links (partner_id, subject, user_id) values (${partnerId}, ${subject}, ${userId})
        on conflict do nothing returning user_id`;
      if (rows.length > 0) return true;
      // The same link made twice (a verification followed twice over two instances) is no clash.
      const [row] = await tx<{ user_id: number }[]>`
        select user_id from partner_links where partner_id = ${partnerId} and subject = ${subject}`;
      return row?.user_id === userId;
    },

    /** Records a token's jti; false when the partner used it before (a replay). */
    async recordJti(partnerId: number, jti: string, keepUntil: Date): Promise<boolean> {
      const rows = await sql`
        insert into sso_token_uses (partner_id, jti, expires_at) values (${partnerId}, ${jti}, ${keepUntil})
        on conflict do nothing returning jti`;
      return rows.length > 0;
    },

    async purgeJtis(before: Date): Promise<number> {
      const rows = await sql`delete from sso_token_uses where expires_at < ${before} returning 1`;
      return rows.length;
    },
  };
}

export type SsoPartnersRepo = ReturnType<typeof createSsoPartnersRepo>;
