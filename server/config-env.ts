/** Reading numbers from the environment, with the one error message every setting gives when it is wrong. */

function integerFrom(env: NodeJS.ProcessEnv, name: string, fallback: number, minimum: 0 | 1): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < minimum) {
    throw new Error(`${name} must be a ${minimum === 0 ? 'non-negative' : 'positive'} integer, got '${raw}'`);
  }
  return n;
}

/** A whole number of 1 or more, or `fallback` when unset or empty. */
export function positiveIntFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  return integerFrom(env, name, fallback, 1);
}

/** A whole number of 0 or more, or `fallback` when unset or empty. */
export function nonNegativeIntFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  return integerFrom(env, name, fallback, 0);
}
