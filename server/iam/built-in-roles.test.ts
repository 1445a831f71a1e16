// ROLE_DEVELOPER covers the commands an app developer needs, and still not the IAM writes or the mail outbox;
// new default permissions reach installations made by an earlier version, once.
import { describe, expect, it } from 'vitest';
import { ROLE_DEVELOPER, ROLE_USER, hasPermission } from '../../shared/auth';
import { serverCommands } from '../commands';
import type { SqliteSqlPort } from '../db/sql';
import { BUILT_IN_ROLES } from '../commands/command-roles';
import { createTestIam } from './test-iam';

const DEVELOPER_COMMANDS = [
  'test.run',
  'mock.command',
  'sql.query',
  'barcode.create',
  'switch',
  'call',
  'pipeline.start',
  'pipeline.run',
  'script.run',
  'http.get',
  'http.post',
  'drive.save',
  'drive.read',
  'mail.send',
  'pdf.create',
  'pdf.stamp',
  'cache.put',
  'encrypt',
  'decrypt',
  'config.get',
  'data.mapping',
  'transform',
  'transform.json.csv',
  'event.listen',
];

const ADMIN_ONLY = [
  'iam.user.create',
  'iam.user.delete',
  'iam.user.add.roles',
  'iam.role.create',
  'iam.role.add.composites',
  'iam.group.create',
  'iam.tenant.create',
  'iam.run.as',
  // The outbox holds every user's mail (rendered with each sender's permissions): the admin's to read.
  'mail.outbox.list',
  'mail.outbox.read',
];

describe('ROLE_DEVELOPER', () => {
  it('may run the commands apps are built with, and no IAM writes or outbox reads', async () => {
    const { iam } = await createTestIam();
    const dev = await iam.createUser({ username: 'dev', password: 'pw', roles: [ROLE_DEVELOPER] });
    const registered = new Set(serverCommands.map((c) => c.contract.name));
    for (const name of [...DEVELOPER_COMMANDS, ...ADMIN_ONLY])
      expect(registered.has(name), `${name} is registered`).toBe(true);
    const denied = DEVELOPER_COMMANDS.filter((name) => !hasPermission(dev, `CAN_PIPE_${name}`));
    expect(denied).toEqual([]);
    const allowed = ADMIN_ONLY.filter((name) => hasPermission(dev, `CAN_PIPE_${name}`));
    expect(allowed).toEqual([]);
  });
});

describe('default permissions on an installation made by an earlier version', () => {
  const ROLE_USER_DEFAULTS = BUILT_IN_ROLES.find((r) => r.name === ROLE_USER)!.composites;

  /** Takes a composite away from ROLE_USER, as an admin would (or as an older version never gave it). */
  function takeAway(sql: SqliteSqlPort, composite: string, forget: boolean) {
    sql.db
      .prepare(
        `DELETE FROM iam_role_composite WHERE parent_uuid = (SELECT uuid FROM iam_role WHERE name = ?)
           AND child_uuid = (SELECT uuid FROM iam_role WHERE name = ?)`,
      )
      .run(ROLE_USER, composite);
    if (forget) {
      sql.db
        .prepare('DELETE FROM iam_role_default_grant WHERE role_name = ? AND composite = ?')
        .run(ROLE_USER, composite);
    }
  }

  it('gives a built-in role the defaults it never had at the next start, and not one an admin took away', async () => {
    const first = await createTestIam();
    expect(await first.iam.roles.compositeNames(ROLE_USER)).toEqual([...ROLE_USER_DEFAULTS].sort());
    // An older version: these two defaults did not exist when the installation was made.
    takeAway(first.sql, 'CAN_PIPE_async.poll', true);
    takeAway(first.sql, 'CAN_PIPE_log.list', true);
    // The admin removed this one on purpose.
    takeAway(first.sql, 'CAN_PIPE_secret.delete', false);

    const restarted = await createTestIam({ db: first.db });
    const now = await restarted.iam.roles.compositeNames(ROLE_USER);
    expect(now).toContain('CAN_PIPE_async.poll');
    expect(now).toContain('CAN_PIPE_log.list');
    expect(now).not.toContain('CAN_PIPE_secret.delete');
    const ulla = await restarted.iam.createUser({ username: 'ulla', password: 'pw', roles: [ROLE_USER] });
    expect(hasPermission(ulla, 'CAN_PIPE_async.poll')).toBe(true);
    expect(hasPermission(ulla, 'CAN_PIPE_secret.delete')).toBe(false);

    // Once given, a default taken away stays away on every later start.
    takeAway(restarted.sql, 'CAN_PIPE_async.poll', false);
    const again = await createTestIam({ db: first.db });
    expect(await again.iam.roles.compositeNames(ROLE_USER)).not.toContain('CAN_PIPE_async.poll');
  });
});
