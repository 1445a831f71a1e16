/** `@iam` and the `uri:` resolver over fixed data, for the conformance cases (as the server fills them in). */
import type { PelUtilities } from '../types';
import { createIamUtility, createPropertyUtility, createUriUtilities } from '../utilities';

const properties: Record<string, unknown> = {
  'global/app/demo/config/app': { emails: ['a@example.com', 'b@example.com'], recipient: 'ops@example.com' },
  'global/app/demo/text': 'hello',
  'global/app/scratch/value': 'v0',
};

const users: Record<string, unknown>[] = [
  {
    id: 'u-1',
    username: 'jdoe',
    email: 'jdoe@example.com',
    firstName: 'John',
    lastName: 'Doe',
    enabled: true,
  },
  {
    id: 'u-2',
    username: 'asmith',
    email: 'asmith@example.com',
    firstName: 'Ann',
    lastName: 'Smith',
    enabled: true,
  },
];

const byField = (field: string, value: string): unknown => users.find((u) => u[field] === value);

export const serverFixtures: PelUtilities = {
  property: createPropertyUtility({
    value: (key) => properties[key],
    get: (key) =>
      Object.hasOwn(properties, key) ? { key, value: properties[key], type: 'json' } : undefined,
    values: (pattern) =>
      Object.keys(properties)
        .filter((k) => k.startsWith(pattern.replace(/\*+$/, '')))
        .sort()
        .map((k) => properties[k]),
    // As property.put: only existing properties, and here only those of the scratch app.
    updateValue: (key, value) => {
      if (!key.startsWith('global/app/scratch/')) throw new Error(`you may not write '${key}'`);
      if (!Object.hasOwn(properties, key)) throw new Error(`no property '${key}'`);
      properties[key] = value;
      return value;
    },
  }),
  iam: createIamUtility({
    userByUuid: (uuid) => byField('id', uuid),
    userByUsername: (username) => byField('username', username),
    userByEmail: (email) => byField('email', email),
  }),
  ...createUriUtilities({
    property: (key) => properties[key],
    user: (by, value) => (by === 'current' ? users[0] : byField(by === 'uuid' ? 'id' : by, value)),
  }),
};
