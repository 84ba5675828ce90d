// Bearer tokens of the console: session cookies and one-time links. 256 random bits, URL-safe;
// only their SHA-256 is stored, so a leaked table signs no one in.
import { randomBytes } from 'node:crypto';
import { hashSecret } from '../../shared/secrets.js';

export const newToken = (): string => randomBytes(32).toString('base64url');

/** What the stores keep of a token. A malformed token hashes like any other and simply matches nothing. */
export const tokenHash = (token: string): Buffer => hashSecret(token);
