// AES-256-GCM secret box: round trips, random IVs, tamper detection, key rotation, and the key file
// the embedded default generates once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createSecretBox, loadSecretBox, parseKeyring } from '../../src/shared/secret-box.js';

const hexKey = () => randomBytes(32).toString('hex');
const boxOf = (spec: string) => createSecretBox(parseKeyring(spec));

/** Re-encodes the payload of a sealed value after `edit` changed its bytes. */
function editPayload(sealed: string, edit: (raw: Buffer) => Buffer): string {
  const [format, keyId, payload] = sealed.split(':');
  return `${format}:${keyId}:${edit(Buffer.from(payload!, 'base64')).toString('base64')}`;
}

const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('seal and open', () => {
  const box = boxOf(`main:${hexKey()}`);

  it('round-trips text, including unicode, the empty string and long values', () => {
    for (const text of ['', 'hello', '+82 10-1234-5678', 'Zürich — 東京 — 🚀👩🏽‍💻', 'x'.repeat(100_000), 'a:b:c,d']) {
      expect(box.open(box.seal(text))).toBe(text);
    }
  });

  it('names its format and key, and never shows the plaintext', () => {
    const secret = 'alice@example.com';
    const sealed = box.seal(secret);
    expect(sealed.startsWith('v1:main:')).toBe(true);
    expect(box.activeKeyId).toBe('main');
    expect(sealed).not.toContain(secret);
    expect(sealed).not.toContain(Buffer.from(secret).toString('base64').slice(0, 12));
    expect(sealed).not.toContain(Buffer.from(secret).toString('hex'));
  });

  it('differs every time the same value is sealed (random IV)', () => {
    const sealed = Array.from({ length: 200 }, () => box.seal('same value'));
    expect(new Set(sealed).size).toBe(sealed.length);
    const ivs = sealed.map((s) => Buffer.from(s.split(':')[2]!, 'base64').subarray(0, 12).toString('hex'));
    expect(new Set(ivs).size).toBe(ivs.length);
    for (const s of sealed) expect(box.open(s)).toBe('same value');
  });

  it('refuses a value with any byte changed: IV, tag or body', () => {
    const sealed = box.seal('pay to the order of Alice');
    const length = Buffer.from(sealed.split(':')[2]!, 'base64').length;
    for (const at of [0, 11, 12, 27, 28, length - 1]) {
      const tampered = editPayload(sealed, (raw) => {
        const copy = Buffer.from(raw);
        copy[at] = copy[at]! ^ 0x01;
        return copy;
      });
      expect(() => box.open(tampered), `byte ${at}`).toThrow();
    }
  });

  it('refuses a truncated value, even one cut down to a short tag', () => {
    const sealed = box.seal('');
    // IV and the first four bytes of the tag: a GCM tag that short can be forged.
    expect(() => box.open(editPayload(sealed, (raw) => raw.subarray(0, 16)))).toThrow();
    expect(() => box.open(editPayload(sealed, (raw) => raw.subarray(0, 27)))).toThrow();
    expect(() => box.open(editPayload(box.seal('abc'), (raw) => raw.subarray(0, raw.length - 1)))).toThrow();
  });

  it('refuses a value sealed by another key, and text that is not a sealed value', () => {
    const other = boxOf(`main:${hexKey()}`);
    expect(() => box.open(other.seal('secret'))).toThrow();
    expect(() => box.open('plain text')).toThrow(/not a sealed value/);
    expect(() => box.open('v2:main:AAAA')).toThrow(/not a sealed value/);
    expect(() => box.open(box.seal('x').replace(':main:', ':gone:'))).toThrow(/unknown encryption key id gone/);
  });
});

describe('key rotation', () => {
  const oldKey = hexKey();
  const newKey = hexKey();

  it('opens values sealed by an old key and seals with the first key', () => {
    const before = boxOf(`old:${oldKey}`);
    const sealedBefore = before.seal('customer phone');
    const rotated = boxOf(`new:${newKey},old:${oldKey}`);
    expect(rotated.activeKeyId).toBe('new');
    expect(rotated.open(sealedBefore)).toBe('customer phone');
    const sealedAfter = rotated.seal('customer phone');
    expect(sealedAfter.startsWith('v1:new:')).toBe(true);
    // Once the old key is retired, new values still open and old ones no longer do.
    const retired = boxOf(`new:${newKey}`);
    expect(retired.open(sealedAfter)).toBe('customer phone');
    expect(() => retired.open(sealedBefore)).toThrow(/unknown encryption key id old/);
  });

  it('accepts base64 keys and gives a bare key the id k1', () => {
    const raw = randomBytes(32);
    const fromBase64 = boxOf(raw.toString('base64'));
    const fromHex = boxOf(`k1:${raw.toString('hex')}`);
    expect(fromBase64.activeKeyId).toBe('k1');
    expect(fromHex.open(fromBase64.seal('same key'))).toBe('same key');
  });

  it('refuses keys of the wrong length, bad key ids and an empty keyring', () => {
    expect(() => parseKeyring(`a:${randomBytes(16).toString('hex')}`)).toThrow(/32 bytes/);
    expect(() => parseKeyring(`a:${randomBytes(33).toString('hex')}`)).toThrow(/32 bytes/);
    expect(() => parseKeyring(`a:${randomBytes(31).toString('base64')}`)).toThrow(/32 bytes/);
    expect(() => parseKeyring('a:not-a-key')).toThrow(/32 bytes/);
    expect(() => parseKeyring(`bad id:${hexKey()}`)).toThrow(/invalid encryption key id/);
    expect(() => parseKeyring(`${'k'.repeat(33)}:${hexKey()}`)).toThrow(/invalid encryption key id/);
    expect(() => parseKeyring('')).toThrow(/no encryption key/);
    expect(() => parseKeyring(' , ')).toThrow(/no encryption key/);
  });
});

describe('loadSecretBox', () => {
  it('uses the configured keyring when one is given, and writes no file', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-secret-box-'));
    tempDirs.push(dataDir);
    const key = hexKey();
    const { box, generated } = loadSecretBox({ keySpec: `cfg:${key}`, dataDir });
    expect(generated).toBe(false);
    expect(box.activeKeyId).toBe('cfg');
    expect(boxOf(`cfg:${key}`).open(box.seal('configured'))).toBe('configured');
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('generates a key file once (mode 0600) in a new data directory and reuses it afterwards', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-secret-box-'));
    tempDirs.push(root);
    const dataDir = path.join(root, 'nested', 'data');

    const first = loadSecretBox({ keySpec: undefined, dataDir });
    expect(first.generated).toBe(true);
    const file = path.join(dataDir, 'pii-encryption.key');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const written = fs.readFileSync(file, 'utf8');
    expect(written).toMatch(/^k1:[0-9a-f]{64}\n$/);
    const sealed = first.box.seal('kept across restarts');

    const second = loadSecretBox({ keySpec: undefined, dataDir });
    expect(second.generated).toBe(false);
    expect(fs.readFileSync(file, 'utf8')).toBe(written);
    expect(second.box.open(sealed)).toBe('kept across restarts');
  });
});
