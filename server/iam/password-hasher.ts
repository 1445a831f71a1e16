/** Slow password hashing (argon2id) behind a small interface, so tests can lower the cost and nothing else changes. */
import { hash, hashSync, verify } from '@node-rs/argon2';

export interface PasswordHashCost {
  /** KiB of memory per hash. */
  memoryCost: number;
  /** Passes over the memory. */
  timeCost: number;
}

/** Production cost: OWASP's argon2id baseline (19 MiB, 2 passes; about 50 ms here). */
export const PRODUCTION_HASH_COST: PasswordHashCost = { memoryCost: 19_456, timeCost: 2 };
/** For tests only: about 1 ms per hash. */
export const TEST_HASH_COST: PasswordHashCost = { memoryCost: 1024, timeCost: 1 };

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  hashSync(password: string): string;
  /** False for a wrong password and for a malformed stored hash alike. */
  verify(stored: string, password: string): Promise<boolean>;
  /** Spends the same time as a real verification, for unknown users (no timing oracle). */
  verifyDummy(password: string): Promise<void>;
}

export function createPasswordHasher(cost: PasswordHashCost = PRODUCTION_HASH_COST): PasswordHasher {
  const options = { memoryCost: cost.memoryCost, timeCost: cost.timeCost, parallelism: 1 };
  // The hash that unknown users are checked against, made on the thread pool: a synchronous argon2 hash here
  // held up every start for its full cost.
  const dummy = hash('pipework-dummy-password', options);
  dummy.catch(() => undefined);
  return {
    hash: (password) => hash(password, options),
    hashSync: (password) => hashSync(password, options),
    async verify(stored, password) {
      try {
        return await verify(stored, password);
      } catch {
        return false;
      }
    },
    async verifyDummy(password) {
      await dummy.then((stored) => verify(stored, password)).catch(() => false);
    },
  };
}
