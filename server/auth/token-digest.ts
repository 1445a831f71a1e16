/** How opaque tokens (refresh tokens, API tokens) are stored: only their SHA-256, never the token itself. */
import { hash } from 'node:crypto';

/** The stored form of a token: its SHA-256 in base64url (one-shot: it is on every Bearer request's path). */
export function tokenDigest(token: string): string {
  return hash('sha256', token, 'base64url');
}
