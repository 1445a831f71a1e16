// ROLE_DEVELOPER covers the commands an app developer needs, and still not the IAM writes or the mail outbox.
import { describe, expect, it } from 'vitest';
import { ROLE_DEVELOPER, hasPermission } from '../../shared/auth';
import { serverCommands } from '../commands';
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
