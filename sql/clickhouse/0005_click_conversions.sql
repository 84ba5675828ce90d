-- Conversions by destination (routing rules and A/B variants): a goal or an install is tied to the
-- click that brought it through the deep-link token that click was given. A phone click on a link
-- with an app gets a token with its landing page; the app's funnel stages use it as their session
-- (deeplink_funnel.session_id), an attributed install keeps it (app_installs.session_id), and a web
-- SDK session opened with it (the landing page, or a page whose address carries signpost_token)
-- writes it on its funnel stages (journey_funnel.deep_link_token below). Rows written before this
-- migration keep '' and tie to no click.
ALTER TABLE clicks
  ADD COLUMN IF NOT EXISTS `deep_link_token` String DEFAULT '' COMMENT 'Deep-link token the click was given (a phone click on a link with an app: its landing page''s token); empty otherwise. Conversions that carry the token belong to this click' AFTER `route`;

ALTER TABLE journey_funnel
  ADD COLUMN IF NOT EXISTS `deep_link_token` String DEFAULT '' COMMENT 'Deep-link token the session was opened with (journey_sessions.deep_link_token in PostgreSQL): ties the stage to the click that carries it (clicks.deep_link_token); empty when none' AFTER `external_user_id`;
