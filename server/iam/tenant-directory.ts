/** Tenants and their members: a tenant's uuid names its folder `tenant/<uuid>/` in the property store. */
import { randomUUID } from 'node:crypto';
import { PipeworkError } from '../../shared/errors';
import type { SqliteDatabase } from '../db';
import { checkTenantName } from './names';
import { type TenantRepresentation, type TenantRow, tenantRepresentation } from './records';

export class TenantDirectory {
  constructor(
    private readonly db: SqliteDatabase,
    private readonly changed: () => void,
  ) {}

  byName(name: string): TenantRow | undefined {
    return this.db.prepare<[string], TenantRow>('SELECT * FROM iam_tenant WHERE name = ?').get(name);
  }

  byUuid(uuid: string): TenantRow | undefined {
    return this.db.prepare<[string], TenantRow>('SELECT * FROM iam_tenant WHERE uuid = ?').get(uuid);
  }

  require(ref: { uuid?: string; name?: string }): TenantRow {
    const row = ref.uuid ? this.byUuid(ref.uuid) : ref.name ? this.byName(ref.name) : undefined;
    if (!row) throw new PipeworkError('NOT_FOUND', `Tenant '${ref.uuid ?? ref.name ?? ''}' does not exist.`);
    return row;
  }

  create(name: string): TenantRow {
    checkTenantName(name, 'name');
    if (this.byName(name)) throw new PipeworkError('CONFLICT', `Tenant '${name}' already exists.`);
    const row: TenantRow = { uuid: randomUUID(), name, created: Date.now() };
    this.db.prepare('INSERT INTO iam_tenant (uuid, name, created) VALUES (@uuid, @name, @created)').run(row);
    return row;
  }

  delete(uuid: string): void {
    this.require({ uuid });
    this.db.prepare('DELETE FROM iam_tenant WHERE uuid = ?').run(uuid);
    this.changed();
  }

  addMember(tenantUuid: string, userUuid: string): void {
    this.require({ uuid: tenantUuid });
    this.db
      .prepare('INSERT OR IGNORE INTO iam_tenant_member (tenant_uuid, user_uuid) VALUES (?, ?)')
      .run(tenantUuid, userUuid);
    this.changed();
  }

  removeMember(tenantUuid: string, userUuid: string): void {
    this.db
      .prepare('DELETE FROM iam_tenant_member WHERE tenant_uuid = ? AND user_uuid = ?')
      .run(tenantUuid, userUuid);
    this.changed();
  }

  tenantsOfUser(userUuid: string): TenantRow[] {
    return this.db
      .prepare<[string], TenantRow>(
        'SELECT t.* FROM iam_tenant t JOIN iam_tenant_member m ON m.tenant_uuid = t.uuid WHERE m.user_uuid = ? ORDER BY t.name',
      )
      .all(userUuid);
  }

  list(): TenantRepresentation[] {
    return this.db
      .prepare<[], TenantRow>('SELECT * FROM iam_tenant ORDER BY name')
      .all()
      .map(tenantRepresentation);
  }
}
