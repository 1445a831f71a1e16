/** What the cache.* commands share: the key parameter, the caller's scope (tenant), and value conversion. */
import type { CommandContext, JsonSchema } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { BinaryContent, isBinaryContent, stringifyBounded } from '../../../shared/values';
import type { CachedValue } from '../../cache';
import type { ServerServices } from '../../services';

export type CacheContext = CommandContext<ServerServices>;

export const KEY: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 1024,
  description:
    'The key of the entry (per tenant; a user of no tenant has entries of its own: no one else sees them).',
};

/**
 * Entries are kept per tenant: the caller's tenants (sorted) name the scope, shared by the tenant's members. A
 * user of no tenant (the admin among them) has a scope of its own, so no other user can read or clear its
 * entries (issue 18: a developer read the admin's cached token).
 */
export function scopeOf(ctx: CacheContext): string {
  if (!ctx.principal) throw new PipeworkError('UNAUTHENTICATED', 'The cache needs a signed-in user.');
  const tenants = [...ctx.principal.tenants].sort().join(',');
  return tenants === '' ? `user:${ctx.principal.uuid}` : tenants;
}

export function keyOf(ctx: CacheContext): string {
  return String(ctx.params.key);
}

/** A value to keep: bytes as they are (copied), anything else as JSON text. */
export function toCached(value: unknown, maxChars: number): CachedValue {
  if (isBinaryContent(value))
    return { kind: 'bytes', data: value.data.slice(), mimeType: value.mimeType, name: value.name };
  if (value instanceof Uint8Array)
    return { kind: 'bytes', data: value.slice(), mimeType: 'application/octet-stream' };
  const json = stringifyBounded(value === undefined ? null : value, maxChars);
  if (!json.ok) throw new PipeworkError('PAYLOAD_TOO_LARGE', 'The value is too large for the cache.');
  return { kind: 'json', text: json.text };
}

/** A kept value as a fresh copy (a pipeline that changes it does not change the entry). */
export function fromCached(value: CachedValue): unknown {
  if (value.kind === 'json') return JSON.parse(value.text) as unknown;
  return new BinaryContent(value.data.slice(), value.mimeType, value.name);
}
