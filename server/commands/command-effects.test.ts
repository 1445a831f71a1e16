/** Every command says whether it only reads or writes: GET runs only the ones that read (browser-request-guard.ts). */
import { describe, expect, it } from 'vitest';
import { isReadOnly } from '../../shared/commands';
import { serverCommands } from './index';

describe('command effects', () => {
  it('every registered command declares read or write', () => {
    const missing = serverCommands.filter((c) => c.contract.effect === undefined).map((c) => c.contract.name);
    expect(missing).toEqual([]);
  });

  it('commands that change data, sessions or other systems are writes', () => {
    const writes = [
      'property.put',
      'property.delete',
      'property.copy',
      'property.move',
      'property.attachment.put',
      'iam.user.create',
      'iam.user.add.roles',
      'iam.group.add.roles',
      'iam.token',
      'iam.bruteforce.release',
      'drive.save',
      'drive.copy',
      'mail.send',
      'cache.put',
      'cache.clear',
      'http.get',
      'http.post',
      'script.run',
      'sql.query',
      'call',
      'pipeline.start',
      'pipeline.run',
      'test.run',
      'event.listen',
    ];
    const byName = new Map(serverCommands.map((c) => [c.contract.name, c.contract]));
    for (const name of writes) expect(isReadOnly(byName.get(name)!), name).toBe(false);
  });

  it('the documented GET reads stay reads', () => {
    const reads = [
      'property.get',
      'property.list',
      'property.value.get',
      'property.exists',
      'drive.read',
      'cache.get',
      'log',
      'datetime',
      'pipe.schema.v7',
    ];
    const byName = new Map(serverCommands.map((c) => [c.contract.name, c.contract]));
    for (const name of reads) expect(isReadOnly(byName.get(name)!), name).toBe(true);
  });
});
