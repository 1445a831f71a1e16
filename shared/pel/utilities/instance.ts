/** `@instance`: facts about the running service (its profiles), filled in by the server. */
import type { PelUtility } from '../types';
import { type UtilitySpec, text, toUtility } from './support';

export interface PelInstanceInfo {
  profiles: readonly string[];
  name?: string;
}

/** The `@instance` functions, for `options.utilities.instance`. */
export function createInstanceUtility(info: PelInstanceInfo): PelUtility {
  return toUtility({
    name: 'instance',
    doc: '',
    functions: {
      profiles: { signature: '', doc: '', fn: () => [...info.profiles] },
      hasProfile: { signature: '', doc: '', fn: (...a) => info.profiles.includes(text('hasProfile', a, 0)) },
      name: { signature: '', doc: '', fn: () => info.name ?? null },
    },
  });
}

export const instanceUtilityDocs: UtilitySpec = {
  name: 'instance',
  doc: 'The running service (filled in by the server).',
  serverProvided: true,
  functions: {
    profiles: { signature: 'profiles()', doc: "The active profiles, e.g. {'test'}.", fn: () => null },
    hasProfile: { signature: 'hasProfile(name)', doc: 'True when the profile is active.', fn: () => null },
    name: { signature: 'name()', doc: 'The instance name.', fn: () => null },
  },
};
