/**
 * The brute-force policy from the environment (Keycloak's "brute force detection" settings): after how many
 * failed logins from one address an account is slowed and locked for that address, after how many from all
 * addresses together every attempt on it waits, and for how long. Unset variables keep the defaults.
 */
import { positiveIntFrom } from '../config-env';
import { type BruteForcePolicy, DEFAULT_BRUTE_FORCE_POLICY } from './brute-force-guard';

export function loadBruteForcePolicy(env: NodeJS.ProcessEnv): BruteForcePolicy {
  const d = DEFAULT_BRUTE_FORCE_POLICY;
  return {
    ...d,
    slowAfter: positiveIntFrom(env, 'PIPEWORK_LOGIN_SLOW_AFTER', d.slowAfter),
    lockAfter: positiveIntFrom(env, 'PIPEWORK_LOGIN_LOCK_AFTER', d.lockAfter),
    accountSlowAfter: positiveIntFrom(env, 'PIPEWORK_LOGIN_ACCOUNT_SLOW_AFTER', d.accountSlowAfter),
    baseDelayMs: positiveIntFrom(env, 'PIPEWORK_LOGIN_DELAY_MILLIS', d.baseDelayMs),
    maxDelayMs: positiveIntFrom(env, 'PIPEWORK_LOGIN_MAX_DELAY_MILLIS', d.maxDelayMs),
    lockMs: positiveIntFrom(env, 'PIPEWORK_LOGIN_LOCK_SECONDS', d.lockMs / 1000) * 1000,
    windowMs: positiveIntFrom(env, 'PIPEWORK_LOGIN_WINDOW_SECONDS', d.windowMs / 1000) * 1000,
  };
}
