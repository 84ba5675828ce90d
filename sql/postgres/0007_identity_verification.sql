-- Identity verification of keyless user-journey calls (identify, opt-in): the app's identity secret,
-- sealed with the PII keyring (src/shared/secret-box.ts) because checking an HMAC needs the secret
-- itself, not a hash of it. Null: verification is off for the app.
alter table mobile_apps add column if not exists identity_secret_sealed text;
-- When the current secret was issued (rotation replaces it); null exactly when the secret is.
alter table mobile_apps add column if not exists identity_secret_issued_at timestamptz;
-- Keyless identify asks whether any app of the organization requires verification.
create index if not exists mobile_apps_identity_verification_idx on mobile_apps (organization_id)
  where identity_secret_sealed is not null;
