-- An organization's own goal types, listed in the console next to the preset ones (which live in
-- code: src/core/links/goal-types.ts). A link's goalType stays free text, so removing a type here
-- changes no link. Names are unique per organization whatever their case: `Purchase` next to
-- `purchase` would only split one goal in two.
create table if not exists goal_types (
  id bigint generated always as identity primary key,
  organization_id bigint not null references organizations (id) on delete cascade,
  name text not null check (length(name) between 1 and 50),
  description text check (length(description) <= 200),
  created_at timestamptz not null default now(),
  created_by bigint references users (id) on delete set null
);
create unique index if not exists goal_types_organization_name_key on goal_types (organization_id, lower(name));
