/**
 * The secret values a run has used, so that nothing the run gives back (its body, trace, log lines, error
 * messages) carries them: a command that resolves a secret registers its value here, and the run's edges
 * (`execute-pipeline.ts`, later the run records) mask every text through it. Nested runs share their
 * top-level run's mask, which reaches them on their services (`run-scope.ts`).
 */

export const MASK = '*****';
/** Values shorter than this are not masked in free text: "a" would blank out every text. */
const MIN_MASKED_CHARS = 4;
const MAX_DEPTH = 64;

/** The secret values of one run. */
export class SecretMask {
  private readonly values = new Set<string>();
  private pattern: RegExp | null = null;

  /** Adds a value (and its parts worth hiding, like the password of user:password). */
  register(...values: string[]): void {
    for (const value of values) {
      if (value.length < MIN_MASKED_CHARS || this.values.has(value)) continue;
      this.values.add(value);
      // What an HTTP client or a log may show instead of the raw text: its Base64 and URL-encoded forms.
      this.values.add(Buffer.from(value, 'utf8').toString('base64'));
      const encoded = encodeURIComponent(value);
      if (encoded !== value) this.values.add(encoded);
      this.pattern = null;
    }
  }

  get empty(): boolean {
    return this.values.size === 0;
  }

  /** Whether the run history has nothing to mask either (no value registered for records only). */
  get emptyForRecords(): boolean {
    return this.values.size === 0 && (this.records?.empty ?? true);
  }

  /** Values the caller may see but the run history must not keep (a property value it decrypted). */
  private records?: SecretMask;

  registerForRecords(...values: string[]): void {
    (this.records ??= new SecretMask()).register(...values);
  }

  /** The text as the run history keeps it: the secrets and the values registered for records masked. */
  recordText(text: string): string {
    const masked = this.text(text);
    return this.records ? this.records.text(masked) : masked;
  }

  /** The text with every registered value replaced by `*****`. */
  text(text: string): string {
    if (this.values.size === 0 || text.length < MIN_MASKED_CHARS) return text;
    this.pattern ??= new RegExp(
      [...this.values]
        .sort((a, b) => b.length - a.length)
        .map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('|'),
      'g',
    );
    return text.replace(this.pattern, MASK);
  }

  /** A copy of a JSON-like value with every text masked; bytes and other objects are kept as they are. */
  value(value: unknown, depth = 0): unknown {
    if (this.values.size === 0) return value;
    if (typeof value === 'string') return this.text(value);
    if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return value;
    if (Array.isArray(value)) return value.map((v) => this.value(v, depth + 1));
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[this.text(k)] = this.value(v, depth + 1);
    return out;
  }

  /** The error with its message masked (in place: the error handler and the log read the same object). */
  error<E>(error: E): E {
    if (this.values.size === 0 || !(error instanceof Error)) return error;
    const masked = this.text(error.message);
    if (masked !== error.message) error.message = masked;
    if (error.stack) error.stack = this.text(error.stack);
    return error;
  }
}
