/** The property module's public face: key rules, wildcards, key ranges, app layout, values, the record and the store contract. */
export {
  PROPERTY_ROOTS,
  MAX_KEY_LENGTH,
  MAX_ATTACHMENT_NAME_LENGTH,
  type PropertyRoot,
  type ParsedPropertyKey,
  parsePropertyKey,
  normalizePropertyKey,
  isValidPropertyKey,
  isPropertyRoot,
  parentKeyOf,
  nameOfKey,
  checkAttachmentName,
  instancePathOf,
} from './property-key';
export {
  compileKeyPattern,
  matchesKeyPattern,
  literalPrefixOf,
  type KeyPattern,
  type SegmentPattern,
} from './key-pattern';
export { scanRanges, isInScope, prefixUpperBound, type KeyRange, type KeyScope } from './key-range';
export {
  RESERVED_APPS,
  RESERVED_APP_KEYS,
  APP_SECTIONS,
  appFolderOf,
  isReservedAppKey,
  containsReservedApp,
  objectKeyOf,
  isAppPipelineKey,
  EXECUTABLE_APP_SECTIONS,
  executableAppOf,
  type AppFolder,
  type ObjectKey,
} from './app-layout';
export {
  DEFAULT_PROPERTY_TYPE,
  type Property,
  type NewProperty,
  type PropertyPatch,
  type PropertyChange,
  type PropertyAttachment,
  type JsonValue,
} from './property';
export {
  normalizePropertyType,
  toStoredValue,
  decodePropertyValue,
  isBase64Type,
  isJsonType,
  baseMimeType,
  type StoredValue,
} from './property-value';
export { bytesToBase64, base64ToBytes } from './base64';
export type {
  PropertyStore,
  PropertyQuery,
  SyncPropertyReader,
  SyncPropertyWriter,
  AttachmentStore,
  AttachmentPutOptions,
  AttachmentWriteOptions,
  WriteOptions,
  SaveOptions,
  SaveResult,
  UpdateOptions,
  UpdateResult,
  DeleteMatchingOptions,
  ExistStrategy,
  QueryDialect,
  QueryRows,
  ChildrenPage,
  ChildrenPageQuery,
} from './property-store';
export {
  LOCK_TAG,
  LOCK_TYPES,
  type LockTag,
  type LockType,
  type PropertyMarks,
  type PropertyTags,
  type TrashedProperty,
  type TrashOptions,
} from './property-marks';
export {
  DEFAULT_HISTORY_BOUNDS,
  type HistoryBounds,
  type HistoryListOptions,
  type PropertyHistoryReader,
  type PropertyVersion,
  type PropertyVersionKind,
  type PropertyVersionSummary,
} from './property-history';
export {
  INSTANCE_COLUMNS,
  MAX_INSTANCE_PAGE,
  MAX_INSTANCE_FILTERS,
  instanceFieldPath,
  isInstanceColumn,
  type InstanceField,
  type InstanceFilter,
  type InstancePageQuery,
  type InstancePage,
  type InstanceRow,
} from './instance-page';
