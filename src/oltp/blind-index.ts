// Blind indexes: an HMAC-SHA256 of a normalised value under the deployment's own key, so sealed
// PII (addresses, phone numbers) can be looked up and kept unique without storing it in clear.
// The key is random, made once and kept sealed in PostgreSQL: rotating PII_ENCRYPTION_KEY keeps
// every index valid.
import { createHmac, randomBytes } from 'node:crypto';
import type { SecretBox } from '../shared/secret-box.js';
import type { Sql } from './postgres.js';

export interface BlindIndex {
  /** The index of the given parts (joined unambiguously): bind the kind of value and its scope in. */
  (...parts: (string | number)[]): Promise<Buffer>;
  /** Loads the key, so a transaction can compute indexes without a second connection. */
  ready(): Promise<void>;
  /** A key of its own for another purpose (daily visitor salts), derived from this one. */
  derivedKey(purpose: string): Promise<Buffer>;
}

export function createBlindIndex({ sql, secretBox }: { sql: Sql; secretBox: SecretBox }): BlindIndex {
  let key: Promise<Buffer> | undefined;

  function loadKey(): Promise<Buffer> {
    key ??= (async () => {
      await sql`
        insert into journey_index_keys (id, key_sealed) values (1, ${secretBox.seal(randomBytes(32).toString('hex'))})
        on conflict (id) do nothing`;
      const [row] = await sql<{ key_sealed: string }[]>`select key_sealed from journey_index_keys where id = 1`;
      return Buffer.from(secretBox.open(row!.key_sealed), 'hex');
    })().catch((err: unknown) => {
      key = undefined;
      throw err;
    });
    return key;
  }

  const index = async (...parts: (string | number)[]) =>
    createHmac('sha256', await loadKey())
      .update(parts.join('\u0000'), 'utf8')
      .digest();
  return Object.assign(index, {
    ready: async () => void (await loadKey()),
    derivedKey: async (purpose: string) =>
      createHmac('sha256', await loadKey())
        .update(`derived-key\u0000${purpose}`, 'utf8')
        .digest(),
  });
}
