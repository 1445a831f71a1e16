/** Secure delivery: stored deliveries, their mails, the download page's service. */
import type { SqlPort } from '../db/sql';
import { migrateModule } from '../db/sql';
import type { Logger } from '../logging/logger';
import type { MailService } from '../mail';
import type { DeliveryConfig } from './delivery-config';
import { DELIVERY_MIGRATIONS } from './delivery-migrations';
import { DeliveryService } from './delivery-service';
import { DeliveryStore } from './delivery-store';

export { loadDeliveryConfig, type DeliveryConfig } from './delivery-config';
export { DeliveryService, type DeliveryInput, type OpenedLink } from './delivery-service';
export { deliveryView, privacyLevelOf, type Delivery } from './delivery-records';
export type { NewAttachment } from './delivery-store';

/** Migrates the delivery tables and builds the service. */
export async function createDeliveryService(
  sql: SqlPort,
  mail: MailService,
  config: DeliveryConfig,
  baseUrl: () => string,
  logger?: Logger,
): Promise<DeliveryService> {
  await migrateModule(sql, 'delivery', DELIVERY_MIGRATIONS);
  return new DeliveryService(new DeliveryStore(sql), mail, config, baseUrl, logger);
}
