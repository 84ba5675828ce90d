// Console accounts and their memberships. The address and the name are sealed; the address is
// found and kept unique through its blind index (lower case), so `Ann@X.com` and `ann@x.com` are
// one account.
import type { Plan } from '../shared/plans.js';
import type { Language, Role } from '../shared/roles.js';
import type { SecretBox } from '../shared/secret-box.js';
import type { BlindIndex } from './blind-index.js';
import type { Sql } from './postgres.js';

export interface User {
  id: number;
  email: string;
  name: string | null;
  language: Language;
  createdAt: Date;
  lastLoginAt: Date | null;
}

/** One organization a user belongs to, and the role there. */
export interface Membership {
  organizationId: number;
  organizationName: string;
  plan: Plan;
  role: Role;
  joinedAt: Date;
}

/** One member of an organization. */
export interface Member extends User {
  role: Role;
  joinedAt: Date;
}

interface UserRow {
  id: number;
  email_sealed: string;
  name_sealed: string | null;
  language: Language;
  created_at: Date;
  last_login_at: Date | null;
}

export interface NewUser {
  email: string;
  name?: string | null | undefined;
  language?: Language | undefined;
}

export function createUsersRepo({
  sql,
  secretBox,
  blindIndex,
}: {
  sql: Sql;
  secretBox: SecretBox;
  blindIndex: BlindIndex;
}) {
  const toUser = (row: UserRow): User => ({
    id: row.id,
    email: secretBox.open(row.email_sealed),
    name: row.name_sealed === null ? null : secretBox.open(row.name_sealed),
    language: row.language,
    createdAt: row.created_at,
    lastLoginAt: row.last_login_at,
  });
  const emailIndex = (email: string) => blindIndex('user-email', email.toLowerCase());

  return {
    emailIndex,

    async get(id: number): Promise<User | undefined> {
      const [row] = await sql<UserRow[]>`select * from users where id = ${id}`;
      return row && toUser(row);
    },

    /** The accounts of these ids that exist (an audit log's actors, say), in no particular order. */
    async getMany(ids: number[]): Promise<User[]> {
      if (ids.length === 0) return [];
      const rows = await sql<UserRow[]>`select * from users where id = any(${ids}::bigint[])`;
      return rows.map(toUser);
    },

    async findByEmail(email: string): Promise<User | undefined> {
      const [row] = await sql<UserRow[]>`select * from users where email_index = ${await emailIndex(email)}`;
      return row && toUser(row);
    },

    /** The account of this address, made when there is none; `created` says which. */
    async ensure(input: NewUser, tx: Sql = sql): Promise<{ user: User; created: boolean }> {
      const index = await emailIndex(input.email);
      const [inserted] = await tx<UserRow[]>`
        insert into users (email_sealed, email_index, name_sealed, language)
        values (${secretBox.seal(input.email)}, ${index}, ${input.name ? secretBox.seal(input.name) : null}, ${input.language ?? 'ko'})
        on conflict (email_index) do nothing returning *`;
      if (inserted) return { user: toUser(inserted), created: true };
      const [row] = await tx<UserRow[]>`select * from users where email_index = ${index}`;
      return { user: toUser(row!), created: false };
    },

    async recordSignIn(id: number, at: Date): Promise<void> {
      await sql`update users set last_login_at = ${at} where id = ${id}`;
    },

    async setLanguage(id: number, language: Language): Promise<void> {
      await sql`update users set language = ${language} where id = ${id}`;
    },

    async membershipsOf(userId: number, tx: Sql = sql): Promise<Membership[]> {
      const rows = await tx<{ organization_id: number; name: string; plan: Plan; role: Role; created_at: Date }[]>`
        select m.organization_id, o.name, o.plan, m.role, m.created_at
        from memberships m join organizations o on o.id = m.organization_id
        where m.user_id = ${userId} order by o.name, o.id`;
      return rows.map((r) => ({
        organizationId: r.organization_id,
        organizationName: r.name,
        plan: r.plan,
        role: r.role,
        joinedAt: r.created_at,
      }));
    },

    async roleIn(organizationId: number, userId: number, tx: Sql = sql): Promise<Role | undefined> {
      const [row] = await tx<{ role: Role }[]>`
        select role from memberships where organization_id = ${organizationId} and user_id = ${userId}`;
      return row?.role;
    },

    async members(organizationId: number): Promise<Member[]> {
      const rows = await sql<(UserRow & { role: Role; joined_at: Date })[]>`
        select u.*, m.role, m.created_at as joined_at
        from memberships m join users u on u.id = m.user_id
        where m.organization_id = ${organizationId} order by m.created_at, u.id`;
      return rows.map((r) => ({ ...toUser(r), role: r.role, joinedAt: r.joined_at }));
    },

    /** Adds the membership, or changes its role; `created` says which. */
    async setMembership(
      organizationId: number,
      userId: number,
      role: Role,
      tx: Sql = sql,
    ): Promise<{ created: boolean; previousRole: Role | null }> {
      const [before] = await tx<{ role: Role }[]>`
        select role from memberships where organization_id = ${organizationId} and user_id = ${userId} for update`;
      await tx`
        insert into memberships (organization_id, user_id, role) values (${organizationId}, ${userId}, ${role})
        on conflict (organization_id, user_id) do update set role = excluded.role`;
      return { created: before === undefined, previousRole: before?.role ?? null };
    },

    async removeMembership(organizationId: number, userId: number): Promise<boolean> {
      const rows =
        await sql`delete from memberships where organization_id = ${organizationId} and user_id = ${userId} returning user_id`;
      return rows.length > 0;
    },

    async ownerCount(organizationId: number): Promise<number> {
      const [row] = await sql<{ n: number }[]>`
        select count(*)::int as n from memberships where organization_id = ${organizationId} and role = 'owner'`;
      return row!.n;
    },

    /**
     * Runs `work` in one transaction (a signup makes an account, an organization and links at
     * once). Everything inside must use `tx`: the embedded store has a single connection.
     */
    transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
      return sql.begin((tx) => work(tx as unknown as Sql)) as Promise<T>;
    },
  };
}

export type UsersRepo = ReturnType<typeof createUsersRepo>;
