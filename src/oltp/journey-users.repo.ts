// User identities of identify and opt-in (journey_users) and their consent history
// (journey_consent_changes). Phone and email are sealed with the secret box (AES-256-GCM, key id in
// each value) and indexed by an HMAC, never stored or compared in plaintext. Every consent flag
// change becomes a history row in the same transaction as the change itself.
import { createBlindIndex } from './blind-index.js';
import type { SecretBox } from '../shared/secret-box.js';
import type postgres from 'postgres';
import type { Sql } from './postgres.js';
import { type PageRequest, pageOf } from './sql-helpers.js';

type Tx = postgres.TransactionSql<Record<string, never>>;

export const CONSENT_FLAGS = [
  'smsOptIn',
  'emailOptIn',
  'pushOptIn',
  'smsAdOptIn',
  'emailAdOptIn',
  'pushAdOptIn',
  'nightAdOptIn',
] as const;
export type ConsentFlag = (typeof CONSENT_FLAGS)[number];
export type Consents = Record<ConsentFlag, boolean | null>;

const CONSENT_COLUMNS: Record<ConsentFlag, string> = {
  smsOptIn: 'sms_opt_in',
  emailOptIn: 'email_opt_in',
  pushOptIn: 'push_opt_in',
  smsAdOptIn: 'sms_ad_opt_in',
  emailAdOptIn: 'email_ad_opt_in',
  pushAdOptIn: 'push_ad_opt_in',
  nightAdOptIn: 'night_ad_opt_in',
};

export interface JourneyUser {
  id: number;
  organizationId: number;
  externalUserId: string;
  name: string | null;
  /** Plaintext (E.164), opened from the sealed column; callers decide who may see it. */
  phone: string | null;
  email: string | null;
  pushIdentify: string | null;
  consents: Consents;
  createdAt: Date;
  updatedAt: Date;
}

export interface ConsentChange {
  flag: ConsentFlag;
  from: boolean | null;
  to: boolean;
  source: 'identify' | 'opt-in';
  channel: 'mobile' | 'browser' | 'service';
  appId: number | null;
  changedAt: Date;
}

/** Who changed something, for the consent history. */
export interface ChangeAudit {
  source: 'identify' | 'opt-in';
  channel: 'mobile' | 'browser' | 'service' | 'console';
  appId: number | null;
  requestId: string | null;
}

/** Fields of identify: undefined (or null) keeps the stored value. Phone and email come normalised. */
export interface IdentityPatch {
  name?: string | undefined;
  phone?: string | undefined;
  email?: string | undefined;
  /** The form the email index compares (lower case). */
  emailIndexForm?: string | undefined;
  pushIdentify?: string | undefined;
  consents: Partial<Record<ConsentFlag, boolean>>;
}

interface Row {
  id: number;
  organization_id: number;
  external_user_id: string;
  name: string | null;
  phone_sealed: string | null;
  phone_index: Uint8Array | null;
  email_sealed: string | null;
  email_index: Uint8Array | null;
  push_identify: string | null;
  sms_opt_in: boolean | null;
  email_opt_in: boolean | null;
  push_opt_in: boolean | null;
  sms_ad_opt_in: boolean | null;
  email_ad_opt_in: boolean | null;
  push_ad_opt_in: boolean | null;
  night_ad_opt_in: boolean | null;
  created_at: Date;
  updated_at: Date;
}

interface ChangeRow {
  flag: ConsentFlag;
  old_value: boolean | null;
  new_value: boolean;
  source: 'identify' | 'opt-in';
  channel: 'mobile' | 'browser' | 'service';
  app_id: number | null;
  changed_at: Date;
}

const toChange = (r: ChangeRow): ConsentChange => ({
  flag: r.flag,
  from: r.old_value,
  to: r.new_value,
  source: r.source,
  channel: r.channel,
  appId: r.app_id,
  changedAt: r.changed_at,
});

function consentsOf(row: Row): Consents {
  const consents = {} as Consents;
  for (const flag of CONSENT_FLAGS) consents[flag] = row[CONSENT_COLUMNS[flag] as keyof Row] as boolean | null;
  return consents;
}

