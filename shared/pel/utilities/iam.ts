/** `@iam`: looking users up, through an interface the server fills in with the caller's permissions. */
import type { PelUtility } from '../types';
import { type UtilitySpec, text, toUtility } from './support';

/**
 * What the server lets PEL look up, as the caller: a user the caller may not see (without the permission
 * `iam.user.get` needs) answers like a missing one, undefined.
 */
export interface PelIamReader {
  userByUuid(uuid: string): unknown;
  userByUsername(username: string): unknown;
  userByEmail(email: string): unknown;
}

export function iamSpec(reader: PelIamReader): UtilitySpec {
  const lookup = (fn: keyof PelIamReader, a: unknown[]): unknown => {
    if (a[0] === null || a[0] === undefined) return null;
    return reader[fn](text(fn, a, 0)) ?? null;
  };
  return {
    name: 'iam',
    doc: 'Users by id, name or email (filled in by the server; null when none, or when you may not look users up).',
    serverProvided: true,
    functions: {
      userByUuid: {
        signature: 'userByUuid(userUuid)',
        doc: 'The user (id, username, email, firstName, lastName, enabled), or null.',
        fn: (...a) => lookup('userByUuid', a),
      },
      userByUsername: {
        signature: 'userByUsername(username)',
        doc: "The user with that username, or null: @user.displayName(@iam.userByUsername('jdoe')).",
        fn: (...a) => lookup('userByUsername', a),
      },
      userByEmail: {
        signature: 'userByEmail(email)',
        doc: 'The user with that email address, or null.',
        fn: (...a) => lookup('userByEmail', a),
      },
    },
  };
}

export function createIamUtility(reader: PelIamReader): PelUtility {
  return toUtility(iamSpec(reader));
}

export const iamUtilityDocs: UtilitySpec = iamSpec({
  userByUuid: () => undefined,
  userByUsername: () => undefined,
  userByEmail: () => undefined,
});
