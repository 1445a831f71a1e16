/** The history's bounds from the environment: `PIPEWORK_HISTORY_MAX_VERSIONS` (0 = off) and `..._MAX_DAYS` (0 = no age bound). */
import { DEFAULT_HISTORY_BOUNDS, type HistoryBounds } from '../../shared/property';
import { nonNegativeIntFrom } from '../config-env';

export function loadHistoryBounds(env: NodeJS.ProcessEnv): HistoryBounds {
  return {
    maxVersions: nonNegativeIntFrom(env, 'PIPEWORK_HISTORY_MAX_VERSIONS', DEFAULT_HISTORY_BOUNDS.maxVersions),
    maxDays: nonNegativeIntFrom(env, 'PIPEWORK_HISTORY_MAX_DAYS', DEFAULT_HISTORY_BOUNDS.maxDays),
  };
}
