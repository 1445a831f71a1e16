/** Every property.* command, for the server's command list. */
import type { CommandDefinition } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { propertyAttachmentChecksum } from './attachment-checksum';
import { propertyAttachmentChunkGet } from './attachment-chunk-get';
import { propertyAttachmentChunkPut } from './attachment-chunk-put';
import { propertyAttachmentContent } from './attachment-content';
import { propertyAttachmentDelete } from './attachment-delete';
import { propertyAttachmentGet } from './attachment-get';
import { propertyAttachmentList } from './attachment-list';
import { propertyAttachmentPut } from './attachment-put';
import { propertyCopy } from './copy';
import { propertyDelete } from './delete';
import { propertyExists } from './exists';
import { propertyGet } from './get';
import { propertyHistoryDiff } from './history-diff';
import { propertyHistoryGet } from './history-get';
import { propertyHistoryList } from './history-list';
import { propertyHistoryRestore } from './history-restore';
import { propertyImport } from './import';
import { propertyKeys } from './keys';
import { propertyKeysChildren } from './keys-children';
import { propertyKeysChildrenPage } from './keys-children-page';
import { propertyObjectInstances } from './object-instances';
import { propertyList } from './list';
import { propertyLockGet } from './lock-get';
import { propertyLockPut } from './lock-put';
import { propertyLockRemove } from './lock-remove';
import { propertyMove } from './move';
import { propertyPut } from './put';
import { propertyQuery } from './query';
import { propertySchemaDelete } from './schema-delete';
import { propertySchemaPut } from './schema-put';
import { propertySendDelivery } from './send-delivery';
import { propertyTagList } from './tag-list';
import { propertyTagPut } from './tag-put';
import { propertyValueGet } from './value-get';

export const propertyCommands: CommandDefinition<ServerServices>[] = [
  propertySchemaPut,
  propertyPut,
  propertyList,
  propertyDelete,
  propertySchemaDelete,
  propertyGet,
  propertyValueGet,
  propertyExists,
  propertyImport,
  propertyCopy,
  propertyMove,
  propertyKeys,
  propertyKeysChildren,
  propertyKeysChildrenPage,
  propertyObjectInstances,
  propertyAttachmentPut,
  propertyAttachmentChunkPut,
  propertyAttachmentChunkGet,
  propertyAttachmentChecksum,
  propertyAttachmentList,
  propertyAttachmentGet,
  propertyAttachmentContent,
  propertyAttachmentDelete,
  propertySendDelivery,
  propertyHistoryList,
  propertyHistoryGet,
  propertyHistoryDiff,
  propertyHistoryRestore,
  propertyQuery,
  propertyLockPut,
  propertyLockGet,
  propertyLockRemove,
  propertyTagPut,
  propertyTagList,
];
