/** Database values as JSON: dates as ISO text, bytes as base64, big integers as numbers when exact. */

export function toJsonValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (typeof value === 'bigint') {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (Array.isArray(value)) return value.map(toJsonValue);
  return value;
}

/** A parameter value as the driver takes it: maps and lists as JSON text, booleans kept. */
export function toDriverValue(value: unknown, forSqlite: boolean): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return forSqlite ? (value ? 1 : 0) : value;
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'bigint') return value;
  if (value instanceof Uint8Array) return Buffer.from(value);
  return JSON.stringify(value);
}
