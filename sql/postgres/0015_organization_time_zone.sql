-- The organization's time zone: where a day it names ends (a link's expiry given as a bare date
-- lasts until the end of that day there). Korean customers first, so Asia/Seoul by default.
alter table organizations add column if not exists time_zone text not null default 'Asia/Seoul';