export function createJourneyUsersRepo({ sql, secretBox }: { sql: Sql; secretBox: SecretBox }) {
  const index = createBlindIndex({ sql, secretBox });

  /** HMAC-SHA256 of the normalised value, bound to the organization and the kind of value. */
  const blindIndex = (organizationId: number, kind: 'phone' | 'email', value: string): Promise<Buffer> =>
    index(organizationId, kind, value);

  const open = (sealed: string | null) => (sealed === null ? null : secretBox.open(sealed));

  function toUser(row: Row): JourneyUser {
    return {
      id: row.id,
      organizationId: row.organization_id,
      externalUserId: row.external_user_id,
      name: row.name,
      phone: open(row.phone_sealed),
      email: open(row.email_sealed),
      pushIdentify: row.push_identify,
      consents: consentsOf(row),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }

  /** Applies the patch to a locked row: new values, then one history row per changed flag. */
  async function apply(
    tx: Tx,
    row: Row,
    patch: IdentityPatch,
    audit: ChangeAudit,
  ): Promise<{ row: Row; changes: ConsentChange[] }> {
    const set: Record<string, unknown> = {};
    if (patch.name !== undefined) set.name = patch.name;
    if (patch.pushIdentify !== undefined) set.push_identify = patch.pushIdentify;
    if (patch.phone !== undefined) {
      const index = await blindIndex(row.organization_id, 'phone', patch.phone);
      // The same number again keeps its ciphertext: no needless re-encryption or write.
      if (!row.phone_index || !Buffer.from(row.phone_index).equals(index)) {
        set.phone_sealed = secretBox.seal(patch.phone);
        set.phone_index = index;
      }
    }
    if (patch.email !== undefined) {
      const index = await blindIndex(row.organization_id, 'email', patch.emailIndexForm ?? patch.email);
      const sameAddress =
        row.email_index && Buffer.from(row.email_index).equals(index) && open(row.email_sealed) === patch.email;
      if (!sameAddress) {
        set.email_sealed = secretBox.seal(patch.email);
        set.email_index = index;
      }
    }
    const changed: { flag: ConsentFlag; from: boolean | null; to: boolean }[] = [];
    for (const flag of CONSENT_FLAGS) {
      const to = patch.consents[flag];
      if (to === undefined) continue;
      const from = row[CONSENT_COLUMNS[flag] as keyof Row] as boolean | null;
      if (from === to) continue;
      set[CONSENT_COLUMNS[flag]] = to;
      changed.push({ flag, from, to });
    }
    if (Object.keys(set).length === 0) return { row, changes: [] };
    const [updated] = await tx<
      Row[]
    >`update journey_users set ${tx(set)}, updated_at = now() where id = ${row.id} returning *`;
    if (changed.length === 0) return { row: updated!, changes: [] };
    const rows = await tx<ChangeRow[]>`
      insert into journey_consent_changes ${tx(
        changed.map((c) => ({
          organization_id: row.organization_id,
          user_id: row.id,
          flag: c.flag,
          old_value: c.from,
          new_value: c.to,
          source: audit.source,
          channel: audit.channel,
          app_id: audit.appId,
          request_id: audit.requestId,
        })),
      )}
      returning flag, old_value, new_value, source, channel, app_id, changed_at`;
    return { row: updated!, changes: rows.map(toChange) };
  }

  return {
    /** identify: creates the user or updates only the fields sent. */
    async upsert(
      organizationId: number,
      externalUserId: string,
      patch: IdentityPatch,
      audit: ChangeAudit,
    ): Promise<{ action: 'created' | 'updated'; user: JourneyUser; changes: ConsentChange[] }> {
      await index.ready();
      return sql.begin(async (tx) => {
        // Insert-or-nothing, then lock: two first identifies of one user cannot both create it.
        const created = await tx`
          insert into journey_users (organization_id, external_user_id) values (${organizationId}, ${externalUserId})
          on conflict (organization_id, external_user_id) do nothing returning id`;
        const [row] = await tx<Row[]>`
          select * from journey_users where organization_id = ${organizationId} and external_user_id = ${externalUserId} for update`;
        const result = await apply(tx, row!, patch, audit);
        return {
          action: created.length > 0 ? ('created' as const) : ('updated' as const),
          user: toUser(result.row),
          changes: result.changes,
        };
      });
    },

    /** opt-in: consent flags only; undefined when identify never ran for the user. */
    async setConsents(
      organizationId: number,
      externalUserId: string,
      consents: Partial<Record<ConsentFlag, boolean>>,
      audit: ChangeAudit,
    ): Promise<{ user: JourneyUser; changes: ConsentChange[] } | undefined> {
      return sql.begin(async (tx) => {
        const [row] = await tx<Row[]>`
          select * from journey_users where organization_id = ${organizationId} and external_user_id = ${externalUserId} for update`;
        if (!row) return undefined;
        const result = await apply(tx, row, { consents }, audit);
        return { user: toUser(result.row), changes: result.changes };
      });
    },

    async get(organizationId: number, externalUserId: string): Promise<JourneyUser | undefined> {
      const [row] = await sql<Row[]>`
        select * from journey_users where organization_id = ${organizationId} and external_user_id = ${externalUserId}`;
      return row && toUser(row);
    },

    /** Users of the organization with this phone (E.164) or email, found through the blind index. */
    async findByContact(organizationId: number, by: { phone: string } | { email: string }): Promise<JourneyUser[]> {
      const rows =
        'phone' in by
          ? await sql<Row[]>`
              select * from journey_users
              where organization_id = ${organizationId} and phone_index = ${await blindIndex(organizationId, 'phone', by.phone)}
              order by id limit 100`
          : await sql<Row[]>`
              select * from journey_users
              where organization_id = ${organizationId} and email_index = ${await blindIndex(organizationId, 'email', by.email)}
              order by id limit 100`;
      return rows.map(toUser);
    },

    /** The consent history of one user, newest first. */
    consentHistory(userId: number, page: PageRequest) {
      return pageOf(
        sql<ChangeRow[]>`
          select flag, old_value, new_value, source, channel, app_id, changed_at from journey_consent_changes
          where user_id = ${userId} order by changed_at desc, id desc
          limit ${page.size} offset ${page.page * page.size}`,
        sql<{ n: number }[]>`select count(*)::bigint as n from journey_consent_changes where user_id = ${userId}`,
        toChange,
      );
    },
  };
}

export type JourneyUsersRepo = ReturnType<typeof createJourneyUsersRepo>;
