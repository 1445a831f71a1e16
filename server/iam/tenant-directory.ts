/** Tenants and their members: a tenant's uuid names its folder `tenant/<uuid>/` in the property store. */
import { randomUUID } from 'node:crypto';
import { PipeworkError } from '../../shared/errors';
import { type SqlPort, type SqlSteps, get, run } from '../db/sql';
import { checkTenantName } from './names';
import { type TenantRepresentation, type TenantRow, tenantRepresentation } from './records';

export class TenantDirectory {
  constructor(
    private readonly sql: SqlPort,
    private readonly changed: () => void,
  ) {}

  byName(name: string): Promise<TenantRow | undefined> {
    return this.sql.get<TenantRow>('SELECT * FROM iam_tenant WHERE name = $1', [name]);
  }

  byUuid(uuid: string): Promise<TenantRow | undefined> {
    return this.sql.get<TenantRow>('SELECT * FROM iam_tenant WHERE uuid = $1', [uuid]);
  }

  async require(ref: { uuid?: string; name?: string }): Promise<TenantRow> {
    const row = ref.uuid ? await this.byUuid(ref.uuid) : ref.name ? await this.byName(ref.name) : undefined;
    if (!row) throw new PipeworkError('NOT_FOUND', `Tenant '${ref.uuid ?? ref.name ?? ''}' does not exist.`);
    return row;
  }

  async create(name: string): Promise<TenantRow> {
    checkTenantName(name, 'name');
    const row: TenantRow = { uuid: randomUUID(), name, created: Date.now() };
    await this.sql.transaction(function* () {
      if (yield* get('SELECT 1 FROM iam_tenant WHERE name = $1', [name])) {
        throw new PipeworkError('CONFLICT', `Tenant '${name}' already exists.`);
      }
      yield* run('INSERT INTO iam_tenant (uuid, name, created) VALUES ($1, $2, $3)', [
        row.uuid,
        row.name,
        row.created,
      ]);
    });
    return row;
  }

  async delete(uuid: string): Promise<void> {
    await this.require({ uuid });
    await this.sql.run('DELETE FROM iam_tenant WHERE uuid = $1', [uuid]);
    this.changed();
  }

  async addMember(tenantUuid: string, userUuid: string): Promise<void> {
    await this.require({ uuid: tenantUuid });
    await this.sql.transaction(() => this.addMemberSteps(tenantUuid, userUuid));
    this.changed();
  }

  *addMemberSteps(tenantUuid: string, userUuid: string): SqlSteps<void> {
    yield* run(
      'INSERT INTO iam_tenant_member (tenant_uuid, user_uuid) VALUES ($1, $2) ON CONFLICT DO NOTHING',
      [tenantUuid, userUuid],
    );
  }

  async removeMember(tenantUuid: string, userUuid: string): Promise<void> {
    await this.sql.run('DELETE FROM iam_tenant_member WHERE tenant_uuid = $1 AND user_uuid = $2', [
      tenantUuid,
      userUuid,
    ]);
    this.changed();
  }

  tenantsOfUser(userUuid: string): Promise<TenantRow[]> {
    return this.sql.all<TenantRow>(
      'SELECT t.* FROM iam_tenant t JOIN iam_tenant_member m ON m.tenant_uuid = t.uuid WHERE m.user_uuid = $1 ORDER BY t.name',
      [userUuid],
    );
  }

  async list(): Promise<TenantRepresentation[]> {
    const rows = await this.sql.all<TenantRow>('SELECT * FROM iam_tenant ORDER BY name');
    return rows.map(tenantRepresentation);
  }
}
