/**
 * The last log lines of this server instance, in memory, for `log.list`: a bounded ring (lines and bytes per
 * line capped), written to by the logger beside its normal destination. Secrets are scrubbed on the way in:
 * the logger redacts known secret fields, and here credentials in any form (Authorization values, tokens,
 * password fields) are replaced, so no secret is ever held in the buffer.
 */

export const MAX_RECENT_LINES = 2000;
export const MAX_LINE_CHARS = 4096;

const SECRET_PATTERNS: RegExp[] = [
  /("(?:password|pass|secret|clientSecret|client_secret|token|accessToken|refreshToken|access_token|refresh_token|apitoken|authorization|cookie)"\s*:\s*)"(?:[^"\\]|\\.)*"/gi,
  /\b(Basic|Bearer|Refresh|Apitoken)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\bpwapi_[A-Za-z0-9_-]+/g,
];

/** A line with credentials replaced by `[REDACTED]`. */
export function scrubSecrets(line: string): string {
  return SECRET_PATTERNS.reduce(
    (text, pattern) =>
      text.replace(pattern, (_match, prefix?: string) =>
        typeof prefix === 'string' && prefix.length > 0 && !/^pwapi_/.test(_match)
          ? prefix.endsWith(':') || /:\s*$/.test(prefix)
            ? `${prefix}"[REDACTED]"`
            : `${prefix} [REDACTED]`
          : '[REDACTED]',
      ),
    line,
  );
}

export interface RecentLogQuery {
  lines?: number;
  /** Lowest level: trace, debug, info, warn, error, fatal. */
  level?: string;
  /** Only lines containing this text (case-insensitive). */
  contains?: string;
}

const LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };

export class RecentLogs {
  private readonly ring: string[] = [];
  private next = 0;

  constructor(private readonly capacity = MAX_RECENT_LINES) {}

  /** The logger's destination interface. */
  write(chunk: string): void {
    for (const raw of chunk.split('\n')) {
      if (raw.trim() === '') continue;
      const line = scrubSecrets(raw.length > MAX_LINE_CHARS ? `${raw.slice(0, MAX_LINE_CHARS)}...` : raw);
      if (this.ring.length < this.capacity) this.ring.push(line);
      else this.ring[this.next] = line;
      this.next = (this.next + 1) % this.capacity;
    }
  }

  /** The newest matching lines, oldest first. */
  list(query: RecentLogQuery = {}): string[] {
    const ordered =
      this.ring.length < this.capacity
        ? this.ring
        : [...this.ring.slice(this.next), ...this.ring.slice(0, this.next)];
    const minimum = query.level ? (LEVELS[query.level.toLowerCase()] ?? 0) : 0;
    const needle = query.contains?.toLowerCase();
    const matching = ordered.filter((line) => {
      if (needle && !line.toLowerCase().includes(needle)) return false;
      if (minimum === 0) return true;
      const level = /"level":(\d+)/.exec(line);
      return level !== null && Number(level[1]) >= minimum;
    });
    const count = Math.max(0, Math.min(query.lines ?? 100, this.capacity));
    return matching.slice(Math.max(0, matching.length - count));
  }
}
