// The clipboard match's value: what the landing page copies for one click (`sp:` and 12 random
// base62 characters, about 71 bits: unguessable within a token's lifetime at the SDK rate limit)
// and what a first launch may paste back. Short, so a person who pastes it elsewhere sees a code,
// not a long address; prefixed, so the app tells it from whatever else is on the pasteboard.
import { randomBase62 } from '../../shared/ids.js';

const PREFIX = 'sp:';
const CODE_LENGTH = 12;
const VALUE_PATTERN = new RegExp(`^${PREFIX}([0-9A-Za-z]{${CODE_LENGTH}})$`);

export const newClipboardCode = () => randomBase62(CODE_LENGTH);

/** The text copied to the clipboard for a code. */
export const clipboardValueOf = (code: string) => `${PREFIX}${code}`;

/** The code in a pasted value (surrounding white space ignored); null for anything else. */
export function clipboardCodeIn(text: string | undefined): string | null {
  return VALUE_PATTERN.exec(text?.trim() ?? '')?.[1] ?? null;
}
