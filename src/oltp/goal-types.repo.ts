// An organization's own goal types (the presets are code, not rows). A name is unique per
// organization whatever its case; an add that clashes is a value, not an error.
import type { Sql } from './postgres.js';

export interface GoalTypeRecord {
  name: string;
  description: string | null;
  createdAt: Date;
  /** The user who added it; null once that account is gone. */
  createdBy: number | null;
}

interface Row {
  name: string;
  description: string | null;
  created_at: Date;
  created_by: number | null;
}

const toRecord = (r: Row): GoalTypeRecord => ({
  name: r.name,
  description: r.description,
  createdAt: r.created_at,
  createdBy: r.created_by,
});

export function createGoalTypesRepo({ sql }: { sql: Sql }) {
  return {
    /** In the order they were added. */
    async list(organizationId: number): Promise<GoalTypeRecord[]> {
      const rows = await sql<Row[]>`
        select name, description, created_at, created_by from goal_types
        where organization_id = ${organizationId} order by id`;
      return rows.map(toRecord);
    },

    /** The new type; undefined when the organization has one of that name already (any case). */
    async add(
      organizationId: number,
      input: { name: string; description: string | null; createdBy: number | null },
    ): Promise<GoalTypeRecord | undefined> {
      const [row] = await sql<Row[]>`
        insert into goal_types (organization_id, name, description, created_by)
        values (${organizationId}, ${input.name}, ${input.description}, ${input.createdBy})
        on conflict do nothing
        returning name, description, created_at, created_by`;
      return row && toRecord(row);
    },

    /** The removed type (its stored spelling), matched whatever the case; undefined when there was none. */
    async remove(organizationId: number, name: string): Promise<GoalTypeRecord | undefined> {
      const [row] = await sql<Row[]>`
        delete from goal_types where organization_id = ${organizationId} and lower(name) = lower(${name})
        returning name, description, created_at, created_by`;
      return row && toRecord(row);
    },
  };
}

export type GoalTypesRepo = ReturnType<typeof createGoalTypesRepo>;
