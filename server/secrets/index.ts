/** Named secrets (docs/secrets.md): the sealed store, its master key, the formats, the service. */
import type { SqlPort } from '../db/sql';
import { migrateModule } from '../db/sql';
import type { IamService } from '../iam';
import { SecretKeyRing, type SecretKeyConfig } from './secret-keys';
import { SECRET_MIGRATIONS } from './secret-migrations';
import { SecretService } from './secret-service';
import { SecretStore } from './secret-store';

export { SecretService, type SecretInfo, type PutSecretInput, type ScopeInput } from './secret-service';
export { SECRET_FORMATS, isSecretFormat, type SecretFormat, type SecretMaterial } from './secret-formats';
export { loadSecretKeyConfig, type SecretKeyConfig } from './secret-keys';
export type { SecretScope } from './secret-store';

/** Migrates the secret table, loads (or creates) the master key and builds the service. */
export async function createSecretService(
  sql: SqlPort,
  iam: IamService,
  config: SecretKeyConfig,
): Promise<SecretService> {
  await migrateModule(sql, 'secret', SECRET_MIGRATIONS);
  return new SecretService(new SecretStore(sql), new SecretKeyRing(config), iam);
}
