/** How opaque tokens (refresh tokens, API tokens) are stored: only their SHA-256, never the token itself. */
import { createHash } from 'node:crypto';

/** The stored form of a token: its SHA-256 in base64url. */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
