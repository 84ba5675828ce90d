-- Clipboard match on iOS (opt-in per app): the landing page's store button copies a short code for
-- the click, and the app reads it once at first launch. The code lives with its token (same
-- lifetime, consumed with it); only clicks of apps that turned the match on get one.
alter table mobile_apps add column if not exists clipboard_match boolean not null default false;
alter table deep_link_tokens add column if not exists clipboard_code text;
create unique index if not exists deep_link_tokens_clipboard_code_idx
  on deep_link_tokens (clipboard_code) where clipboard_code is not null;
