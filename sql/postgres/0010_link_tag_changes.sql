-- Statistics by tag: ClickHouse keeps each link's current tags in its own table (link_tags, see
-- sql/clickhouse/0004) and joins it to the clicks at query time, so a tag renamed, taken off a
-- link or deleted changes every figure at once and no click row is rewritten. This table is the
-- outbox that keeps link_tags in step: triggers write a row for every link whose tags a statement
-- changed, whatever path changed them (a create, an update, a bulk change, an import, a tag
-- deleted, a link deleted), and the service copies the rows to ClickHouse and deletes them
-- (src/core/stats/tag-sync.ts). A row is the link's whole tag list after the change.
create table if not exists link_tag_changes (
  -- Also the version in ClickHouse: the highest id of a link is its current tags.
  id bigint generated always as identity primary key,
  organization_id bigint not null,
  link_type text not null check (link_type in ('url', 'campaign')),
  link_id bigint not null,
  -- The link's tags after the change; '{}' when it has none left or was deleted.
  tag_ids bigint[] not null,
  changed_at timestamptz not null default now()
);
create index if not exists link_tag_changes_organization_idx on link_tag_changes (organization_id, id);

-- Statement-level triggers with transition tables: a bulk insert of a thousand links adds one
-- insert … select, not a thousand. tg_argv[0] is the link type of the table.
create or replace function link_tag_changes_inserted() returns trigger language plpgsql as $$
begin
  insert into link_tag_changes (organization_id, link_type, link_id, tag_ids)
    select organization_id, tg_argv[0], id, tag_ids from new_rows where cardinality(tag_ids) > 0;
  return null;
end $$;

create or replace function link_tag_changes_updated() returns trigger language plpgsql as $$
begin
  insert into link_tag_changes (organization_id, link_type, link_id, tag_ids)
    select n.organization_id, tg_argv[0], n.id, n.tag_ids
    from new_rows n join old_rows o on o.id = n.id
    where n.tag_ids is distinct from o.tag_ids;
  return null;
end $$;

create or replace function link_tag_changes_deleted() returns trigger language plpgsql as $$
begin
  insert into link_tag_changes (organization_id, link_type, link_id, tag_ids)
    select organization_id, tg_argv[0], id, '{}' from old_rows where cardinality(tag_ids) > 0;
  return null;
end $$;

-- The same three triggers on both link tables, named <table>_tags_inserted, _updated, _deleted.
do $$
declare
  link record;
begin
  for link in select * from (values ('short_urls', 'url'), ('campaigns', 'campaign')) as v (tbl, kind) loop
    execute format('drop trigger if exists %1$I on %2$I', link.tbl || '_tags_inserted', link.tbl);
    execute format('create trigger %1$I after insert on %2$I referencing new table as new_rows '
      'for each statement execute function link_tag_changes_inserted(%3$L)', link.tbl || '_tags_inserted', link.tbl, link.kind);
    execute format('drop trigger if exists %1$I on %2$I', link.tbl || '_tags_updated', link.tbl);
    execute format('create trigger %1$I after update on %2$I referencing old table as old_rows new table as new_rows '
      'for each statement execute function link_tag_changes_updated(%3$L)', link.tbl || '_tags_updated', link.tbl, link.kind);
    execute format('drop trigger if exists %1$I on %2$I', link.tbl || '_tags_deleted', link.tbl);
    execute format('create trigger %1$I after delete on %2$I referencing old table as old_rows '
      'for each statement execute function link_tag_changes_deleted(%3$L)', link.tbl || '_tags_deleted', link.tbl, link.kind);
  end loop;
end $$;

-- The links tagged before this migration go to ClickHouse with the first copy.
insert into link_tag_changes (organization_id, link_type, link_id, tag_ids)
  select organization_id, 'url', id, tag_ids from short_urls where cardinality(tag_ids) > 0
  union all
  select organization_id, 'campaign', id, tag_ids from campaigns where cardinality(tag_ids) > 0;
