// AES-256-GCM encryption of values we must read back (PII, webhook secrets, partner shared
// secrets). Each ciphertext names the key that sealed it, so keys can rotate: the first key of
// PII_ENCRYPTION_KEY seals, every listed key opens.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
  /** Key id that seal() uses now. */
  readonly activeKeyId: string;
}

interface Key {
  id: string;
  bytes: Buffer;
}

const FORMAT = 'v1';

function decodeKey(raw: string): Buffer {
  const trimmed = raw.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (bytes.length !== 32) throw new Error('an encryption key must be 32 bytes (64 hex characters or base64)');
  return bytes;
}

/**
 * Parses `kid:key[,kid:key...]`; a bare key gets the id `k1`. Key ids are letters, digits, `-`, `_`.
 */
export function parseKeyring(spec: string): Key[] {
  const keys = spec
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const colon = part.indexOf(':');
      const id = colon > 0 ? part.slice(0, colon) : 'k1';
      const material = colon > 0 ? part.slice(colon + 1) : part;
      if (!/^[A-Za-z0-9_-]{1,32}$/.test(id)) throw new Error(`invalid encryption key id: ${id}`);
      return { id, bytes: decodeKey(material) };
    });
  if (keys.length === 0) throw new Error('no encryption key given');
  return keys;
}

export function createSecretBox(keys: Key[]): SecretBox {
  const active = keys[0];
  if (!active) throw new Error('no encryption key given');
  const byId = new Map(keys.map((k) => [k.id, k.bytes]));
  return {
    activeKeyId: active.id,
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', active.bytes, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return `${FORMAT}:${active.id}:${Buffer.concat([iv, tag, body]).toString('base64')}`;
    },
    open(sealed) {
      const [format, keyId, payload] = sealed.split(':');
      if (format !== FORMAT || keyId === undefined || payload === undefined) throw new Error('not a sealed value');
      const key = byId.get(keyId);
      if (!key) throw new Error(`unknown encryption key id ${keyId}`);
      const raw = Buffer.from(payload, 'base64');
      if (raw.length < 28) throw new Error('sealed value is truncated');
      // A fixed tag length: otherwise Node accepts a tag cut down to 4 bytes, which is forgeable.
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12), { authTagLength: 16 });
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

/**
 * The keyring from configuration, or (embedded default) a key generated once into the data
 * directory. Several instances must share one key, so a generated key is only for a single node.
 */
export function loadSecretBox(options: { keySpec: string | undefined; dataDir: string }): {
  box: SecretBox;
  generated: boolean;
} {
  if (options.keySpec) return { box: createSecretBox(parseKeyring(options.keySpec)), generated: false };
  const file = path.join(options.dataDir, 'pii-encryption.key');
  let generated = false;
  if (!fs.existsSync(file)) {
    fs.mkdirSync(options.dataDir, { recursive: true });
    try {
      fs.writeFileSync(file, `k1:${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
      generated = true;
    } catch (err) {
      // Another process created it first: read theirs.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return { box: createSecretBox(parseKeyring(fs.readFileSync(file, 'utf8'))), generated };
}
