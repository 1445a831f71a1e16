/** `@instance`: facts about the running service (its profiles), filled in by the server. */
import type { PelUtility } from '../types';
import { type UtilitySpec, toUtility } from './support';

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
    name: { signature: 'name()', doc: 'The instance name.', fn: () => null },
  },
};
