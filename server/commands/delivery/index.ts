/** Every delivery.* command, for the server's command list. */
import type { CommandDefinition } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { deliveryAttachmentAdd } from './attachment-add';
import { deliveryCreate } from './create';
import { deliveryDelete, deliveryOutboxDelete } from './delete';
import { deliveryFinalize } from './finalize';
import { deliveryGet, deliveryOutboxDetails } from './get';
import { deliveryInboxDetails, deliveryInboxList, deliveryOutboxList } from './lists';
import { deliveryRecipientAdd } from './recipient-add';
import { deliverySend } from './send';
import { deliveryUpdate } from './update';

export const deliveryCommands: CommandDefinition<ServerServices>[] = [
  deliveryCreate,
  deliveryGet,
  deliveryUpdate,
  deliveryDelete,
  deliveryRecipientAdd,
  deliveryAttachmentAdd,
  deliveryFinalize,
  deliverySend,
  deliveryInboxList,
  deliveryInboxDetails,
  deliveryOutboxList,
  deliveryOutboxDetails,
  deliveryOutboxDelete,
];
