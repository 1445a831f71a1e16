/** What a listing or a pattern delete of the property store matches. */
import type { KeyPattern } from './key-pattern';
import type { KeyScope } from './key-range';

export interface PropertyQuery {
  /** A wildcard pattern (compiled or text). */
  pattern: KeyPattern | string;
  /** Folders the reader may see; default all. */
  scope?: KeyScope;
  /**
   * A further test of each matching key (e.g. per-app read rules); keys it refuses are left out as if they
   * did not exist, before `limit` counts, and `deleteMatching` leaves them alone.
   */
  filter?: (key: string) => boolean;
  /** Stop after this many results. */
  limit?: number;
}
