/** Every webhook.* command, for the server's command list (`webhook.receive` is the public route). */
import type { CommandDefinition } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { webhookDelete, webhookGet, webhookList } from './get';
import { webhookPut } from './put';

export const webhookCommands: CommandDefinition<ServerServices>[] = [
  webhookPut,
  webhookGet,
  webhookList,
  webhookDelete,
];
