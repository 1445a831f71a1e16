/** Waits for something that happens a moment later (another instance, a listener, a reconnect) by polling. */

export interface EventuallyOptions {
  /** How long to keep asking, in milliseconds (10 s unless told). */
  within?: number;
  /** The pause between two probes, in milliseconds (100 unless told). */
  every?: number;
  /** What is awaited, for the timeout's message. */
  what?: string;
}

/** Calls `probe` until it answers something other than undefined, and answers that; throws on timeout. */
export async function eventually<T>(
  probe: () => Promise<T | undefined>,
  { within = 10_000, every = 100, what = 'the condition' }: EventuallyOptions = {},
): Promise<T> {
  const until = Date.now() + within;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, every));
  }
}
