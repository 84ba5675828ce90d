// The creator a campaign or custom domain names: the console member who made it (their name, or
// their address without one; both sealed, opened here), or the Service API key (its name, or its
// first characters without one); otherwise what the row falls back to.
import type { SecretBox } from '../shared/secret-box.js';

/** The columns a query selects for it (`creator_*`), from a `users` and an optional `api_keys` join. */
export interface CreatorColumns {
  creator_name_sealed?: string | null;
  creator_email_sealed?: string | null;
  creator_key_name?: string | null;
  creator_key_prefix?: string | null;
}

export function creatorName(row: CreatorColumns, secretBox: SecretBox, fallback: string): string {
  if (row.creator_name_sealed) return secretBox.open(row.creator_name_sealed);
  if (row.creator_email_sealed) return secretBox.open(row.creator_email_sealed);
  if (row.creator_key_name) return row.creator_key_name;
  if (row.creator_key_prefix) return `API key ${row.creator_key_prefix}…`;
  return fallback;
}
