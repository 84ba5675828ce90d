-- The language of an organization's visitor pages (landing, interstitial, 404, 410) when the
-- visitor's browser asks for none we speak.
alter table organizations add column if not exists default_language text not null default 'ko'
  check (default_language in ('ko', 'en', 'ja'));
