/**
 * The brute-force policy from the environment (Keycloak's "brute force detection" settings): after how many
 * failed logins a name is slowed and locked, and for how long. Unset variables keep the defaults.
 */
import { positiveIntFrom } from '../config-env';
import { type BruteForcePolicy, DEFAULT_BRUTE_FORCE_POLICY } from './brute-force-guard';

export function loadBruteForcePolicy(env: NodeJS.ProcessEnv): BruteForcePolicy {
  const d = DEFAULT_BRUTE_FORCE_POLICY;
  return {
    ...d,
    slowAfter: positiveIntFrom(env, 'PIPEWORK_LOGIN_SLOW_AFTER', d.slowAfter),
    lockAfter: positiveIntFrom(env, 'PIPEWORK_LOGIN_LOCK_AFTER', d.lockAfter),
    lockMs: positiveIntFrom(env, 'PIPEWORK_LOGIN_LOCK_SECONDS', d.lockMs / 1000) * 1000,
    windowMs: positiveIntFrom(env, 'PIPEWORK_LOGIN_WINDOW_SECONDS', d.windowMs / 1000) * 1000,
  };
}
