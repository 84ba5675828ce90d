-- Reports by mail: a member's subscription to a weekly or monthly report of the organization, one
-- tag or one link (short URL or campaign), in a time zone that decides where weeks and months
-- begin. `period_start` is the start of the last period claimed for sending (marked before the
-- mail goes, given back when it fails), so each period is mailed once whichever instance runs the
-- round. The unsubscribe link in each mail is signed with the subscription's own key. A member
-- who leaves the organization, a deleted tag or link: their subscriptions go with them.
create table if not exists report_subscriptions (
  id bigserial primary key,
  organization_id bigint not null references organizations (id) on delete cascade,
  user_id bigint not null references users (id) on delete cascade,
  frequency text not null check (frequency in ('weekly', 'monthly')),
  scope_type text not null check (scope_type in ('organization', 'tag', 'url', 'campaign')),
  tag_id bigint references tags (id) on delete cascade,
  short_url_id bigint references short_urls (id) on delete cascade,
  campaign_id bigint references campaigns (id) on delete cascade,
  time_zone text not null,
  unsubscribe_key bytea not null,
  period_start date,
  last_sent_at timestamptz,
  created_at timestamptz not null default now(),
  check ((scope_type = 'tag') = (tag_id is not null)),
  check ((scope_type = 'url') = (short_url_id is not null)),
  check ((scope_type = 'campaign') = (campaign_id is not null))
);
-- One subscription per member, frequency and subject.
create unique index if not exists report_subscriptions_unique_idx on report_subscriptions
  (organization_id, user_id, frequency, scope_type, coalesce(tag_id, short_url_id, campaign_id, 0));
create index if not exists report_subscriptions_user_idx on report_subscriptions (user_id);
