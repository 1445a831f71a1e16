// Every command names its audience in its contract, and the built-in roles are exactly what those say:
// each permission a command's own name, no patterns, no command given to more than its audience.
import { describe, expect, it } from 'vitest';
import { ROLE_ADMIN, ROLE_DEVELOPER, ROLE_USER } from '../../shared/auth';
import { COMMAND_AUDIENCES, permissionOf } from '../../shared/commands';
import { BUILT_IN_ROLES } from './command-roles';
import { serverCommands } from './index';

const compositesOf = (name: string) => BUILT_IN_ROLES.find((r) => r.name === name)!.composites;

describe('command audiences', () => {
  it('every registered command names one of the audiences', () => {
    const missing = serverCommands
      .filter((c) => !COMMAND_AUDIENCES.includes(c.contract.audience!))
      .map((c) => c.contract.name);
    expect(missing).toEqual([]);
  });

  it("the built-in roles hold each command's permission for its audience and no patterns", () => {
    const user = new Set(compositesOf(ROLE_USER));
    const developer = new Set(compositesOf(ROLE_DEVELOPER));
    for (const { contract } of serverCommands) {
      const permission = permissionOf(contract);
      const where = [user.has(permission), developer.has(permission)];
      const expected = { user: [true, false], developer: [false, true], admin: [false, false] };
      // A permission shared by commands (aliases, the if family) sits where its first audience put it.
      const sharing = serverCommands.filter((c) => permissionOf(c.contract) === permission);
      if (sharing.every((c) => c.contract.audience === contract.audience)) {
        expect(where, contract.name).toEqual(expected[contract.audience!]);
      }
    }
    for (const composite of [...user, ...developer]) expect(composite.includes('*'), composite).toBe(false);
    expect(compositesOf(ROLE_DEVELOPER)).toContain(ROLE_USER);
    expect(compositesOf(ROLE_ADMIN)).toContain(ROLE_DEVELOPER);
  });

  it('keeps the IAM writes, the outbox and the key rotation for admins', () => {
    const byName = new Map(serverCommands.map((c) => [c.contract.name, c.contract.audience]));
    for (const name of ['iam.user.create', 'iam.role.add.composites', 'iam.run.as', 'mail.outbox.list']) {
      expect(byName.get(name), name).toBe('admin');
    }
    expect(byName.get('secret.key.rotate')).toBe('admin');
    expect(byName.get('property.put')).toBe('user');
    expect(byName.get('script.run')).toBe('developer');
  });
});
