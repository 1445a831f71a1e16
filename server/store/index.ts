/** The property store module's public face: the service commands use, the SQLite store, access rules and wiring. */
export {
  PropertyService,
  parseChildrenPattern,
  type CreatePropertyInput,
  type PutPropertyInput,
} from './property-service';
export { PropertyAttachmentService } from './property-attachment-service';
export {
  PropertyAccess,
  type AccessMode,
  type AppAccessRules,
  type PropertyAccessOptions,
} from './property-access';
export { SqlitePropertyStore, type SqlitePropertyStoreOptions } from './sqlite/sqlite-property-store';
export { ATTACHMENT_CHUNK_BYTES } from './attachment-chunks';
export { ObjectSchemaValidator } from './object-schema-validator';
export { createPropertyUtility, propertyUtilityFactory, MAX_UTILITY_VALUES } from './property-utility';
export { startTtlCleanup, type TtlCleanup, type TtlCleanupOptions } from './ttl-cleanup';
export { createPropertyServices, type PropertyJobs, type PropertyServices } from './create-property-services';
export { PROPERTY_MIGRATIONS } from './sqlite/sqlite-migrations';
